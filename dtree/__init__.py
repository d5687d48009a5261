"""dtree: decision trees written to be read (ID3, C4.5, CART, their pruning and boosting).

The library behind the open textbook in ``book/``; every number in the book is computed here.
Each name below is imported from its module on first use, so that ``import dtree`` is quick and
a session that never draws a tree never imports matplotlib.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: where each public name lives
_HOMES = {
    "C45Classifier": "estimators", "CARTClassifier": "estimators",
    "CARTRegressor": "estimators", "ID3Classifier": "estimators",
    "export_graphviz": "export", "export_text": "export", "leaf_table": "export",
    "entropy": "impurity", "gain_ratio": "impurity", "gini": "impurity",
    "gini_index": "impurity", "info_gain": "impurity", "intrinsic_value": "impurity",
    "misclassification": "impurity",
    "plot_tree": "plot", "plot_cp": "plot",
    "cost_complexity_path": "pruning", "prune_cost_complexity": "pruning",
    "prune_error_based": "pruning", "prune_pessimistic": "pruning",
    "prune_reduced_error": "pruning",
    "corrected_t_test": "evaluation",
    "cp_table": "report", "rpart_nodes": "report", "rpart_text": "report",
    "export_rules": "rules", "tree_rules": "rules", "RuleListClassifier": "rules",
    "simplify_rules": "rules",
    "best_threshold": "splits",
    "Node": "tree",
    "AdaBoostClassifier": "boosting", "GradientBoostingClassifier": "boosting",
    "GradientBoostingRegressor": "boosting",
}
_MODULES = ("boosting", "datasets", "estimators", "evaluation", "export", "grow", "impurity",
            "jit", "kernels", "plot", "probability", "pruning", "report", "routing", "rules",
            "selection", "splits", "surrogates", "tolerances", "tree", "verify")

__all__ = [
    "AdaBoostClassifier", "GradientBoostingClassifier", "GradientBoostingRegressor",
    "C45Classifier", "CARTClassifier", "CARTRegressor", "ID3Classifier", "Node",
    "RuleListClassifier", "best_threshold",
    "corrected_t_test", "cost_complexity_path", "cp_table", "datasets", "entropy",
    "export_graphviz", "export_rules", "export_text",
    "gain_ratio", "gini", "gini_index", "info_gain", "intrinsic_value", "leaf_table",
    "misclassification",
    "plot_cp", "plot_tree", "prune_cost_complexity", "prune_error_based", "prune_pessimistic",
    "prune_reduced_error", "rpart_nodes", "rpart_text", "simplify_rules", "tree_rules", "verify",
]
__version__ = "0.2.0"


def __getattr__(name: str):
    """A public name or a submodule, imported on first use (PEP 562)."""
    if name in _HOMES:
        value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    elif name in _MODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES, *_MODULES})


if TYPE_CHECKING:  # what the names are, for readers' tools
    from . import datasets, verify
    from .boosting import (AdaBoostClassifier, GradientBoostingClassifier,
                           GradientBoostingRegressor)
    from .estimators import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
    from .export import export_graphviz, export_text, leaf_table
    from .impurity import (entropy, gain_ratio, gini, gini_index, info_gain,
                           intrinsic_value, misclassification)
    from .plot import plot_cp, plot_tree
    from .pruning import (cost_complexity_path, prune_cost_complexity, prune_error_based,
                          prune_pessimistic, prune_reduced_error)
    from .report import cp_table, rpart_nodes, rpart_text
    from .rules import RuleListClassifier, export_rules, simplify_rules, tree_rules
    from .splits import best_threshold
    from .tree import Node

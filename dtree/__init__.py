"""dtree: decision trees written to be read (ID3, C4.5, CART and their pruning).

The library behind the open textbook in ``book/``; every number in the book is computed here.
"""
from . import datasets, verify
from .estimators import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from .export import export_text, leaf_table
from .impurity import (entropy, gain_ratio, gini, gini_index, info_gain, intrinsic_value,
                       misclassification)
from .plot import plot_tree
from .pruning import (cost_complexity_path, prune_cost_complexity, prune_error_based,
                      prune_pessimistic, prune_reduced_error)
from .splits import best_threshold
from .tree import Node

__all__ = [
    "C45Classifier", "CARTClassifier", "CARTRegressor", "ID3Classifier", "Node", "best_threshold",
    "cost_complexity_path", "datasets", "entropy", "export_text", "gain_ratio", "gini",
    "gini_index", "info_gain", "intrinsic_value", "leaf_table", "misclassification",
    "plot_tree", "prune_cost_complexity", "prune_error_based", "prune_pessimistic",
    "prune_reduced_error", "verify",
]
__version__ = "0.1.0"

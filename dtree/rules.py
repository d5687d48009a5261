"""A fitted tree read as rules: one ``if ... then ...`` rule per leaf.

The path from the root to a leaf is a conjunction of tests, and the leaf's class (or value) is
the rule's conclusion (Quinlan 1993, ch. 5, which goes on to simplify such rules). Each rule
carries its *cover*, the weight of the training rows that reach its leaf, and for a classifier
its *confidence*, the share of that weight in the predicted class. Two tests of one numeric
attribute on a path are merged into one interval, and of nested category sets the innermost is
kept, so that a rule names each attribute once.

The rules describe rows whose tested values are known; a row with a missing value follows the
model's own rule for it (fractions, surrogates or a learned side), which ``predict`` applies.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .export import decision_loss, fitted_tree, leaf_paths, predicted_class, weight_text
from .tree import Node, most_probable

__all__ = ["Rule", "tree_rules", "export_rules"]


@dataclass(frozen=True)
class Rule:
    """One leaf as a rule: ``conditions`` (each as "texture = clear", "0.38 < density <= 0.5",
    "color in {black, green}"), what it ``predicts``, its ``cover`` (the weight of the training
    rows at the leaf), its ``confidence`` (the predicted class's share of that weight; None for
    a regressor) and its ``leaf``, the node id ``apply`` gives."""

    conditions: tuple[str, ...]
    predicts: object
    cover: float
    confidence: float | None
    leaf: int

    def __str__(self) -> str:
        test = " and ".join(self.conditions) or "always"
        if self.confidence is None:  # a regressor's value
            return f"if {test} then {self.predicts:.4g} (cover {weight_text(self.cover)})"
        return (f"if {test} then {self.predicts} (cover {weight_text(self.cover)}, "
                f"confidence {self.confidence:.3f})")


def tree_rules(model) -> list[Rule]:
    """The rules of ``model``'s fitted tree, one per leaf, left to right (the order of
    ``apply``'s leaf ids). A leaf no training row reached (an empty branch) has cover 0, and
    predicts as its parent, with the parent's confidence.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.

    Returns
    -------
    list of Rule

    Examples
    --------
    >>> from dtree import CARTClassifier
    >>> from dtree.rules import tree_rules
    >>> model = CARTClassifier().fit([[1], [2], [3], [4]], ["no", "no", "yes", "yes"])
    >>> print(*tree_rules(model), sep="\\n")
    if x0 <= 2.5 then no (cover 2, confidence 1.000)
    if x0 > 2.5 then yes (cover 2, confidence 1.000)
    """
    root = fitted_tree(model)
    classes, loss = getattr(model, "classes_", None), decision_loss(model)
    ids = root.numbers()
    rules = []
    for node, path in leaf_paths(root):
        if classes is None:
            predicts, confidence = float(node.prediction[0]), None
        else:
            predicts = predicted_class(node, classes, loss)
            confidence = float(node.prediction[most_probable(node.prediction, loss)])
        rules.append(Rule(_conditions(path), predicts, float(node.weighted_n_samples),
                          confidence, ids[id(node)]))
    return rules


def export_rules(model) -> str:
    """The rules of :func:`tree_rules`, one a line."""
    return "\n".join(map(str, tree_rules(model)))


def _conditions(path: tuple[tuple[Node, int], ...]) -> tuple[str, ...]:
    """The tests of a path (each node with the branch taken), one per attribute, in the order
    the attributes are first tested: a numeric attribute's thresholds as the interval they
    leave, else the innermost test (each set of categories on a path lies inside the one above
    it)."""
    lower: dict[str, float] = {}
    upper: dict[str, float] = {}
    last: dict[str, str] = {}
    for node, branch in path:
        feature = str(node.feature)
        last.setdefault(feature, "")
        if node.threshold is not None and np.isfinite(node.threshold) and branch < 2:
            bound = lower if branch else upper
            keep = max if branch else min
            bound[feature] = keep(bound.get(feature, node.threshold), node.threshold)
        else:
            last[feature] = f"{feature} {node.branch_labels()[branch]}"
    conditions = []
    for feature, test in last.items():
        low, high = lower.get(feature), upper.get(feature)
        if low is not None and high is not None:
            conditions.append(f"{low:g} < {feature} <= {high:g}")
        elif high is not None:
            conditions.append(f"{feature} <= {high:g}")
        elif low is not None:
            conditions.append(f"{feature} > {low:g}")
        if test:
            conditions.append(test)
    return tuple(conditions)

"""The generic grower: one procedure for every algorithm in the book.

Starting from the root with all rows, each node is either made a leaf by the first stopping rule
that applies, or split on the attribute with the best score; its rows are handed to the children
and the same happens there (Quinlan 1986; Zhou 2016, fig. 4.2). What differs between ID3, C4.5
and CART is only the criterion and the kinds of split, passed in as arguments.

Rows carry weights. A row whose tested value is missing goes to every child with its weight
multiplied by the child's share of the known weight, r~_v (Zhou 2016, sec. 4.4.2).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import Feature
from .impurity import IMPURITIES, SCORES, stats_weight
from .splits import Split, multiway_split, threshold_split
from .tree import Node

__all__ = ["StoppingRules", "grow", "STOP_REASONS"]

#: why a node became a leaf, in the order the rules are tried
STOP_REASONS = {
    "empty": "no training rows reached this branch; it predicts like its parent",
    "pure": "all rows have the same target",
    "max_depth": "the depth limit was reached",
    "min_samples_split": "fewer rows than min_samples_split",
    "purity_threshold": "the majority class reached purity_threshold",
    "no_attributes": "no attributes are left to test",
    "no_split": "the rows agree on every remaining attribute",
    "min_impurity_decrease": "the best split's gain is below min_impurity_decrease",
}

#: two scores closer than this are a tie, broken by the attributes' priority
TIE_TOLERANCE = dict(rtol=1e-9, atol=1e-12)


@dataclass(frozen=True)
class StoppingRules:
    """When a node stops splitting (pre-pruning). ``max_depth=None`` means unlimited."""

    max_depth: int | None = None
    min_samples_split: int = 2
    min_impurity_decrease: float = 0.0
    purity_threshold: float = 1.0


def grow(X: np.ndarray, features: list[Feature], target_stats: np.ndarray,
         sample_weight: np.ndarray, criterion: str, stopping: StoppingRules,
         priority: np.ndarray) -> Node:
    """Grow a tree on the encoded matrix ``X`` and return its root.

    ``target_stats`` holds each row's unweighted statistics (one-hot classes, or [1, y, y^2]);
    ``priority`` ranks the features for breaking ties (lower wins).
    """
    impurity = SCORES[criterion]
    rows = np.arange(X.shape[0])
    stats = target_stats * sample_weight[:, None]
    root = _make_node(stats, impurity, depth=0)
    work = [(root, rows, sample_weight, stats, tuple(range(len(features))))]
    while work:
        node, rows, weights, stats, available = work.pop()
        split = _stop_or_split(node, X[rows], features, target_stats[rows], weights, stats,
                               available, criterion, stopping, priority)
        if split is None:
            continue
        _attach_split(node, split, features)
        branches = node.branch(X[rows, split.feature])
        missing = branches < 0
        if split.is_multiway:
            available = tuple(j for j in available if j != split.feature)
        for b, fraction in enumerate(node.branch_fractions):
            here = (branches == b) | (missing & (fraction > 0))
            child_weights = np.where(missing, weights * fraction, weights)[here]
            child_stats = target_stats[rows[here]] * child_weights[:, None]
            child = _make_node(child_stats, impurity, node.depth + 1, parent=node)
            node.children.append(child)
            if child.stop_reason != "empty":
                work.append((child, rows[here], child_weights, child_stats, available))
    return root


def _make_node(stats: np.ndarray, impurity: str, depth: int, parent: Node | None = None) -> Node:
    total = stats.sum(axis=0)
    weight = float(stats_weight(total, impurity))
    if impurity == "squared_error":
        mean = total[1] / weight if weight > 0 else parent.prediction[0]
        value = prediction = np.array([mean])
    else:
        value = total
        prediction = total / weight if weight > 0 else parent.prediction
    node = Node(value=value, prediction=prediction, n_samples=len(stats), weighted_n_samples=weight,
                impurity=float(IMPURITIES[impurity](total)), depth=depth)
    if weight == 0 and parent is not None:
        node.stop_reason = "empty"
    return node


def _stop_or_split(node, X, features, target_stats, weights, stats, available, criterion,
                   stopping, priority) -> Split | None:
    """Apply the stopping rules in order; return the chosen split, or None for a leaf.

    ``X``, ``target_stats``, ``weights`` and ``stats`` (weighted statistics) hold the node's rows.
    """
    positive = target_stats[weights > 0]
    reason = None
    if np.ptp(positive, axis=0).max() == 0:
        reason = "pure"
    elif stopping.max_depth is not None and node.depth >= stopping.max_depth:
        reason = "max_depth"
    elif node.n_samples < stopping.min_samples_split:
        reason = "min_samples_split"
    elif criterion != "squared_error" and node.prediction.max() >= stopping.purity_threshold:
        reason = "purity_threshold"
    elif not available:
        reason = "no_attributes"
    if reason:
        node.stop_reason = reason
        return None
    candidates = [_best_split(j, features[j], X[:, j], stats, criterion) for j in available]
    candidates = [c for c in candidates if c is not None]
    node.scores = {features[c.feature].name: c.score for c in candidates}
    if not candidates:
        node.stop_reason = "no_split"
        return None
    best = max(c.score for c in candidates)
    tied = [c for c in candidates if np.isclose(c.score, best, **TIE_TOLERANCE)]
    chosen = min(tied, key=lambda c: priority[c.feature])
    if len(tied) > 1:
        node.ties = tuple(features[c.feature].name for c in sorted(tied, key=lambda c: c.feature))
    if chosen.gain < stopping.min_impurity_decrease - TIE_TOLERANCE["atol"]:
        node.stop_reason = "min_impurity_decrease"
        return None
    return chosen


def _best_split(j: int, feature: Feature, column: np.ndarray, stats: np.ndarray,
                criterion: str) -> Split | None:
    if feature.is_categorical:
        return multiway_split(j, column, stats, len(feature.categories), criterion)
    return threshold_split(j, column, stats, criterion)


def _attach_split(node: Node, split: Split, features: list[Feature]) -> None:
    feature = features[split.feature]
    node.feature, node.feature_index = feature.name, split.feature
    node.score = split.score
    node.threshold = split.threshold
    node.branch_of_code = split.branch_of_code
    if feature.is_categorical:
        node.category_sets = tuple(
            frozenset(c for c, b in zip(feature.categories, split.branch_of_code) if b == branch)
            for branch in range(split.n_branches))
    node.branch_fractions = split.branch_weights / split.branch_weights.sum()

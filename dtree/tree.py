"""The tree itself: `Node`, traversal, and prediction with fractional routing of missing values."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator

import numpy as np

__all__ = ["Node", "predict_values"]


@dataclass(eq=False, repr=False)
class Node:
    """A node of a decision tree.

    Every node carries what the training rows that reached it looked like: ``value`` (weighted
    class counts for a classifier, the mean for a regressor), ``prediction`` (class probabilities
    or the mean; an empty branch inherits its parent's), ``n_samples`` (rows, counting a row split
    by a missing value once in each branch) and ``weighted_n_samples``.

    An internal node tests ``feature``: numeric ``value <= threshold`` goes to ``children[0]``;
    categorical values go to the child whose entry of ``category_sets`` holds them.
    ``branch_fractions`` are the training weight fractions of the children, used to send a row
    whose value is missing down every branch (Quinlan 1993). ``scores`` holds the score of every
    attribute that splits the node (one taking a single value there is no candidate), ``ties``
    the attributes whose score equalled the winner's, and a leaf's ``stop_reason`` says which
    stopping rule made it a leaf.
    """

    value: np.ndarray
    prediction: np.ndarray
    n_samples: int
    weighted_n_samples: float
    impurity: float
    depth: int
    feature: str | None = None
    feature_index: int | None = None
    threshold: float | None = None
    category_sets: tuple[frozenset, ...] | None = None
    children: list[Node] = field(default_factory=list)
    branch_fractions: np.ndarray | None = None
    score: float | None = None
    scores: dict[str, float] = field(default_factory=dict)
    ties: tuple[str, ...] = ()
    stop_reason: str | None = None
    branch_of_code: np.ndarray | None = None

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def __repr__(self) -> str:
        if self.is_leaf:
            return f"Node(leaf, n_samples={self.n_samples}, stop_reason={self.stop_reason!r})"
        return (f"Node(feature={self.feature!r}, children={len(self.children)}, "
                f"n_samples={self.n_samples})")

    def walk(self) -> Iterator[Node]:
        """Every node of the subtree, parents before children (pre-order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def leaves(self) -> list[Node]:
        return [node for node in self.walk() if node.is_leaf]

    def height(self) -> int:
        """Length of the longest path from this node down to a leaf."""
        return max(node.depth for node in self.walk()) - self.depth

    def branch_labels(self) -> list[str]:
        """How each branch reads: '<= 0.38', '> 0.38', '= clear', 'in {a, b}'."""
        if self.threshold is not None:
            return [f"<= {self.threshold:g}", f"> {self.threshold:g}"]
        return [f"= {next(iter(s))}" if len(s) == 1 else
                "in {" + ", ".join(sorted(map(str, s))) + "}" for s in self.category_sets or ()]

    def branch(self, column: np.ndarray) -> np.ndarray:
        """Branch index of each encoded value of this node's feature; -1 where it is missing."""
        missing = np.isnan(column)
        safe = np.where(missing, 0, column)
        if self.threshold is None:
            branches = self.branch_of_code[safe.astype(np.intp)]
        else:
            branches = (safe > self.threshold).astype(np.intp)
        return np.where(missing, -1, branches)


def predict_values(root: Node, X: np.ndarray) -> np.ndarray:
    """Each row's prediction (class probabilities or mean): a weighted mix of the leaves it reaches.

    A row with a known value follows one branch. A row whose tested value is missing (or was
    unseen at fit) follows every branch with weight equal to that branch's training fraction, and
    its prediction is the weighted sum over the leaves it reaches (Quinlan 1993, ch. 3).
    Works node by node on whole arrays of rows.
    """
    out = np.zeros((X.shape[0], len(root.prediction)))
    stack = [(root, np.arange(X.shape[0]), np.ones(X.shape[0]))]
    while stack:
        node, rows, weights = stack.pop()
        if node.is_leaf:
            out[rows] += weights[:, None] * node.prediction
            continue
        branches = node.branch(X[rows, node.feature_index])
        missing = branches < 0
        for b, child in enumerate(node.children):
            here = branches == b
            fraction = node.branch_fractions[b]
            child_rows = np.concatenate([rows[here], rows[missing]])
            child_weights = np.concatenate([weights[here], weights[missing] * fraction])
            if len(child_rows):
                stack.append((child, child_rows, child_weights))
    return out

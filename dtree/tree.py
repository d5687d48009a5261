"""The tree itself: `Node`, traversal, and prediction with fractional routing of missing values."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator

import numpy as np

from . import kernels

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
    attribute that splits the node (one taking a single value there is no candidate): the gain
    (ID3) or the gain ratio (C4.5); ``gains`` their gains; ``shortlist`` the attributes that
    passed C4.5's gain filter (empty without a filter); ``ties`` the competing attributes whose
    score equalled the winner's, and a leaf's ``stop_reason`` says which stopping rule made it
    a leaf.
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
    gains: dict[str, float] = field(default_factory=dict)
    shortlist: tuple[str, ...] = ()
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

    def __reduce__(self):
        """Pickle (and deep-copy) the subtree as a flat list of nodes, so depth does not matter."""
        nodes = list(self.walk())
        index = {id(node): i for i, node in enumerate(nodes)}
        states = [{**vars(node), "children": [index[id(c)] for c in node.children]}
                  for node in nodes]
        return _rebuild, (states,)


def _rebuild(states: list[dict]) -> Node:
    """The root of the subtree that ``Node.__reduce__`` flattened into ``states``."""
    nodes = [Node.__new__(Node) for _ in states]
    for node, state in zip(nodes, states):
        node.__dict__.update(state)
        node.children = [nodes[i] for i in state["children"]]
    return nodes[0]


def predict_values(root: Node, X: np.ndarray) -> np.ndarray:
    """Each row's prediction (class probabilities or mean): a weighted mix of the leaves it reaches.

    A row with a known value follows one branch. A row whose tested value is missing (or was
    unseen at fit) follows every branch with weight equal to that branch's training fraction, and
    its prediction is the weighted sum over the leaves it reaches (Quinlan 1993, ch. 3). The
    routing is :func:`dtree.kernels.predict_rows`, on the tree laid out as arrays.
    """
    return kernels.predict_rows(np.ascontiguousarray(X, dtype=float), *_as_arrays(root))


def _as_arrays(root: Node) -> tuple[np.ndarray, ...]:
    """The tree as arrays over its nodes in breadth-first order (the children of a node are
    consecutive): tested feature, threshold, where each node's category-to-branch map starts in
    the concatenated maps, the maps, first child, number of children, each node's branch
    fraction, each node's prediction. One pass over the nodes."""
    nodes, first_child = [root], []
    feature, threshold, n_children, maps, map_length, fractions = [], [], [], [], [], [[1.0]]
    for node in nodes:  # breadth first: the list grows while it is read
        first_child.append(len(nodes))
        nodes.extend(node.children)
        n_children.append(len(node.children))
        feature.append(node.feature_index)
        threshold.append(node.threshold)
        map_length.append(0 if node.branch_of_code is None else len(node.branch_of_code))
        if node.branch_of_code is not None:
            maps.append(node.branch_of_code)
        if node.children:
            fractions.append(node.branch_fractions)
    feature = np.array(feature, dtype=float)  # None (a leaf) -> NaN -> -1
    return (np.where(np.isnan(feature), -1, feature).astype(np.int64),
            np.array(threshold, dtype=float), np.cumsum([0] + map_length),
            np.concatenate([np.zeros(0, np.int64)] + maps), np.array(first_child),
            np.array(n_children), np.concatenate(fractions),
            np.concatenate([node.prediction for node in nodes]).reshape(len(nodes), -1))

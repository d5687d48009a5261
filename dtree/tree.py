"""The tree itself: `Node`, traversal, and prediction, with the strategies for missing values."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator

import numpy as np

from . import kernels

__all__ = ["Node", "Layout", "PREDICT_MISSING", "predict_values"]

#: what a row whose tested value is missing (or unseen at fit) does at a node; see predict_values
PREDICT_MISSING = ("distribute", "most_frequent", "stop")


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
    whose value is missing down every branch (Quinlan 1993). ``missing_branch`` is the index of
    the child that holds the rows whose value was missing (``missing="branch"``), or None.
    A CART node has ``surrogates`` (:class:`dtree.surrogates.Surrogate`, best first), which
    place a row whose tested value is missing, and ``majority_branch``, where such a row goes
    when no surrogate can place it (None: no rule; the row then follows every branch).
    ``scores`` holds the score of every
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
    missing_branch: int | None = None
    surrogates: tuple = ()
    majority_branch: int | None = None

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
        """How each branch reads: '<= 0.38', '> 0.38', '= clear', 'in {a, b}', and 'is missing'
        for the missing-value branch."""
        if self.threshold is not None:
            labels = [f"<= {self.threshold:g}", f"> {self.threshold:g}"]
        else:
            labels = [f"= {next(iter(s))}" if len(s) == 1 else
                      "in {" + ", ".join(sorted(map(str, s))) + "}"
                      for s in self.category_sets or ()]
        if self.missing_branch is not None:
            labels.insert(self.missing_branch, "is missing")
        return labels

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


def predict_values(root: Node, X: np.ndarray, predict_missing: str = "distribute") -> np.ndarray:
    """Each row's prediction (class probabilities or mean): that of the leaf it reaches, or a
    weighted mix of leaves.

    A row with a known value follows one branch. Where the tested value is missing (NaN; an
    encoded value unseen at fit is NaN too), the row takes the node's missing-value branch if it
    has one (``Node.missing_branch``); at a CART node, the branch of the first surrogate split
    that can place it, else the majority branch (``Node.surrogates``,
    ``Node.majority_branch``). Otherwise ``predict_missing`` decides:

    * "distribute" (C4.5; Quinlan 1993, ch. 3): the row follows every branch, weighted by the
      branch's training fraction (``Node.branch_fractions``), and its prediction is the weighted
      sum of the leaves it reaches;
    * "most_frequent": it follows the branch that held the most training weight at the node
      (the most frequent value among the node's training rows; the first such branch on a tie);
    * "stop": its prediction is the node's own (``Node.prediction``).

    Each is a mix of nodes' predictions with weights summing to 1, so class probabilities sum
    to 1. Lays the tree out anew on each call; :class:`Layout` keeps a layout for many calls.
    """
    return Layout(root).predict(X, predict_missing)


class Layout:
    """A tree laid out as arrays for :func:`dtree.kernels.predict_rows`, made once and used for
    many predictions. It belongs to the tree ``root`` as it was when laid out: a copy
    (``copy.deepcopy``) is unbound (``root`` None), as the copied tree may then be changed in
    place; unpickling lays the unpickled tree out again."""

    def __init__(self, root: Node | None):
        self.root = root
        self._arrays = None if root is None else _as_arrays(root)

    def __deepcopy__(self, memo: dict) -> Layout:
        return Layout(None)

    def __reduce__(self):
        return Layout, (self.root,)

    def predict(self, X: np.ndarray, predict_missing: str = "distribute") -> np.ndarray:
        """:func:`predict_values` on the laid-out tree."""
        if not (isinstance(predict_missing, str) and predict_missing in PREDICT_MISSING):
            raise ValueError(f"predict_missing must be one of {PREDICT_MISSING}, got "
                             f"{predict_missing!r}")
        (nodes, threshold, codes, n_children, fractions, missing_child, frequent_child,
         values, surrogates, surrogate_table, surrogate_threshold) = self._arrays
        detour = frequent_child if predict_missing == "most_frequent" else missing_child
        return kernels.predict_rows(np.ascontiguousarray(X, dtype=float), nodes, threshold,
                                    codes, n_children, fractions, detour,
                                    predict_missing == "stop", values, surrogates,
                                    surrogate_table, surrogate_threshold)


def _as_arrays(root: Node) -> tuple[np.ndarray, ...]:
    """The tree as arrays over its nodes in breadth-first order (the children of a node are
    consecutive): per node, in one table (what the way down reads, side by side in memory), the
    tested feature (-1 for a leaf), the first child, and where its category-to-branch map starts
    and ends in the concatenated maps; then the thresholds, the maps, the numbers of children,
    each node's branch fraction, the branch a missing value takes (the missing-value branch,
    else the majority branch, or -1), the same with the most frequent branch in place of -1,
    each node's prediction; and the surrogate splits: per node where its run starts and ends,
    per surrogate its feature, whether reversed, where its category map starts and ends, and
    its threshold. One pass over the nodes."""
    nodes, first_child, fractions = [root], [], [[1.0]]
    feature, threshold, n_children, maps, code_bounds, missing_child = [], [], [], [], [], []
    surrogates, surrogate_table, surrogate_threshold = [0], [], []
    offset = 0  # where the next category map starts in the concatenated maps

    def add_map(branch_of_code) -> tuple[int, int]:
        nonlocal offset
        if branch_of_code is None:
            return offset, offset
        maps.append(np.asarray(branch_of_code, dtype=np.int64))
        offset += len(maps[-1])
        return offset - len(maps[-1]), offset

    for node in nodes:  # breadth first: the list grows while it is read
        first_child.append(len(nodes))
        nodes.extend(node.children)
        n_children.append(len(node.children))
        feature.append(node.feature_index if node.children else -1)  # a pruned node: a leaf
        threshold.append(node.threshold)
        code_bounds.append(add_map(node.branch_of_code))
        detour = node.majority_branch if node.missing_branch is None else node.missing_branch
        missing_child.append(-1 if detour is None or not node.children else detour)
        if node.children:
            fractions.append(node.branch_fractions)
        for surrogate in node.surrogates if node.children else ():
            surrogate_table.append((surrogate.feature_index, int(surrogate.reverse),
                                    *add_map(surrogate.branch_of_code)))
            surrogate_threshold.append(np.nan if surrogate.threshold is None
                                       else surrogate.threshold)
        surrogates.append(len(surrogate_table))
    first_child, n_children = np.array(first_child), np.array(n_children)
    fractions, missing_child = np.concatenate(fractions), np.array(missing_child)
    frequent_child = np.full(len(nodes), -1)
    frequent_child[n_children > 0] = _most_frequent(fractions, first_child, n_children)
    frequent_child = np.where(missing_child >= 0, missing_child, frequent_child)
    table = np.column_stack([np.array(feature), first_child, np.array(code_bounds)])
    runs = np.array(surrogates)
    return (table, np.array(threshold, dtype=float),
            np.concatenate([np.zeros(0, np.int64)] + maps), n_children, fractions,
            missing_child, frequent_child,
            np.concatenate([node.prediction for node in nodes]).reshape(len(nodes), -1),
            np.column_stack([runs[:-1], runs[1:]]),
            np.array(surrogate_table, dtype=np.int64).reshape(-1, 4),
            np.array(surrogate_threshold, dtype=float))


def _most_frequent(fractions: np.ndarray, first_child: np.ndarray,
                   n_children: np.ndarray) -> np.ndarray:
    """For each internal node (in order), the branch with the largest training fraction: the
    first whose fraction is within round-off of the largest (``dtree.grow.TIE_TOLERANCE``).
    ``fractions[first_child[i]:first_child[i] + n_children[i]]`` are node i's children's, and
    these runs follow each other, the internal nodes' children making up nodes 1, 2, ..."""
    internal = n_children > 0
    if not internal.any():
        return np.zeros(0, np.int64)
    start, size = first_child[internal], n_children[internal]
    largest = np.maximum.reduceat(fractions, start)
    near = fractions[1:] >= np.repeat(largest - (1e-12 + 1e-9 * largest), size)
    position = np.where(near, np.arange(len(near)), len(near))  # node k + 1 at position k
    return np.minimum.reduceat(position, start - 1) - (start - 1)

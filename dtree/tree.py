"""The tree itself: `Node`, traversal, the routing rule (which branch a row takes at a node),
prediction with the strategies for missing values, and the edits the grower and pruners make."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterator

import numpy as np

from . import kernels
from .jit import pick
from .surrogates import surrogate_sides

__all__ = ["Node", "Layout", "PREDICT_MISSING", "predict_values", "branches", "value_branches",
           "hand_down",
           "reach", "most_probable", "make_leaf", "raise_branch", "SPREAD", "STAY"]

#: what a row whose tested value is missing (or unseen at fit) does at a node; see predict_values
PREDICT_MISSING = ("distribute", "most_frequent", "stop")
#: the two answers of :func:`branches` that are not a branch: every branch, by fraction; or none,
#: the row stays at the node
SPREAD, STAY = -1, -2
#: how many edits (:func:`make_leaf`, :func:`raise_branch`) this process has made to any tree;
#: a :class:`Layout` made before the last one may be out of date
_edits = 0


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
    place a row whose tested value is missing. A row that no surrogate can place goes, while
    the tree grows, to ``majority_branch``, the side where the split sent more of the weight
    whose tested value is known (rpart's ``surrogate.c``), and at prediction to
    ``larger_branch``, the child holding more training rows (rpart's ``pred_rpart.c``); None
    for a tie, where the row stays at the node. Which branch a row takes is decided in one
    place, :func:`dtree.tree.branches`.
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
    larger_branch: int | None = None

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


# ------------------------------------------------------------------ the routing rule
def value_branches(node: Node, XT: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The branch of each row's tested value at an internal node: 0 if ``value <= threshold``,
    else 1; for a category, the branch of its code. SPREAD where the value is missing (NaN) or
    its category has no branch there. ``XT`` holds the encoded data column by column (one row
    per feature), ``rows`` the columns to read."""
    values = XT[node.feature_index, rows]
    known = ~np.isnan(values)
    branch = np.full(len(rows), SPREAD)
    if node.threshold is not None:
        branch[known] = values[known] > node.threshold
    else:
        branch[known] = node.branch_of_code[values[known].astype(np.int64)]
    return branch


def branches(node: Node, XT: np.ndarray, rows: np.ndarray, predict_missing: str = "distribute",
             at_fit: bool = False) -> np.ndarray:
    """Which branch each row takes at an internal node: the library's one routing rule, which
    the grower, the pruners and (compiled) :func:`dtree.kernels.predict_rows` follow.

    A row goes by its tested value (:func:`value_branches`). Without one (missing, or a category
    with no branch here) it takes the node's missing-value branch if there is one; else the
    first surrogate split that can place it (CART); else the majority branch (``at_fit``) or the
    larger child (at prediction); else, as ``predict_missing`` says, the branch of largest
    training fraction ("most_frequent"), every branch (SPREAD, "distribute"; Quinlan 1993,
    ch. 3) or none: it stays at the node (STAY, "stop"; rpart's rule on a tie)."""
    branch = value_branches(node, XT, rows)
    lost = branch == SPREAD
    if not lost.any():
        return branch
    if node.missing_branch is not None:
        branch[lost] = node.missing_branch
        return branch
    unplaced = node.majority_branch if at_fit else node.larger_branch
    if unplaced is None:
        unplaced = (SPREAD if predict_missing == "distribute" else STAY
                    if predict_missing == "stop" else most_frequent_branch(node.branch_fractions))
    branch[lost] = surrogate_sides(XT, rows[lost], node.surrogates, unplaced)
    return branch


def larger_branch(n_samples) -> int | None:
    """Of a binary split's two children, given their numbers of training rows, the one that
    holds more; None if they hold as many (rpart's ``pred_rpart.c``)."""
    left, right = n_samples
    return 0 if left > right else 1 if right > left else None


def most_frequent_branch(fractions: np.ndarray) -> int:
    """The branch with the largest training fraction: the first within round-off of it
    (``dtree.grow.TIE_TOLERANCE``)."""
    values = fractions.tolist()
    largest = max(values)
    return next(b for b, f in enumerate(values) if f >= largest - (1e-12 + 1e-9 * largest))


def hand_down(branch: np.ndarray, rows: np.ndarray, weights: np.ndarray, shares: np.ndarray,
              smallest: float = 0.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each child's rows and weights, given each row's ``branch`` (:func:`branches`): the rows
    of its branch, and the SPREAD rows with their weight times the child's share, where the
    share exceeds ``smallest`` (C4.5's fractional rows; Zhou 2016, sec. 4.4.2). A STAY row goes
    to no child."""
    spread, parts = branch == SPREAD, []
    for b, share in enumerate(shares):
        mine = branch == b
        if spread.any() and share > smallest:
            parts.append((np.concatenate([rows[mine], rows[spread]]),
                          np.concatenate([weights[mine], weights[spread] * share])))
        else:
            parts.append((rows[mine], weights[mine]))
    return parts


def reach(root: Node, XT: np.ndarray, predict_missing: str = "distribute", at_fit: bool = False,
          ) -> Iterator[tuple[Node, np.ndarray, np.ndarray, np.ndarray]]:
    """Where the rows of ``XT`` (encoded, one column per row) go in the tree, as prediction
    sends them (``at_fit``: as the grower did): for every node reached (parents first), the
    rows that reach it, the share of each row's weight that does, and whether that share ends
    there (always at a leaf; at an internal node for a row that stays, ``STAY``). A row's
    prediction is the sum, over the nodes where its shares end, of share x the node's
    prediction."""
    n = XT.shape[1]
    stack = [(root, np.arange(n), np.ones(n))]
    while stack:
        node, rows, weights = stack.pop()
        if not node.children:
            yield node, rows, weights, np.ones(len(rows), dtype=bool)
            continue
        branch = branches(node, XT, rows, predict_missing, at_fit)
        yield node, rows, weights, branch == STAY
        parts = hand_down(branch, rows, weights, node.branch_fractions)
        stack.extend((child, *part) for child, part in zip(reversed(node.children),
                                                           reversed(parts)) if len(part[0]))


def most_probable(proba: np.ndarray) -> np.ndarray:
    """Each row's most probable class (its column in ``proba``): the first of those within
    round-off (1e-9) of the largest, so that a tie is a tie however the sum was ordered."""
    by_class = np.ascontiguousarray(proba.T)  # a row per class: passes along, not across, rows
    near = by_class.max(axis=0) - 1e-9
    best = np.full(len(proba), len(by_class) - 1)
    for k in range(len(by_class) - 2, -1, -1):  # of the classes near the largest, the first
        best[by_class[k] >= near] = k
    return best


# ------------------------------------------------------------------ editing a tree
def make_leaf(node: Node, reason: str) -> None:
    """Turn an internal node into a leaf, in place, recording why in ``stop_reason``. The grower
    and every pruner edit a tree with this and :func:`raise_branch` only; a model whose tree is
    edited lays it out again before its next prediction."""
    global _edits
    _edits += 1
    node.children, node.stop_reason = [], reason
    node.feature = node.feature_index = node.threshold = node.score = None
    node.category_sets = node.branch_of_code = node.branch_fractions = None
    node.missing_branch = node.majority_branch = node.larger_branch = None
    node.surrogates = ()


#: what a node's test is made of, taken over whole when a branch is raised into its place
TEST_FIELDS = ("feature", "feature_index", "threshold", "category_sets", "branch_of_code",
               "missing_branch", "surrogates", "majority_branch", "larger_branch", "score",
               "children",
               "branch_fractions", "stop_reason")


def raise_branch(node: Node, child: Node) -> None:
    """Put ``child``'s test and subtree in ``node``'s place, in place (C4.5's subtree raising;
    Quinlan 1993, ch. 4). The node keeps its own statistics; the caller hands its rows down
    again."""
    global _edits
    _edits += 1
    for name in TEST_FIELDS:
        setattr(node, name, getattr(child, name))


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
    many predictions. It belongs to the tree ``root`` as it was when laid out (see
    :meth:`describes`): a copy (``copy.deepcopy``) is unbound (``root`` None), as the copied
    tree may then be changed in place; unpickling lays the unpickled tree out again."""

    def __init__(self, root: Node | None):
        self.root, self.edits = root, _edits
        self._arrays = None if root is None else _as_arrays(root)

    def describes(self, root: Node) -> bool:
        """Whether this is ``root``'s layout as the tree now stands: laid out from it, and no
        tree edited since (:func:`make_leaf`, :func:`raise_branch`)."""
        return self.root is root and self.edits == _edits

    def __deepcopy__(self, memo: dict) -> Layout:
        return Layout(None)

    def __reduce__(self):
        return Layout, (self.root,)

    def predict(self, X: np.ndarray, predict_missing: str = "distribute") -> np.ndarray:
        """:func:`predict_values` on the laid-out tree."""
        if not (isinstance(predict_missing, str) and predict_missing in PREDICT_MISSING):
            raise ValueError(f"predict_missing must be one of {PREDICT_MISSING}, got "
                             f"{predict_missing!r}")
        (feature, first_child, code_start, threshold, codes, n_children, fractions,
         missing_child, frequent_child, values, surrogates, surrogate_table,
         surrogate_threshold) = self._arrays
        detour = frequent_child if predict_missing == "most_frequent" else missing_child
        X = np.ascontiguousarray(X, dtype=float)
        return pick(kernels.predict_rows, X.size)(
            X, feature, first_child, code_start, threshold, codes, n_children, fractions, detour,
            predict_missing == "stop", values, surrogates, surrogate_table, surrogate_threshold)


def _as_arrays(root: Node) -> tuple[np.ndarray, ...]:
    """The tree as arrays over its nodes, numbered depth first with the children of a node
    consecutive (a node's children, then the first child's subtree, then the second's, ...), so
    that a row's way down, and the subtree a spread row visits, lie close together in memory.
    Per node: the tested feature (-1 for a leaf), the first child, where its category-to-branch
    map starts in the concatenated maps, the threshold (NaN for a split on categories); then
    the maps, the numbers of children, each node's branch fraction, the branch a missing value
    takes (the missing-value branch, else the larger child, or -1), the same with the most
    frequent branch in place of -1, each node's prediction; and the surrogate splits: per node
    where its run starts and ends, per surrogate its feature, whether reversed and where its
    category map starts, and its threshold (NaN for categories)."""
    nodes, first_child, stack = [root], [0], [0]
    while stack:  # number the nodes: a node's children get the next numbers when it is reached
        k = stack.pop()
        first_child[k] = len(nodes)
        children = nodes[k].children
        nodes.extend(children)
        first_child.extend([0] * len(children))
        stack.extend(range(len(nodes) - 1, len(nodes) - 1 - len(children), -1))
    fractions = np.ones(len(nodes))  # each node's share of its parent's training weight
    feature, threshold, n_children, maps, code_start = [], [], [], [], []
    missing_child, frequent_child = [], []
    surrogates, surrogate_table, surrogate_threshold = [0], [], []
    offset = 0  # where the next category map starts in the concatenated maps

    def add_map(branch_of_code) -> int:
        nonlocal offset
        start = offset
        if branch_of_code is not None:
            maps.append(np.asarray(branch_of_code, dtype=np.int64))
            offset += len(maps[-1])
        return start

    for k, node in enumerate(nodes):
        n_children.append(len(node.children))
        feature.append(node.feature_index if node.children else -1)  # a pruned node: a leaf
        threshold.append(node.threshold)
        code_start.append(add_map(node.branch_of_code))
        detour = node.larger_branch if node.missing_branch is None else node.missing_branch
        missing_child.append(-1 if detour is None or not node.children else detour)
        frequent_child.append(missing_child[-1] if detour is not None or not node.children
                              else most_frequent_branch(node.branch_fractions))
        if node.children:
            fractions[first_child[k]:first_child[k] + len(node.children)] = node.branch_fractions
        for surrogate in node.surrogates if node.children else ():
            surrogate_table.append((surrogate.feature_index, int(surrogate.reverse),
                                    add_map(surrogate.branch_of_code)))
            surrogate_threshold.append(np.nan if surrogate.threshold is None
                                       else surrogate.threshold)
        surrogates.append(len(surrogate_table))
    runs = np.array(surrogates)
    return (np.array(feature), np.array(first_child), np.array(code_start),
            np.array(threshold, dtype=float), np.concatenate([np.zeros(0, np.int64)] + maps),
            np.array(n_children), fractions, np.array(missing_child), np.array(frequent_child),
            np.concatenate([node.prediction for node in nodes]).reshape(len(nodes), -1),
            np.column_stack([runs[:-1], runs[1:]]),
            np.array(surrogate_table, dtype=np.int64).reshape(-1, 3),
            np.array(surrogate_threshold, dtype=float))

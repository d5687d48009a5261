"""Cost-complexity pruning (Breiman et al. 1984, ch. 3): the weakest-link sequence of subtrees.

For a subtree T with n(T) leaves, C_alpha(T) = R(T) + alpha n(T), where R(T) = sum over the
leaves of R(t), and R(t) is a node's cost: ``cost="impurity"``, its weighted share of the
training weight times its impurity, (W_t / W) I(t) (scikit-learn's); ``cost="error"``, the share
of the training weight it misclassifies (Breiman et al.'s resubstitution error; rpart's, whose
complexity parameter is cp = alpha / R(root)); for a classifier with class priors or a loss
matrix (``CARTClassifier(priors=, loss=)``), the node's expected loss, Breiman et al.'s
R(t) = min_i sum_j L(j, i) pi_j N_j(t) / N_j (sec. 4.4; rpart's risk divided by N). Cutting
the branch T_t below an internal node t turns its cost R(T_t) + alpha n(T_t) into R(t) + alpha;
both are equal at

    g(t) = (R(t) - R(T_t)) / (n(T_t) - 1),

so as alpha grows the branch with the smallest g(t), the *weakest link*, is the first worth
cutting. Cutting it and repeating gives T_0 ⊃ T_1 ⊃ ... ⊃ {root} and the increasing alphas at
which each cut happens; ties are cut one per step, the first in pre-order.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from statistics import NormalDist
from types import SimpleNamespace

import numpy as np
import pandas as pd

from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from ._validation import (check_number, check_params, check_sample_weight,
                          encode_columns, fit_features, table_columns, take_rows)
from .export import decision_loss
from .jit import compiled, kernel
from .routing import SPREAD, branch_of, otherwise, route_missing
from .tolerances import ALPHA_ROUND_OFF, J48_PRUNE_SLACK, PESSIMISTIC_ATOL, WEKA_SMALL
from .tree import (Node, _as_arrays, _compact, _end_numbers, _parents, _routed_branches,
                   copy_tree, hand_down, larger_branch, make_leaf, most_probable, raise_branch,
                   reach)

__all__ = ["PruningPath", "COSTS", "cost_complexity_path", "cost_complexity_steps",
           "prune_cost_complexity", "prune_reduced_error", "prune_error_based", "added_errors",
           "prune_pessimistic", "weakest_links", "resubstitution_cost", "cross_validated_errors",
           "PRUNERS"]

#: the node costs R(t) the path can use
COSTS = ("impurity", "error")


@dataclass(frozen=True)
class PruningPath:
    """The weakest-link sequence: ``ccp_alphas[i]`` is the alpha from which the i-th subtree
    is optimal (0 for the full tree), ``impurities[i]`` its R(T), ``n_leaves[i]`` its leaves."""

    ccp_alphas: np.ndarray
    impurities: np.ndarray
    n_leaves: np.ndarray


def _cost_arrays(root: Node, cost: str, costs: np.ndarray | None = None
                 ) -> tuple[list[Node], np.ndarray, np.ndarray, np.ndarray]:
    """The nodes in pre-order, each one's parent (-1 for the root), subtree size (its subtree is
    ``nodes[i : i + size[i]]``) and cost R(t): (W_t / W) I(t), or the weight t misclassifies
    over W (its weight less its majority class's). A CART row that stays at an internal node
    (nothing places it) counts in that node's R(t) and in no leaf's, as in rpart
    (``partition.c`` sums a subtree's risk over its children)."""
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {COSTS}, got {cost!r}")
    nodes = list(root.walk())
    parent, size = compiled(_links)(
        np.array([len(node.children) for node in nodes], dtype=np.int64))
    if cost == "error":
        node_cost = np.array([resubstitution_cost(node, root.weighted_n_samples, costs)
                              for node in nodes], dtype=float)
    else:
        weight = np.array([node.weighted_n_samples for node in nodes], dtype=float)
        node_cost = weight / root.weighted_n_samples * np.array(
            [node.impurity for node in nodes], dtype=float)
    return nodes, parent, size, node_cost


def resubstitution_cost(node: Node, total: float, costs: np.ndarray | None = None,
                        share: bool = True) -> float:
    """A classifier node's resubstitution cost R(t) (Breiman et al. 1984, secs. 3.1, 4.4) as a
    share of the training weight ``total`` (``share=False``: in weight units, rpart's node
    loss): the weight t misclassifies, W_t - max_j W_t,j; with a classifier's ``costs``
    (``costs_``, the cost of a unit of class j's weight at a node of class i, priors and loss
    included) its least expected cost min_i sum_j W_t,j costs[j, i], which is a share
    already."""
    if costs is None:
        misclassified = node.training_errors
        return misclassified / total if share else misclassified
    least = float((node.value @ costs).min())
    return least if share else total * least


@kernel
def _links(n_children):
    """Each node's parent (-1 for the root) and subtree size, from the numbers of children of
    the nodes in pre-order: a node's parent is the nearest node before it still waiting for a
    child."""
    n = len(n_children)
    parent, size = np.full(n, -1, np.int64), np.ones(n, np.int64)
    waiting, waits = np.empty(n, np.int64), np.empty(n, np.int64)  # a stack of open nodes
    top = -1
    for i in range(n):
        if top >= 0:
            parent[i] = waiting[top]
            waits[top] -= 1
            if waits[top] == 0:
                top -= 1
        if n_children[i] > 0:
            top += 1
            waiting[top], waits[top] = i, n_children[i]
    for i in range(n - 1, 0, -1):  # children come after their parent
        size[parent[i]] += size[i]
    return parent, size


@kernel
def _weakest_link_cuts(parent, size, internal, cost, record):
    """The weakest-link sequence on the arrays of :func:`_cost_arrays`: per step the node cut, its
    g(t), and R(T) and n(T) of the whole tree after the cut (first the full tree's, with no
    node). With ``record``, one row per step and internal node still standing: (step, node,
    R(T_t), n(T_t), g(t)); the first row is a placeholder."""
    n = len(parent)
    leaves, branch_cost = np.zeros(n, np.int64), np.zeros(n)
    for i in range(n):
        if not internal[i]:
            leaves[i], branch_cost[i] = 1, cost[i]
    for i in range(n - 1, 0, -1):  # a branch's leaves and cost, from its children
        leaves[parent[i]] += leaves[i]
        branch_cost[parent[i]] += branch_cost[i]
    cut, alphas = np.full(n + 1, -1, np.int64), np.zeros(n + 1)
    impurities, n_leaves = np.zeros(n + 1), np.zeros(n + 1, np.int64)
    impurities[0], n_leaves[0] = branch_cost[0], leaves[0]
    g = np.full(n, np.inf)  # g(t) of each internal node, kept up to date as branches are cut
    for i in range(n):
        if internal[i]:
            g[i] = (cost[i] - branch_cost[i]) / (leaves[i] - 1)
    rows = [(0, 0, 0.0, 0, 0.0)]
    candidate = internal.copy()
    standing, n_standing = np.flatnonzero(internal), int(internal.sum())  # in pre-order
    step = 0
    while candidate[0]:
        step += 1
        t, smallest, kept = -1, np.inf, 0
        for j in range(n_standing):
            i = standing[j]
            if candidate[i]:  # still standing: kept in the list for the next step
                standing[kept] = i
                kept += 1
                if record:
                    rows.append((step, i, branch_cost[i], leaves[i], g[i]))
                if t < 0 or g[i] < smallest:  # the first of the smallest, in pre-order
                    t, smallest = i, g[i]
        n_standing = kept
        candidate[t:t + size[t]] = False
        lost_leaves, lost_cost = leaves[t] - 1, branch_cost[t] - cost[t]
        leaves[t], branch_cost[t] = 1, cost[t]
        a = parent[t]
        while a >= 0:
            leaves[a] -= lost_leaves
            branch_cost[a] -= lost_cost
            g[a] = (cost[a] - branch_cost[a]) / (leaves[a] - 1)
            a = parent[a]
        cut[step], alphas[step] = t, smallest
        impurities[step], n_leaves[step] = branch_cost[0], leaves[0]
    return cut[:step + 1], alphas[:step + 1], impurities[:step + 1], n_leaves[:step + 1], rows


def weakest_links(root: Node, cost: str = "impurity", steps: list | None = None,
                  costs: np.ndarray | None = None) -> tuple[PruningPath, list[Node]]:
    """The weakest-link sequence of the tree below ``root`` and, for each step after the first,
    the node whose branch is cut (the tree itself is not changed). If a list ``steps`` is
    given, one row per step and internal node still standing is appended to it: the step, the
    node's pre-order number, R(t), R(T_t), n(T_t), g(t) and whether it is cut. ``costs`` (a
    classifier's ``costs_``, the cost of a unit of class j's weight at a node of class i) makes
    R(t) with ``cost="error"`` the node's least expected cost, min_i sum_j W_t,j costs[j, i]."""
    nodes, parent, size, node_cost = _cost_arrays(root, cost, costs)
    internal = np.array([bool(node.children) for node in nodes])
    scan = compiled(_weakest_link_cuts)
    cut, alphas, impurities, n_leaves, rows = scan(parent, size, internal, node_cost,
                                                   steps is not None)
    if steps is not None:
        steps += [{"step": step, "node": i, "test": nodes[i].feature, "R(t)": node_cost[i],
                   "R(T_t)": r, "n(T_t)": n, "g(t)": g, "cut": i == cut[step]}
                  for step, i, r, n, g in rows[1:]]
    return PruningPath(alphas, impurities, n_leaves), [nodes[t] for t in cut[1:]]


def _prune_to_alpha(root: Node, alpha: float, cost: str = "impurity",
                    costs: np.ndarray | None = None) -> list[dict]:
    """Cut, in place, every weakest link whose g(t) is at most ``alpha`` (up to ``ALPHA_ROUND_OFF``
    R(root)): the smallest subtree minimising C_alpha (scikit-learn's ``ccp_alpha``). Returns
    the links examined, in order, as rows of a log: the node's pre-order number, test and
    depth, g(t), the leaves its cut removes, and the decision (the first link kept ends the
    log)."""
    path, cut = weakest_links(root, cost, costs=costs)
    number = root.numbers()
    rows = []
    bound = alpha + ALPHA_ROUND_OFF * path.impurities[-1]  # g(t) within round-off of alpha: cut
    for g, leaves, node in zip(path.ccp_alphas[1:], np.diff(-path.n_leaves), cut):
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "g(t)": g, "leaves removed": int(leaves),
                     "decision": "cut" if g <= bound else "kept: g(t) > alpha"})
        if g > bound:
            break
        make_leaf(node, "ccp_alpha")
    return rows


def _fitted_copy(model, needs_classifier: str = ""):
    """A deep copy of a fitted model, to be pruned (the caller's model is never changed); a
    pruner that ``needs_classifier`` says why, and refuses a regressor."""
    check_is_fitted(model, "tree_")
    if needs_classifier and getattr(model, "classes_", None) is None:
        raise ValueError(f"{needs_classifier}: it needs a classifier")
    return copy.deepcopy(model, {id(model._root): copy_tree(model._root)})


def _finish(pruned, model, log: pd.DataFrame, call: str, params: dict | None = None):
    """Give the pruned copy its kept nodes in a table of their own (``dtree.tree._compact``)
    and its ``pruning_log_``, and say how it was pruned: by setting the
    parameters ``params``, with which ``clone()`` and ``fit`` prune the same way again, if the
    model takes them and its tree is the one its parameters grow; otherwise in ``pruned_by_``,
    which its repr shows: a fitted result, which ``clone()`` does not keep."""
    pruned.tree_ = pruned._fitted(_compact(pruned._root))  # the kept nodes, in a new table
    pruned.pruning_log_ = log
    as_configured = ("pruning_log_" not in vars(model) and not hasattr(model, "pruned_by_")
                     and model.get_params().get("pruning") is None)
    if params and as_configured and set(params) <= set(model.get_params()):
        pruned.set_params(**params)
    else:
        pruned.pruned_by_ = call
    return pruned


def cost_complexity_steps(model, cost: str = "impurity") -> pd.DataFrame:
    """Every step of the weakest-link sequence of a fitted model's tree: at step i, one row per
    internal node still standing, with R(t), R(T_t), n(T_t), g(t) and whether it is the link
    cut (Breiman et al. 1984, sec. 3.3; see :func:`cost_complexity_path`)."""
    check_is_fitted(model, "tree_")
    root = model._root
    _check_cost(model, cost)
    steps: list = []
    weakest_links(root, cost, steps, getattr(model, "costs_", None))
    return pd.DataFrame(steps, columns=["step", "node", "test", "R(t)", "R(T_t)", "n(T_t)",
                                        "g(t)", "cut"])


def cost_complexity_path(model, cost: str = "impurity") -> PruningPath:
    """The weakest-link sequence of a fitted model's tree (any of the library's trees):
    ``ccp_alphas`` (0 for the full tree, then the alpha of each cut), ``impurities`` (each
    subtree's cost R(T)) and ``n_leaves``. ``cost="impurity"`` is scikit-learn's R(t) =
    (W_t / W) I(t); ``cost="error"`` the misclassified share of the training weight (or, for a
    CART classifier with priors or a loss, the expected loss), for which alpha / R(root) is
    rpart's complexity parameter cp (a classifier's tree only).

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.
    cost : {"impurity", "error"}, default="impurity"
        R(t), as above.

    Returns
    -------
    dtree.pruning.PruningPath
        ``ccp_alphas``, ``impurities`` and ``n_leaves``, one entry per subtree.

    Examples
    --------
    The full tree of the targets 1, 1, 3, 5 has R(T) = 0. Its node over 3 and 5 has
    R(t) = (2/4) x 1 = 0.5, so g(t) = 0.5 / (2 - 1); once it is cut, R(T) = 0.5 and the root
    (R = 11/4) has g = (2.75 - 0.5) / (2 - 1) = 2.25.

    >>> from dtree import CARTRegressor, cost_complexity_path, prune_cost_complexity
    >>> model = CARTRegressor().fit([[0], [1], [2], [3]], [1.0, 1.0, 3.0, 5.0])
    >>> cost_complexity_path(model).ccp_alphas.tolist()
    [0.0, 0.5, 2.25]
    >>> prune_cost_complexity(model, alpha=0.5).get_n_leaves()
    2
    """
    check_is_fitted(model, "tree_")
    root = model._root
    _check_cost(model, cost)
    return weakest_links(root, cost, costs=getattr(model, "costs_", None))[0]


def prune_cost_complexity(model, alpha: float, cost: str = "impurity"):
    """A copy of the fitted model, pruned to the smallest subtree that minimises
    C_alpha(T) = R(T) + alpha n(T): the weakest links are cut while g(t) <= alpha
    (the tree's own ``ccp_alpha``). The copy's ``pruning_log_`` lists the links in the order they
    are examined: the pre-order number, test and depth of the node, g(t), the leaves its cut
    removes, and the decision. Pruning a CART model this way (``cost="impurity"``) sets its
    ``ccp_alpha``, so that ``clone()`` keeps it.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.
    alpha : float
        The price of a leaf, at least 0.
    cost : {"impurity", "error"}, default="impurity"
        R(t), as in :func:`cost_complexity_path`.

    Returns
    -------
    estimator
        The pruned copy; ``model`` is not changed.
    """
    alpha = check_number(alpha, "alpha", low=0)
    _check_cost(model, cost)
    pruned = _fitted_copy(model)
    log = pd.DataFrame(_prune_to_alpha(pruned._root, alpha, cost,
                                       getattr(model, "costs_", None)),
                       columns=["node", "test", "depth", "g(t)", "leaves removed", "decision"])
    own = model.get_params().get("ccp_alpha")  # CART's: a tree pruned to it is pruned further
    params = {"ccp_alpha": max(alpha, own)} if own is not None and cost == "impurity" else None
    return _finish(pruned, model, log, f"prune_cost_complexity(alpha={alpha:g}, cost={cost!r})",
                   params)


def _check_cost(model, cost: str) -> None:
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {COSTS}, got {cost!r}")
    if cost == "error" and getattr(model, "classes_", None) is None:
        raise ValueError('cost="error" counts misclassified rows: it needs a classifier')


# ------------------------------------------------------------------ pruning on validation data
class _Votes:
    """What a model predicts for validation rows as its tree is changed: the pruners that judge
    a change by accuracy judge it by the classes ``predict`` would really return.

    A row's class probabilities are the sum, over the nodes where shares of it end, of share x
    the node's prediction (:func:`dtree.tree.reach`, which follows ``predict_missing``), and its
    class the one :func:`dtree.tree.most_probable` names (with ``loss``, as a CART with priors or
    a loss predicts). Without missing values a row ends at one leaf, and a node's correct rows
    as a leaf are its rows of its predicted class."""

    def __init__(self, root: Node, X: np.ndarray, y: np.ndarray, n_classes: int,
                 predict_missing: str, whole_tree: bool = True, loss: np.ndarray | None = None):
        """The predictions of the tree below ``root`` (``whole_tree=False``: of the root
        alone) for the rows of ``X`` (encoded), whose class codes are ``y`` (-1: unseen)."""
        self.y, self.loss = y, loss
        self.paths = {id(node): (rows, shares, ends)
                      for node, rows, shares, ends in reach(root, X, predict_missing)}
        self.proba = np.zeros((len(y), n_classes))
        self._scratch = np.zeros((len(y), n_classes))
        self._below: dict[int, np.ndarray] = {}  # as_leaf's sums, by id of node
        self._proposed: tuple | None = None  # as_leaf's last change: node, proba, its sum
        start = [(node, not node.children) for node in root.walk()] if whole_tree else [
            (root, True)]
        self.correct = 0
        self.change([], start, root, apply=True)
        self.correct = int(np.sum(most_probable(self.proba, loss) == y))

    def change(self, before: list[tuple[Node, bool]], after: list[tuple[Node, bool]],
               top: Node, apply: bool = False) -> int:
        """How many more validation rows are right when the nodes ``before`` give way to
        ``after`` below ``top``; each a list of (node, as a leaf): a leaf takes every share that
        reaches it, an internal node those that stay there. ``apply`` makes the change."""
        if id(top) not in self.paths:  # no validation row reaches it
            return 0
        rows = self.paths[id(top)][0]
        for nodes, sign in ((after, 1.0), (before, -1.0)):
            for node, as_leaf in nodes:
                if id(node) not in self.paths:
                    continue
                reached, shares, ends = self.paths[id(node)]
                kept = slice(None) if as_leaf else ends
                np.add.at(self._scratch, reached[kept],
                          sign * shares[kept, None] * node.prediction[None, :])
        proba = self.proba[rows] + self._scratch[rows]
        self._scratch[rows] = 0.0
        return self._judged(rows, proba, apply)

    def _judged(self, rows: np.ndarray, proba: np.ndarray, apply: bool) -> int:
        """How many more of ``rows`` are right with the class probabilities ``proba`` in
        place of theirs now; ``apply`` puts them in place."""
        gain = int(np.sum(most_probable(proba, self.loss) == self.y[rows])
                   - np.sum(most_probable(self.proba[rows], self.loss) == self.y[rows]))
        if apply:
            self.proba[rows] = proba
            self.correct += gain
        return gain

    def as_leaf(self, node: Node) -> int:
        """:meth:`change` from ``node``'s subtree to ``node`` as a leaf, for a pruner that
        goes bottom-up (:meth:`take` makes it): what the subtree gives the rows that reach
        it is summed child by child, each child's sum kept from when it was examined (a
        leaf's is its shares x its prediction), so that a node costs a pass over its
        children's rows, not a walk of its whole subtree (a chain 2,000 deep took a minute)."""
        self._proposed = None
        if id(node) not in self.paths:  # no validation row reaches it
            return 0
        rows, shares, ends = self.paths[id(node)]
        scratch = self._scratch
        scratch[rows[ends]] += shares[ends, None] * node.prediction[None, :]  # stay here
        for child in node.children:
            if id(child) in self.paths:
                scratch[self.paths[id(child)][0]] += self._given(child)
        given = self._below[id(node)] = scratch[rows]
        scratch[rows] = 0.0
        leaf = shares[:, None] * node.prediction[None, :]
        self._proposed = (node, self.proba[rows] - given + leaf, leaf)
        return self._judged(rows, self._proposed[1], False)

    def take(self) -> None:
        """Make the change :meth:`as_leaf` judged last."""
        if self._proposed is not None:
            node, proba, leaf = self._proposed
            self._below[id(node)] = leaf
            self._judged(self.paths[id(node)][0], proba, True)

    def _given(self, node: Node) -> np.ndarray:
        """What the subtree below ``node`` (examined by :meth:`as_leaf`, or a leaf) gives
        each row that reaches it."""
        if not node.children:
            _, shares, _ = self.paths[id(node)]
            return shares[:, None] * node.prediction[None, :]
        return self._below.pop(id(node))  # its parent is the last to ask


LOG_COLUMNS = ["node", "test", "depth", "accuracy as a leaf", "accuracy split", "decision"]


def _prune_on_validation(root: Node, X: np.ndarray, y: np.ndarray, n_classes: int,
                         predict_missing: str, loss: np.ndarray | None = None) -> pd.DataFrame:
    """Validation-based pre-pruning (Zhou 2016, sec. 4.3.1), in place: the tree is unfolded
    level by level from the root, and a node keeps its split only if the whole tree's
    validation accuracy with the node split into leaves is strictly higher than with the node
    a leaf; otherwise it becomes a leaf (stop reason "validation"). Accuracy is that of the
    classes the model predicts (:class:`_Votes`, by ``loss`` if the model names a class by
    one). Returns the log of the nodes examined (see ``LOG_COLUMNS``)."""
    votes = _Votes(root, X, y, n_classes, predict_missing, whole_tree=False, loss=loss)
    total = max(len(y), 1)
    number = root.numbers()
    rows, queue = [], [root]
    for node in queue:  # breadth first: the list grows while it is read
        if not node.children:
            continue
        before = votes.correct
        split = [(node, False)] + [(child, True) for child in node.children]
        gain = votes.change([(node, True)], split, node)
        keep = gain > 0
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "accuracy as a leaf": before / total,
                     "accuracy split": (before + gain) / total,
                     "decision": "split" if keep else "leaf"})
        if keep:
            votes.change([(node, True)], split, node, apply=True)
            queue.extend(node.children)
        else:
            make_leaf(node, "validation")
    return pd.DataFrame(rows, columns=LOG_COLUMNS)


def _reduced_error(root: Node, X: np.ndarray, y: np.ndarray, n_classes: int,
                   predict_missing: str, prune_on_tie: bool,
                   loss: np.ndarray | None = None) -> pd.DataFrame:
    """Reduced-error pruning of the tree below ``root``, in place, on the encoded validation
    rows ``X`` with class codes ``y`` (see :func:`prune_reduced_error`); returns the log."""
    votes = _Votes(root, X, y, n_classes, predict_missing, loss=loss)
    total = max(len(y), 1)
    number = root.numbers()
    order = [root]
    for node in order:  # breadth first, then deepest level first, each left to right
        order.extend(node.children)
    rows = []
    for node in sorted(order, key=lambda node: -node.depth):  # a stable sort
        if not node.children:
            continue
        whole = votes.correct
        gain = votes.as_leaf(node)
        prune = gain > 0 or (prune_on_tie and gain == 0)
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "accuracy as a leaf": (whole + gain) / total,
                     "accuracy split": whole / total,
                     "decision": "leaf" if prune else "split"})
        if prune:
            votes.take()
            make_leaf(node, "reduced_error")
    return pd.DataFrame(rows, columns=LOG_COLUMNS)


def prune_reduced_error(model, X_val, y_val, prune_on_tie: bool = False):
    """Reduced-error pruning (Quinlan 1987; Zhou 2016, sec. 4.3.2): a pruned copy of a fitted
    classifier. The internal nodes are examined bottom-up, deepest level first and each level
    from left to right (Zhou's order); each is replaced by a leaf predicting its training
    majority if that raises the whole tree's accuracy on the validation data
    (``prune_on_tie=True``: if it does not lower it). Accuracy is that of the classes the model
    predicts: a validation row with a missing value is routed as ``predict`` routes it
    (``predict_missing``), so pruning never lowers the model's validation accuracy. The
    copy's ``pruning_log_`` lists the nodes examined, with the accuracy split and as a leaf,
    and the decision. The copy is a fitted result (``pruned_by_``): the validation set is no
    parameter, so ``clone()`` does not keep the pruning; ``pruning="reduced_error"`` prunes on
    a part of the training rows held out at fit instead.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` classifier.
    X_val : pandas.DataFrame or array-like of shape (n_samples, n_features)
        The validation rows, read as at fit.
    y_val : array-like of shape (n_samples,)
        Their class labels.
    prune_on_tie : bool, default=False
        Prune a node whose leaf is as accurate as its subtree.

    Returns
    -------
    estimator
        The pruned copy; ``model`` is not changed.
    """
    if not isinstance(prune_on_tie, bool):
        raise TypeError(f"prune_on_tie must be True or False, got {prune_on_tie!r}")
    pruned = _fitted_copy(model, "reduced-error pruning counts correct answers")
    X, y = pruned.encode(X_val, y_val)
    log = _reduced_error(pruned._root, X, y, len(pruned.classes_), pruned.predict_missing,
                         prune_on_tie, decision_loss(model))
    return _finish(pruned, model, log, "prune_reduced_error(X_val, y_val, "
                                       f"prune_on_tie={prune_on_tie})")


# ------------------------------------------------------------------ error-based pruning (C4.5)
def added_errors(n: float, errors: float, confidence: float) -> float:
    """C4.5's pessimistic addition to a leaf's training errors (Quinlan 1993, ch. 4; Weka's
    ``Stats.addErrs``): U_CF(e, n) - e, where U_CF is the upper limit, at confidence level
    ``confidence``, of the binomial error rate given e errors in n rows; computed exactly below
    one error and by the normal approximation (with C4.5's corrections) above."""
    return _added_errors(n, errors, confidence, NormalDist().inv_cdf(1 - confidence))


@kernel
def _added_errors(n, errors, confidence, z):
    """:func:`added_errors`, given z, the normal quantile at 1 - confidence: below one error
    the exact bound at 0 errors, n (1 - CF^(1/n)), and linearly on to the bound at 1."""
    if errors < 1:
        base = n * (1 - confidence ** (1 / n))
        return base if errors == 0 else base + errors * (_normal_added(n, 1.0, z) - base)
    return _normal_added(n, errors, z)


@kernel
def _normal_added(n, errors, z):
    """U_CF(e, n) n - e by the normal approximation with f = (e + 0.5) / n (e >= 1)."""
    if errors + 0.5 >= n:
        return max(n - errors, 0.0)
    f = (errors + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return r * n - errors


@kernel
def _leaf_errors(counts, confidence, z):
    """A leaf's estimated errors e + added_errors(n, e) from its weighted class ``counts``
    (n their sum, e all but the largest); 0 for a leaf of no weight (at most 1e-6)."""
    total = 0.0
    for c in range(len(counts)):
        total += counts[c]
    if total <= WEKA_SMALL:
        return 0.0
    errors = total - counts.max()
    return errors + _added_errors(total, errors, confidence, z)


@kernel
def _branch_errors(top, X, y, n_classes, rows, w, feature, first_child, n_children, code_start,
                   threshold, codes, surrogates, surrogate_table, surrogate_threshold,
                   fit_child, unplaced, confidence, z):
    """The estimated errors of the branch below node ``top`` on the rows ``rows`` of ``X``
    (encoded, C order; weights ``w``, class codes ``y``) handed down it as at fit (Weka's
    ``getEstimatedErrorsForBranch``): the sum, over the leaves reached, of
    :func:`_leaf_errors`. The tree is laid out as :class:`dtree.tree.RoutingArrays`; a row takes the
    branch the routing rule gives it as at fit (:mod:`dtree.routing`, with the grower's
    detours ``fit_child``). A row placed on no branch stays at the node (``unplaced`` STAY:
    CART on a majority tie) or goes down (SPREAD) every branch whose share of the weight placed
    among *these* rows exceeds 1e-6, with its
    weight times that share (J48's resetDistribution; prediction spreads by the training
    fractions instead). The leaves are summed in the order of a stack that takes a node's
    children first to last and pops the last first."""
    total = 0.0
    stack_node, stack_rows, stack_w = [top], [rows], [w]
    while len(stack_node) > 0:
        v, r, rw = stack_node.pop(), stack_rows.pop(), stack_w.pop()
        m = len(r)
        if feature[v] < 0:
            counts = np.zeros(n_classes)
            for i in range(m):
                counts[y[r[i]]] += rw[i]
            total += _leaf_errors(counts, confidence, z)
            continue
        k = n_children[v]
        branch, known = np.empty(m, np.int64), np.zeros(k)
        n_own, n_spread = np.zeros(k, np.int64), 0
        for i in range(m):
            b = branch_of(X[r[i], feature[v]], threshold[v], codes, code_start[v])
            if b < 0:
                b = route_missing(X, r[i], v, codes, surrogates, surrogate_table,
                                  surrogate_threshold, fit_child, unplaced)
            branch[i] = b
            if b >= 0:
                known[b] += rw[i]
                n_own[b] += 1
            elif b == SPREAD:
                n_spread += 1
        placed = 0.0
        for b in range(k):
            placed += known[b]
        for b in range(k):
            share = known[b] / placed if placed > 0 else known[b]
            spread = n_spread if share > WEKA_SMALL else 0
            if n_own[b] + spread == 0:  # no row reaches the branch: it adds nothing
                continue
            child_rows = np.empty(n_own[b] + spread, np.int64)
            child_w = np.empty(n_own[b] + spread)
            j = 0
            for i in range(m):  # the branch's own rows, then the spread ones
                if branch[i] == b:
                    child_rows[j], child_w[j] = r[i], rw[i]
                    j += 1
            for i in range(m if spread else 0):
                if branch[i] == SPREAD:
                    child_rows[j], child_w[j] = r[i], rw[i] * share
                    j += 1
            stack_node.append(first_child[v] + b)
            stack_rows.append(child_rows)
            stack_w.append(child_w)
    return total


def _error_based(root: Node, training: tuple | None, n_classes: int, confidence: float,
                 routing: str) -> pd.DataFrame:
    """Error-based pruning of the tree below ``root``, in place (see
    :func:`prune_error_based`); ``training`` holds the training rows (encoded, C order),
    their class codes and weights for subtree raising, or is None for none. A row goes
    down as at fit (``routing``: CART keeps at a node a row no surrogate places on a majority
    tie). The estimate of the largest branch on a node's rows is made on the tree's routing
    arrays (:meth:`dtree.tree.NodeTable.routing`, :func:`_branch_errors`), which the edits
    patch. Returns the log."""
    number = root.numbers()
    z = NormalDist().inv_cdf(1 - confidence)
    rows_log = []
    a = None
    if training is not None:
        X, y, w = training
        X = np.require(X, float, ["C", "W"])  # the layout fit gives the kernel (TrainingSet)
        a = _as_arrays(root._table, root._row)  # its own, which the edits patch
        errors_of_branch = compiled(_branch_errors)

    def branch_estimate(node, rows, weights) -> float:
        """:func:`_branch_errors` of the branch below ``node`` on these rows, on the routing
        arrays that the edits keep in step with the tree."""
        return errors_of_branch(
            a.place[node._row], X, y, n_classes, np.ascontiguousarray(rows),
            np.ascontiguousarray(weights, dtype=float), a.feature, a.first_child,
            a.n_children, a.code_start, a.threshold, a.codes, a.surrogates, a.surrogate_table,
            a.surrogate_threshold, a.fit_child, otherwise(routing), confidence, z)

    def counts(rows, weights):
        return np.bincount(y[rows], weights=weights, minlength=n_classes)

    def leaf_estimate(class_counts) -> float:
        return _leaf_errors(class_counts, confidence, z)

    # the estimated errors of the leaves below each node whose subtree is pruned, in pre-order
    # (their sum is the node's estimate as a tree, summed in that order)
    estimates: dict[int, list[float]] = {}

    def settle_leaf(node) -> None:
        estimates[id(node)] = [leaf_estimate(node.value)]

    def split(node, rows, weights):
        """The node's rows handed to its children as the tree was grown (missing-value
        branch, surrogates); a row spread over the branches goes to each with the share of the
        placed weight among these rows (J48's resetDistribution)."""
        branch = _routed_branches(a, node, X, rows, routing, at_fit=True)
        placed = branch >= 0
        known = np.bincount(branch[placed], weights=weights[placed],
                            minlength=len(node.children))
        shares = known / known.sum() if known.sum() > 0 else known
        return hand_down(branch, rows, weights, shares, smallest=WEKA_SMALL), shares

    def redistribute(node, rows, weights) -> None:
        """The subtree's statistics from ``rows`` (after a branch was raised into its place);
        a node no row reaches predicts like its parent, as an empty branch does."""
        stack = [(node, rows, weights, node.prediction)]
        while stack:
            node, rows, weights, above = stack.pop()
            node.value = counts(rows, weights)
            node.weighted_n_samples = float(weights.sum())
            node.n_samples = len(rows)
            node.prediction = (node.value / node.weighted_n_samples
                               if node.weighted_n_samples > 0 else above)
            if node.children:
                parts, node.branch_fractions = split(node, rows, weights)
                if routing == "stop":  # CART: where prediction sends a row nothing places
                    node.larger_branch = larger_branch([len(part[0]) for part in parts])
                stack.extend((child, *part, node.prediction)
                             for child, part in zip(node.children, parts))

    def decide(node, rows, weights) -> bool:
        """Prune one node whose subtrees are pruned; True if a branch was raised into its
        place (the node must then be pruned again). The largest branch is Weka's
        ``Distribution.maxBag``: a branch replaces the one held if its weight is at least that
        one's less 1e-6 (``Utils.grOrEq``), so of branches tied in weight the last is raised."""
        largest, most = 0, 0.0
        for b, child in enumerate(node.children):
            if most - child.weighted_n_samples < WEKA_SMALL:
                largest, most = b, child.weighted_n_samples
        as_branch = np.inf if rows is None else branch_estimate(node.children[largest], rows,
                                                                 weights)
        below = [e for child in node.children for e in estimates.pop(id(child))]
        as_leaf, as_tree = leaf_estimate(node.value), sum(below)
        entry = {"node": number.get(id(node)), "test": node.feature, "as a leaf": as_leaf,
                 "as a tree": as_tree, "largest branch": as_branch}
        slack = J48_PRUNE_SLACK + WEKA_SMALL
        if as_leaf <= as_tree + slack and as_leaf <= as_branch + slack:
            rows_log.append({**entry, "decision": "leaf"})
            make_leaf(node, "error_based", a)
            estimates[id(node)] = [as_leaf]
            return False
        if as_branch <= as_tree + slack:
            rows_log.append({**entry, "decision": f"raise branch {largest}"})
            raise_branch(node, node.children[largest], a)
            redistribute(node, rows, weights)
            if not node.children:  # a leaf was raised
                settle_leaf(node)
            return True
        rows_log.append({**entry, "decision": "keep"})
        estimates[id(node)] = below
        return False

    if training is None:  # children before parents; nothing is raised
        for node in reversed(list(root.walk())):
            if node.children:
                decide(node, None, None)
            else:
                settle_leaf(node)
    else:  # bottom-up without recursion: a node is decided once its children are (J48's prune())
        keep = w > 0
        stack = [(root, np.flatnonzero(keep), w[keep].astype(float), False)]
        while stack:
            node, rows, weights, children_done = stack.pop()
            if not node.children:
                settle_leaf(node)
                continue
            if children_done and (not decide(node, rows, weights) or not node.children):
                continue
            stack.append((node, rows, weights, True))  # after its children (again, if raised)
            parts, _ = split(node, rows, weights)
            stack.extend((child, *part, False)
                         for child, part in reversed(list(zip(node.children, parts))))
        _depths(root)
    return pd.DataFrame(rows_log, columns=["node", "test", "as a leaf", "as a tree",
                                           "largest branch", "decision"])


def prune_error_based(model, X=None, y=None, sample_weight=None, *, confidence: float = 0.25,
                      subtree_raising: bool = True):
    """C4.5's error-based pruning, as Weka's J48 does it (Quinlan 1993, ch. 4): a pruned copy of
    a fitted classifier, with ``pruning_log_``.

    Bottom-up, each internal node t compares three estimates of its errors, each leaf counting
    e + ``added_errors``(n, e, confidence): as a leaf; as it is (the sum over its leaves); and,
    with ``subtree_raising``, its largest branch grown over all of t's training rows. t becomes a
    leaf if that is no worse (up to 0.1) than both; else, if the largest branch is no worse than
    the tree, it replaces t (its rows handed down again) and is pruned again. With
    ``C45Classifier(variant="j48", min_samples_leaf=2)`` this gives J48's default tree
    (``-C 0.25 -M 2``).

    Subtree raising hands the training rows ``X``, ``y`` (and ``sample_weight``) down the raised
    branch, so it needs them; a fitted model keeps no rows (J48 too holds them only while it
    prunes). Without subtree raising the class counts on the nodes suffice. The copy's
    parameters say ``pruning="error_based"`` with this ``confidence`` and ``subtree_raising``,
    so that ``clone()`` and ``fit`` prune it the same way.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` classifier.
    X : pandas.DataFrame, array-like or None, default=None
        The training rows (needed with ``subtree_raising``).
    y : array-like of shape (n_samples,) or None, default=None
        Their class labels.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Their weights, as given to ``fit``.
    confidence : float in (0, 0.5], default=0.25
        The confidence level of the upper error limit (J48's ``-C``).
    subtree_raising : bool, default=True
        Whether a node's largest branch may replace it (J48's default; ``-S`` turns it off).

    Returns
    -------
    estimator
        The pruned copy; ``model`` is not changed.
    """
    confidence = check_number(confidence, "confidence", low=0, high=0.5, low_open=True)
    if not isinstance(subtree_raising, bool):
        raise TypeError(f"subtree_raising must be True or False, got {subtree_raising!r}")
    pruned = _fitted_copy(model, "error-based pruning counts misclassified rows")
    training = None
    if subtree_raising:
        if X is None or y is None:
            raise ValueError("subtree raising hands the training rows down again: pass them, "
                             "prune_error_based(model, X, y), or subtree_raising=False")
        X, codes = pruned.encode(X, y)
        weights = check_sample_weight(sample_weight, len(codes))
        counts = np.bincount(codes[codes >= 0], weights[codes >= 0],
                             minlength=len(pruned.classes_))
        if (codes < 0).any() or not np.allclose(
                counts, pruned._root.value * counts.sum() / pruned._root.weighted_n_samples):
            raise ValueError("X and y are not the rows the model was fitted on: their classes "
                             "do not add up to the root's")
        training = (X, codes, weights)
    routing = "stop" if pruned.missing == "surrogate" else "distribute"
    log = _error_based(pruned._root, training, len(pruned.classes_), confidence, routing)
    return _finish(pruned, model, log, f"prune_error_based(confidence={confidence:g}, "
                                       f"subtree_raising={subtree_raising})",
                   {"pruning": "error_based", "confidence": confidence,
                    "subtree_raising": subtree_raising})


def _depths(root: Node) -> None:
    """Set every node's depth again (raising a branch moves its nodes up)."""
    stack = [(root, root.depth)]
    while stack:
        node, depth = stack.pop()
        node.depth = depth
        stack.extend((child, depth + 1) for child in node.children)


# ------------------------------------------------------------------ pessimistic error pruning
ORDERS = ("top_down", "bottom_up")


def _pessimistic(root: Node, z: float, order: str) -> pd.DataFrame:
    """Pessimistic error pruning of the tree below ``root``, in place (see
    :func:`prune_pessimistic`); returns the log."""
    number = root.numbers()
    rows = []

    def judge(node) -> None:
        leaves = node.leaves()
        charged = sum(leaf.training_errors for leaf in leaves) + len(leaves) / 2
        n = node.weighted_n_samples
        se = math.sqrt(max(charged * (n - charged), 0.0) / n) if n > 0 else 0.0
        as_leaf = node.training_errors + 0.5
        prune = as_leaf <= charged + z * se + PESSIMISTIC_ATOL
        rows.append({"node": number[id(node)], "test": node.feature, "e(t) + 1/2": as_leaf,
                     "E(T_t)": charged, "SE": se, "E + z SE": charged + z * se,
                     "decision": "leaf" if prune else "keep"})
        if prune:
            make_leaf(node, "pessimistic")

    if order == "top_down":
        stack = [root]
        while stack:
            node = stack.pop()
            if node.children:
                judge(node)
                stack.extend(reversed(node.children))
    else:
        for node in reversed(list(root.walk())):  # children before parents
            if node.children:
                judge(node)
    return pd.DataFrame(rows, columns=["node", "test", "e(t) + 1/2", "E(T_t)", "SE",
                                       "E + z SE", "decision"])


def prune_pessimistic(model, z: float = 1.0, order: str = "top_down"):
    """Pessimistic error pruning (Quinlan 1987; seed 000): a pruned copy of a fitted
    classifier, with ``pruning_log_``. With e(t) the training weight a node misclassifies as a
    leaf, its subtree T_t with L leaves is charged E = sum of its leaves' e + L/2 (the
    continuity correction of 1/2 per leaf) and SE = sqrt(E (n_t - E) / n_t); t becomes a leaf
    if e(t) + 1/2 <= E + z SE. ``order="top_down"`` (Quinlan's) examines the nodes from the
    root, and the subtree of a pruned node is not examined; ``"bottom_up"`` (seed 000's) prunes
    the children first, so a node is judged on its already pruned subtree. Top-down pruning
    gives the copy the parameters ``pruning="pessimistic"`` and ``z``, so that ``clone()``
    keeps it; bottom-up pruning is a fitted result (``pruned_by_``).

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` classifier.
    z : float, default=1.0
        The standard errors a subtree may exceed its leaf by, at least 0.
    order : {"top_down", "bottom_up"}, default="top_down"
        The order the nodes are examined in.

    Returns
    -------
    estimator
        The pruned copy; ``model`` is not changed.
    """
    z = check_number(z, "z", low=0)
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    pruned = _fitted_copy(model, "pessimistic pruning counts misclassified rows")
    log = _pessimistic(pruned._root, z, order)
    return _finish(pruned, model, log, f"prune_pessimistic(z={z:g}, order={order!r})",
                   {"pruning": "pessimistic", "z": z} if order == "top_down" else None)


# ------------------------------------------------------------------ cross-validated cost
def cross_validated_errors(model, X, y, w: np.ndarray, groups: np.ndarray, alphas: np.ndarray,
                           cost: str) -> tuple[np.ndarray, np.ndarray]:
    """rpart's cross-validation of the subtrees pruned at each of ``alphas`` (``src/xval.c``):
    for each fold of ``groups`` (a fold id per row), the model is refitted (``clone``, an
    unpruned CART) without the fold, and each left-out row's loss e (0/1, or the squared error
    for ``cost="impurity"``) under the refitted tree pruned at each alpha is summed: returns
    sum w e and sum w e^2 per alpha. One tree per fold: a row's subtree at alpha ends at the
    first node of its way down whose branch is cut at alpha (:func:`_pruned_errors`), so no
    tree is pruned or asked to predict per alpha."""
    X = X if isinstance(X, pd.DataFrame) else np.asarray(X)
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows and y {len(y)}")
    classify = cost == "error"
    order = np.argsort(-alphas, kind="stable")  # the kernel reads them largest first
    risk, square = np.zeros(len(alphas)), np.zeros(len(alphas))
    template = clone(model)
    if isinstance(template.get_params().get("ccp_alpha"), str):  # a rule: grow unpruned
        template.set_params(ccp_alpha=0.0)
    for test, root, a, end, classes, costs in _fold_trees(template, X, y, w, groups):
        n, parent = len(a.feature), _parents(a)
        path, cut = weakest_links(root, cost, costs=costs)
        cut_at = np.full(n, np.inf)  # the alpha from which a node's branch is cut (steps in
        cut_at[[a.place[node._row] for node in cut]] = np.maximum.accumulate(  # (in order)
            path.ccp_alphas[1:])
        if classify:
            position = {label: code for code, label in enumerate(classes.tolist())}
            target = np.array([position.get(label, -1) for label in y[test].tolist()], float)
            output = most_probable(a.values).astype(float)
        else:
            target, output = y[test].astype(float), a.values[:, 0]
        fold_risk, fold_square = compiled(_pruned_errors)(
            end, parent, cut_at, alphas[order],
            ALPHA_ROUND_OFF * path.impurities[-1], output, target, w[test], classify)
        risk[order] += fold_risk
        square[order] += fold_square
    return risk, square


def _fold_trees(template, X, y, w: np.ndarray, groups: np.ndarray):
    """For each fold of ``groups``: its rows (a mask), the root of the tree ``template`` grows
    without them, that tree's routing arrays, the node where each of those rows ends in it
    (``dtree.tree._end_numbers``), its classes (None for a regressor) and ``costs_``. X is
    encoded once and each tree grown on its rows (``template._grown``) where that is what a
    fit on them does: a CART without class weights, priors, loss, pruning or drawn features,
    whose every fold leaves in its training rows of positive weight each class and each
    category that X's rows of positive weight have (a pandas categorical column's categories
    are declared) and a value of each column. Else each tree is the fit of a clone (``fit``
    learns the categories of its own rows). With no value missing in X, a tree is first grown
    without surrogates: they change no primary split, and a left-out row takes one only where
    its tested value is missing or a category that the node's training rows did not have;
    there, having none, it ends at that internal node, and the tree is grown again with
    them."""
    part = (lambda rows: X.iloc[rows]) if isinstance(X, pd.DataFrame) else (lambda rows: X[rows])
    shared = _shared_encoding(template, X, y, w, groups)
    for group in np.unique(groups):
        test, train = groups == group, groups != group
        if shared is None:
            grown = clone(template).fit(part(train), y[train], sample_weight=w[train])
            yield (test, grown._root, *_end_numbers(grown._root, grown._encoded(part(test)),
                                                    template.predict_missing),
                   getattr(grown, "classes_", None), getattr(grown, "costs_", None))
            continue
        p, features, matrix, targets, n_classes, classes = shared
        rows = train & (w > 0)
        complete = not np.isnan(matrix).any()
        for surrogates in ([None, p.max_surrogates] if complete else [p.max_surrogates]):
            root = template._grown(SimpleNamespace(**{**vars(p), "max_surrogates": surrogates}),
                                   features, matrix[rows], targets[rows], n_classes, w[rows])
            a, end = _end_numbers(root, matrix[test], template.predict_missing)
            if not a.n_children[end].any():  # none stopped for want of a surrogate
                break
        yield test, root, a, end, classes, None


def _shared_encoding(template, X, y, w: np.ndarray, groups: np.ndarray):
    """What :func:`_fold_trees` grows every fold's tree from, X encoded once: the checked
    parameters, the features (learnt from the rows of positive weight), every row encoded,
    the targets, the number of classes and the classes; None where a fold's own fit could
    differ (see :func:`_fold_trees`)."""
    params = template.get_params()
    if params.get("ccp_alpha") != 0 or any(params.get(name) is not None for name in (
            "class_weight", "priors", "loss", "pruning", "max_features")):
        return None
    p = check_params(template, template._parameters)
    names, columns, table = table_columns(X)
    targets, n_classes, classes = template._targets(y)
    kept = w > 0
    if kept.all():  # the encoded rows are every row (X itself if it is float64: only read)
        features, matrix = fit_features(names, columns, table=table)
    else:
        features = fit_features(names, take_rows(columns, kept))[0]
        matrix = encode_columns(columns, features, table, copy=False)
    learnt = [j for j, (feature, column) in enumerate(zip(features, columns))
              if feature.is_categorical and not isinstance(getattr(column, "dtype", None),
                                                           pd.CategoricalDtype)]
    for group in np.unique(groups):
        train = groups != group
        rows = matrix[train & kept]
        if np.isnan(rows).all(axis=0).any() or (
                n_classes and not np.bincount(targets[train], minlength=n_classes).all()):
            return None
        for j in learnt:
            codes = rows[:, j][~np.isnan(rows[:, j])].astype(np.int64)
            if not np.bincount(codes, minlength=len(features[j].categories)).all():
                return None
    return p, features, matrix, targets, n_classes, classes


@kernel
def _pruned_errors(end, parent, cut_at, alphas, round_off, output, target, w, classify):
    """Per alpha (largest first), sum w e and sum w e^2 over the rows, e a row's loss at the
    node where it ends in the tree pruned at alpha: the first node of its way down (from the
    root to its end node ``end``) whose branch is cut, ``cut_at <= alpha`` up to ``round_off``
    (as :func:`_prune_to_alpha` cuts), else its end node. e is 1 if the node's ``output`` (a
    class code) differs from the row's ``target`` (``classify``), else the squared
    difference."""
    n_alphas = len(alphas)
    risk, square = np.zeros(n_alphas), np.zeros(n_alphas)
    way = np.empty(len(parent), np.int64)
    for i in range(len(end)):
        depth, v = 0, end[i]
        while v >= 0:  # the way up, then read down
            way[depth] = v
            depth += 1
            v = parent[v]
        k = 0
        for d in range(depth - 1, -1, -1):
            v = way[d]
            # the alphas, largest first, at which v is the first cut node: those not yet taken
            while k < n_alphas and (d == 0 or cut_at[v] <= alphas[k] + round_off):
                if classify:
                    e = 0.0 if output[v] == target[i] else 1.0
                else:
                    e = (output[v] - target[i]) ** 2
                risk[k] += w[i] * e
                square[k] += w[i] * e * e
                k += 1
    return risk, square


@dataclass(frozen=True)
class Grown:
    """What ``fit`` hands a pruner besides the tree: the model (its parameters), the number of
    classes and the encoded training rows (``matrix``, class codes ``codes``, weights ``w``),
    ``holdout`` marking the rows held out of growing (or None)."""
    model: object
    n_classes: int
    matrix: np.ndarray
    codes: np.ndarray
    w: np.ndarray
    holdout: np.ndarray | None

    def held_out(self) -> tuple[np.ndarray, np.ndarray]:
        return self.matrix[self.holdout], self.codes[self.holdout]


def _at_fit_error_based(tree: Node, fit: Grown) -> pd.DataFrame:
    training = (fit.matrix, fit.codes, fit.w) if fit.model.subtree_raising else None
    return _error_based(tree, training, fit.n_classes, fit.model.confidence, "distribute")


#: ``pruning=`` name -> how ``fit`` prunes the grown tree in place with it; returns the log.
#: A new pruner is a function here.
AT_FIT = {
    "error_based": _at_fit_error_based,
    "pessimistic": lambda tree, fit: _pessimistic(tree, fit.model.z, "top_down"),
    "reduced_error": lambda tree, fit: _reduced_error(
        tree, *fit.held_out(), fit.n_classes, fit.model.predict_missing,
        fit.model.prune_on_tie),
    "validation": lambda tree, fit: _prune_on_validation(
        tree, *fit.held_out(), fit.n_classes, fit.model.predict_missing,
        fit.model._decision_loss(fit.n_classes)),
}
#: the pruners an estimator's ``pruning`` parameter can name (None: no pruning)
PRUNERS = tuple(AT_FIT)


def refuse_second_pruning(first: str, second: str) -> None:
    """One tree, one pruning: ``first`` already prunes it, so ``second`` may not."""
    raise ValueError(f"{first} pre-prunes the tree: {second} would prune it again; choose one")

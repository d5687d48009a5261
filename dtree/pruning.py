"""Cost-complexity pruning (Breiman et al. 1984, ch. 3): the weakest-link sequence of subtrees.

For a subtree T with n(T) leaves, C_alpha(T) = R(T) + alpha n(T), where R(T) = sum over the
leaves of R(t), and R(t) is a node's cost: ``cost="impurity"``, its weighted share of the
training weight times its impurity, (W_t / W) I(t) (scikit-learn's); ``cost="error"``, the share
of the training weight it misclassifies (Breiman et al.'s resubstitution error; rpart's, whose
complexity parameter is cp = alpha / R(root)). Cutting the branch T_t below an internal node t
turns its cost R(T_t) + alpha n(T_t) into R(t) + alpha; both are equal at

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

import numpy as np
import pandas as pd

from ._validation import check_number
from .export import fitted_tree
from .surrogates import surrogate_sides
from .tree import Layout, Node

__all__ = ["PruningPath", "COSTS", "cost_complexity_path", "cost_complexity_steps",
           "prune_cost_complexity",
           "prune_reduced_error", "prune_on_validation", "prune_error_based", "added_errors",
           "prune_pessimistic", "weakest_links", "prune_to_alpha", "make_leaf"]

#: the node costs R(t) the path can use
COSTS = ("impurity", "error")


@dataclass(frozen=True)
class PruningPath:
    """The weakest-link sequence: ``ccp_alphas[i]`` is the alpha from which the i-th subtree
    is optimal (0 for the full tree), ``impurities[i]`` its R(T), ``n_leaves[i]`` its leaves."""

    ccp_alphas: np.ndarray
    impurities: np.ndarray
    n_leaves: np.ndarray


def _node_cost(node: Node, total: float, cost: str) -> float:
    """R(t): (W_t / W) I(t), or the weight t misclassifies over W (its weight less its
    majority class's)."""
    if cost == "error":
        return (node.weighted_n_samples - float(node.value.max())) / total
    return node.weighted_n_samples / total * node.impurity


def _layout(root: Node, cost: str) -> tuple[list[Node], np.ndarray, np.ndarray, np.ndarray]:
    """The nodes in pre-order, each one's parent (-1 for the root), subtree size (its subtree is
    ``nodes[i : i + size[i]]``) and cost R(t)."""
    nodes = list(root.walk())
    index = {id(node): i for i, node in enumerate(nodes)}
    parent = np.full(len(nodes), -1)
    for i, node in enumerate(nodes):
        for child in node.children:
            parent[index[id(child)]] = i
    size = np.ones(len(nodes), dtype=np.int64)
    for i in range(len(nodes) - 1, 0, -1):  # children come after their parent
        size[parent[i]] += size[i]
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {COSTS}, got {cost!r}")
    total = root.weighted_n_samples
    return nodes, parent, size, np.array([_node_cost(node, total, cost) for node in nodes])


def weakest_links(root: Node, cost: str = "impurity",
                  steps: list | None = None) -> tuple[PruningPath, list[Node]]:
    """The weakest-link sequence of the tree below ``root`` and, for each step after the first,
    the node whose branch is cut (the tree itself is not changed). If a list ``steps`` is
    given, one row per step and internal node still standing is appended to it: the step, the
    node's pre-order number, R(t), R(T_t), n(T_t), g(t) and whether it is cut."""
    nodes, parent, size, cost = _layout(root, cost)
    internal = np.array([not node.is_leaf for node in nodes])
    leaves = (~internal).astype(np.int64)
    branch_cost = np.where(internal, 0.0, cost)
    for i in range(len(nodes) - 1, 0, -1):  # a branch's leaves and cost, from its children
        leaves[parent[i]] += leaves[i]
        branch_cost[parent[i]] += branch_cost[i]
    alphas, impurities, n_leaves, cut = [0.0], [branch_cost[0]], [leaves[0]], []
    candidate = internal.copy()
    while candidate[0]:
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(candidate, (cost - branch_cost) / (leaves - 1), np.inf)
        t = int(np.argmin(g))  # the first of the smallest, in pre-order
        if steps is not None:
            steps += [{"step": len(alphas), "node": i, "test": nodes[i].feature,
                       "R(t)": cost[i], "R(T_t)": branch_cost[i], "n(T_t)": leaves[i],
                       "g(t)": g[i], "cut": i == t} for i in np.flatnonzero(candidate)]
        candidate[t:t + size[t]] = False
        lost_leaves, lost_cost = leaves[t] - 1, branch_cost[t] - cost[t]
        leaves[t], branch_cost[t] = 1, cost[t]
        a = parent[t]
        while a >= 0:
            leaves[a] -= lost_leaves
            branch_cost[a] -= lost_cost
            a = parent[a]
        alphas.append(float(g[t]))
        impurities.append(branch_cost[0])
        n_leaves.append(leaves[0])
        cut.append(nodes[t])
    return PruningPath(np.array(alphas), np.array(impurities), np.array(n_leaves)), cut


def prune_to_alpha(root: Node, alpha: float, cost: str = "impurity") -> list[dict]:
    """Cut, in place, every weakest link whose g(t) is at most ``alpha``: the smallest subtree
    minimising C_alpha (scikit-learn's ``ccp_alpha``). Returns the links examined, in order,
    as rows of a log: the node's pre-order number, test and depth, g(t), the leaves its cut
    removes, and the decision (the first link kept ends the log)."""
    path, cut = weakest_links(root, cost)
    number = {id(node): i for i, node in enumerate(root.walk())}
    rows = []
    for g, leaves, node in zip(path.ccp_alphas[1:], np.diff(-path.n_leaves), cut):
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "g(t)": g, "leaves removed": int(leaves),
                     "decision": "cut" if g <= alpha else "kept: g(t) > alpha"})
        if g > alpha:
            break
        make_leaf(node, "ccp_alpha")
    return rows


def make_leaf(node: Node, reason: str) -> None:
    """Turn an internal node into a leaf, in place, recording why in ``stop_reason``."""
    node.children, node.stop_reason = [], reason
    node.feature = node.feature_index = node.threshold = node.score = None
    node.category_sets = node.branch_of_code = node.branch_fractions = None
    node.missing_branch = None


def _fitted_copy(model):
    """A deep copy of a fitted model, to be pruned (the caller's model is never changed)."""
    fitted_tree(model)  # NotFittedError if it is not fitted
    return copy.deepcopy(model)


def cost_complexity_steps(model, cost: str = "impurity") -> pd.DataFrame:
    """Every step of the weakest-link sequence of a fitted model's tree: at step i, one row per
    internal node still standing, with R(t), R(T_t), n(T_t), g(t) and whether it is the link
    cut (Breiman et al. 1984, sec. 3.3; see :func:`cost_complexity_path`)."""
    root = fitted_tree(model)
    _check_cost(model, cost)
    steps: list = []
    weakest_links(root, cost, steps)
    return pd.DataFrame(steps, columns=["step", "node", "test", "R(t)", "R(T_t)", "n(T_t)",
                                        "g(t)", "cut"])


def cost_complexity_path(model, cost: str = "impurity") -> PruningPath:
    """The weakest-link sequence of a fitted model's tree (any of the library's trees):
    ``ccp_alphas`` (0 for the full tree, then the alpha of each cut), ``impurities`` (each
    subtree's cost R(T)) and ``n_leaves``. ``cost="impurity"`` is scikit-learn's R(t) =
    (W_t / W) I(t); ``cost="error"`` the misclassified share of the training weight, for which
    alpha / R(root) is rpart's complexity parameter cp (a classifier's tree only)."""
    root = fitted_tree(model)
    _check_cost(model, cost)
    return weakest_links(root, cost)[0]


def prune_cost_complexity(model, alpha: float, cost: str = "impurity"):
    """A copy of the fitted model, pruned to the smallest subtree that minimises
    C_alpha(T) = R(T) + alpha n(T): the weakest links are cut while g(t) <= alpha
    (:func:`prune_to_alpha`). The copy's ``pruning_log_`` lists the links in the order they
    are examined: the pre-order number, test and depth of the node, g(t), the leaves its cut
    removes, and the decision."""
    alpha = check_number(alpha, "alpha", low=0)
    _check_cost(model, cost)
    pruned = _fitted_copy(model)
    rows = prune_to_alpha(pruned.tree_, alpha, cost)
    pruned._layout = Layout(pruned.tree_)
    pruned.pruning_log_ = pd.DataFrame(rows, columns=["node", "test", "depth", "g(t)",
                                                      "leaves removed", "decision"])
    return pruned


def _check_cost(model, cost: str) -> None:
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {COSTS}, got {cost!r}")
    if cost == "error" and getattr(model, "classes_", None) is None:
        raise ValueError('cost="error" counts misclassified rows: it needs a classifier')


# ------------------------------------------------------------------ pruning on validation data
def _validation_counts(root: Node, X: np.ndarray, y: np.ndarray,
                       n_classes: int) -> dict[int, np.ndarray]:
    """For every node (by ``id``), the weighted class counts of the validation rows that reach
    it: ``X`` encoded as at fit, ``y`` class codes (-1 for a class unseen at fit). A row whose
    tested value is missing takes the node's missing branch, else its surrogates' or majority
    branch (CART), else every branch with its training fraction (C4.5)."""
    counts = {}
    stack = [(root, np.arange(len(y)), np.ones(len(y)))]
    while stack:
        node, rows, w = stack.pop()
        known_class = y[rows] >= 0
        counts[id(node)] = np.bincount(y[rows][known_class], weights=w[known_class],
                                       minlength=n_classes)
        if not node.children:
            continue
        branch = _branches(node, X, rows)
        lost = branch < 0  # missing, or a category without a branch
        if node.missing_branch is not None:
            branch[lost] = node.missing_branch
        elif node.surrogates or node.majority_branch is not None:
            majority = -1 if node.majority_branch is None else node.majority_branch
            branch[lost] = surrogate_sides(X.T, rows[lost], node.surrogates, majority)
        stack.extend(zip(node.children, *zip(*_hand_down(rows, w, branch,
                                                          node.branch_fractions))))
    return counts


def _branches(node: Node, X: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The branch of each row at an internal node; -1 where its value is missing (or its
    category has no branch there)."""
    values = X[rows, node.feature_index]
    missing = np.isnan(values)
    branch = np.full(len(rows), -1)
    if node.threshold is not None:
        branch[~missing] = np.where(values[~missing] <= node.threshold, 0, 1)
    else:
        branch[~missing] = node.branch_of_code[values[~missing].astype(np.int64)]
    return branch


def _hand_down(rows: np.ndarray, w: np.ndarray, branch: np.ndarray, shares: np.ndarray,
               smallest: float = 0.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each child's rows and weights: those of its branch, and the rows without a branch
    (-1) with their weight times the child's share, where the share exceeds ``smallest``."""
    lost, parts = branch < 0, []
    for b, share in enumerate(shares):
        mine = branch == b
        if lost.any() and share > smallest:
            parts.append((np.concatenate([rows[mine], rows[lost]]),
                          np.concatenate([w[mine], w[lost] * share])))
        else:
            parts.append((rows[mine], w[mine]))
    return parts


def _correct(node: Node, counts: dict) -> float:
    """The validation weight a node gets right as a leaf, predicting its training majority
    (the first of ``classes_`` on a tie)."""
    return float(counts[id(node)][int(np.argmax(node.prediction))])


LOG_COLUMNS = ["node", "test", "depth", "accuracy as a leaf", "accuracy split", "decision"]


def prune_on_validation(root: Node, X: np.ndarray, y: np.ndarray,
                        n_classes: int) -> pd.DataFrame:
    """Validation-based pre-pruning (Zhou 2016, sec. 4.3.1), in place: the tree is unfolded
    level by level from the root, and a node keeps its split only if the whole tree's
    validation accuracy with the node split into leaves is strictly higher than with the node
    a leaf; otherwise it becomes a leaf (stop reason "validation"). Returns the log of the nodes
    examined (see ``LOG_COLUMNS``)."""
    counts = _validation_counts(root, X, y, n_classes)
    total = max(len(y), 1)
    number = {id(node): i for i, node in enumerate(root.walk())}
    correct = _correct(root, counts)  # the tree so far: the root alone
    rows, queue = [], [root]
    for node in queue:  # breadth first: the list grows while it is read
        if not node.children:
            continue
        split = correct - _correct(node, counts) + sum(_correct(c, counts)
                                                       for c in node.children)
        keep = split > correct + 1e-12
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "accuracy as a leaf": correct / total, "accuracy split": split / total,
                     "decision": "split" if keep else "leaf"})
        if keep:
            correct = split
            queue.extend(node.children)
        else:
            make_leaf(node, "validation")
    return pd.DataFrame(rows, columns=LOG_COLUMNS)


def prune_reduced_error(model, X_val, y_val, prune_on_tie: bool = False):
    """Reduced-error pruning (Quinlan 1987; Zhou 2016, sec. 4.3.2): a pruned copy of a fitted
    classifier. The internal nodes are examined bottom-up, deepest level first and each level
    from left to right (Zhou's order); each is replaced by a leaf predicting its training
    majority if that raises the whole tree's accuracy on the validation data
    (``prune_on_tie=True``: if it does not lower it). The copy's ``pruning_log_`` lists the
    nodes examined, with the accuracy split and as a leaf, and the decision."""
    if not isinstance(prune_on_tie, bool):
        raise TypeError(f"prune_on_tie must be True or False, got {prune_on_tie!r}")
    pruned = _fitted_copy(model)
    if getattr(pruned, "classes_", None) is None:
        raise ValueError("reduced-error pruning counts correct answers: it needs a classifier")
    X, y = pruned._validation_matrix(X_val, y_val)
    root = pruned.tree_
    counts = _validation_counts(root, X, y, len(pruned.classes_))
    total = max(len(y), 1)
    number = {id(node): i for i, node in enumerate(root.walk())}
    order, correct, parent = [root], {}, {}
    for node in order:  # breadth first, then read backwards: deepest first
        order.extend(node.children)
        parent.update((id(child), node) for child in node.children)
    for node in reversed(order):  # the correct weight of each subtree as it stands
        correct[id(node)] = (_correct(node, counts) if not node.children else
                             sum(correct[id(c)] for c in node.children))
    whole = correct[id(root)]
    rows = []
    deepest_first = sorted(range(len(order)), key=lambda i: (-order[i].depth, i))
    for node in (order[i] for i in deepest_first):  # each level left to right
        if not node.children:
            continue
        as_leaf = whole - correct[id(node)] + _correct(node, counts)
        gain = as_leaf - whole
        prune = gain > 1e-12 or (prune_on_tie and gain >= -1e-12)
        rows.append({"node": number[id(node)], "test": node.feature, "depth": node.depth,
                     "accuracy as a leaf": as_leaf / total, "accuracy split": whole / total,
                     "decision": "leaf" if prune else "split"})
        if prune:
            make_leaf(node, "reduced_error")
            correct[id(node)] = _correct(node, counts)
            above = parent.get(id(node))
            while above is not None:  # the subtrees above it changed
                correct[id(above)] = sum(correct[id(c)] for c in above.children)
                above = parent.get(id(above))
            whole = correct[id(root)]
    pruned._layout = Layout(root)
    pruned.pruning_log_ = pd.DataFrame(rows, columns=LOG_COLUMNS)
    return pruned



# ------------------------------------------------------------------ error-based pruning (C4.5)
def added_errors(n: float, errors: float, confidence: float) -> float:
    """C4.5's pessimistic addition to a leaf's training errors (Quinlan 1993, ch. 4; Weka's
    ``Stats.addErrs``): U_CF(e, n) - e, where U_CF is the upper limit, at confidence level
    ``confidence``, of the binomial error rate given e errors in n rows; computed exactly below
    one error and by the normal approximation (with C4.5's corrections) above."""
    if errors < 1:
        base = n * (1 - confidence ** (1 / n))
        return base if errors == 0 else base + errors * (added_errors(n, 1, confidence) - base)
    if errors + 0.5 >= n:
        return max(n - errors, 0.0)
    z = NormalDist().inv_cdf(1 - confidence)
    f = (errors + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return r * n - errors


def prune_error_based(model, confidence: float = 0.25, subtree_raising: bool = True):
    """C4.5's error-based pruning, as Weka's J48 does it (Quinlan 1993, ch. 4): a pruned copy of
    a fitted classifier, with ``pruning_log_``.

    Bottom-up, each internal node t compares three estimates of its errors, each leaf counting
    e + ``added_errors``(n, e, confidence): as a leaf; as it is (the sum over its leaves); and,
    with ``subtree_raising``, its largest branch grown over all of t's training rows. t becomes a
    leaf if that is no worse (up to 0.1) than both; else, if the largest branch is no worse than
    the tree, it replaces t (its rows redistributed) and is pruned again. With
    ``C45Classifier(variant="j48", min_samples_leaf=2)`` this gives J48's default tree
    (``-C 0.25 -M 2``)."""
    confidence = check_number(confidence, "confidence", low=0, high=0.5, low_open=True)
    if not isinstance(subtree_raising, bool):
        raise TypeError(f"subtree_raising must be True or False, got {subtree_raising!r}")
    pruned = _fitted_copy(model)
    if getattr(pruned, "classes_", None) is None:
        raise ValueError("error-based pruning counts misclassified rows: it needs a classifier")
    X, y, w = pruned._training
    n_classes = len(pruned.classes_)
    y = y.astype(np.int64)
    number = {id(node): i for i, node in enumerate(pruned.tree_.walk())}
    rows_log = []

    def counts(rows, weights):
        return np.bincount(y[rows], weights=weights, minlength=n_classes)

    def leaf_estimate(class_counts) -> float:
        total = class_counts.sum()
        if total <= 1e-6:
            return 0.0
        errors = total - class_counts.max()
        return errors + added_errors(total, errors, confidence)

    def tree_estimate(node) -> float:
        return sum(leaf_estimate(leaf.value) for leaf in node.leaves())

    def split(node, rows, weights):
        """The node's rows handed to its children; a missing value goes to every child with
        the share of the known weight among these rows (J48's resetDistribution)."""
        branch = _branches(node, X, rows)
        known = np.bincount(branch[branch >= 0], weights=weights[branch >= 0],
                            minlength=len(node.children))
        shares = known / known.sum() if known.sum() > 0 else known
        return _hand_down(rows, weights, branch, shares, smallest=1e-6), shares

    def branch_estimate(node, rows, weights) -> float:
        """The estimated errors of the subtree below ``node`` on these rows."""
        total, stack = 0.0, [(node, rows, weights)]
        while stack:
            node, rows, weights = stack.pop()
            if not node.children:
                total += leaf_estimate(counts(rows, weights))
                continue
            stack.extend(zip(node.children, *zip(*split(node, rows, weights)[0])))
        return total

    def redistribute(node, rows, weights) -> None:
        """The subtree's statistics from ``rows`` (after a branch was raised into its place)."""
        stack = [(node, rows, weights)]
        while stack:
            node, rows, weights = stack.pop()
            node.value = counts(rows, weights)
            node.weighted_n_samples = float(weights.sum())
            node.n_samples = len(rows)
            if node.weighted_n_samples > 0:
                node.prediction = node.value / node.weighted_n_samples
            if node.children:
                parts, node.branch_fractions = split(node, rows, weights)
                stack.extend(zip(node.children, *zip(*parts)))

    def decide(node, rows, weights) -> bool:
        """Prune one node whose subtrees are pruned; True if a branch was raised into its
        place (the node must then be pruned again). The largest branch is Weka's
        ``Distribution.maxBag``: a branch replaces the one held if its weight is at least that
        one's less 1e-6 (``Utils.grOrEq``), so of branches tied in weight the last is raised."""
        largest, most = 0, 0.0
        for b, child in enumerate(node.children):
            if most - child.weighted_n_samples < 1e-6:
                largest, most = b, child.weighted_n_samples
        as_branch = (branch_estimate(node.children[largest], rows, weights) if subtree_raising
                     else np.inf)
        as_leaf, as_tree = leaf_estimate(node.value), tree_estimate(node)
        entry = {"node": number.get(id(node)), "test": node.feature, "as a leaf": as_leaf,
                 "as a tree": as_tree, "largest branch": as_branch}
        if as_leaf <= as_tree + 0.1 + 1e-6 and as_leaf <= as_branch + 0.1 + 1e-6:
            rows_log.append({**entry, "decision": "leaf"})
            make_leaf(node, "error_based")
            return False
        if as_branch <= as_tree + 0.1 + 1e-6:
            rows_log.append({**entry, "decision": f"raise branch {largest}"})
            raised = node.children[largest]
            for field in ("feature", "feature_index", "threshold", "category_sets",
                          "branch_of_code", "missing_branch", "surrogates", "majority_branch",
                          "score", "children"):
                setattr(node, field, getattr(raised, field))
            if not node.children:
                node.stop_reason = raised.stop_reason
            redistribute(node, rows, weights)
            return True
        rows_log.append({**entry, "decision": "keep"})
        return False

    keep = w > 0
    # bottom-up without recursion: a node is decided once its children are (Weka's prune())
    stack = [(pruned.tree_, np.flatnonzero(keep), w[keep].astype(float), False)]
    while stack:
        node, rows, weights, children_done = stack.pop()
        if not node.children:
            continue
        if children_done and (not decide(node, rows, weights) or not node.children):
            continue
        stack.append((node, rows, weights, True))  # after its children (again, if raised)
        parts, _ = split(node, rows, weights)
        stack.extend((child, *part, False)
                     for child, part in reversed(list(zip(node.children, parts))))
    _depths(pruned.tree_)
    pruned._layout = Layout(pruned.tree_)
    pruned.pruning_log_ = pd.DataFrame(rows_log, columns=["node", "test", "as a leaf",
                                                          "as a tree", "largest branch",
                                                          "decision"])
    return pruned


def _depths(root: Node) -> None:
    """Set every node's depth again (raising a branch moves its nodes up)."""
    stack = [(root, root.depth)]
    while stack:
        node, depth = stack.pop()
        node.depth = depth
        stack.extend((child, depth + 1) for child in node.children)


# ------------------------------------------------------------------ pessimistic error pruning
ORDERS = ("top_down", "bottom_up")


def prune_pessimistic(model, z: float = 1.0, order: str = "top_down"):
    """Pessimistic error pruning (Quinlan 1987; seed 000): a pruned copy of a fitted
    classifier, with ``pruning_log_``. With e(t) the training weight a node misclassifies as a
    leaf, its subtree T_t with L leaves is charged E = sum of its leaves' e + L/2 (the
    continuity correction of 1/2 per leaf) and SE = sqrt(E (n_t - E) / n_t); t becomes a leaf
    if e(t) + 1/2 <= E + z SE. ``order="top_down"`` (Quinlan's) examines the nodes from the
    root, and the subtree of a pruned node is not examined; ``"bottom_up"`` (seed 000's) prunes
    the children first, so a node is judged on its already pruned subtree."""
    z = check_number(z, "z", low=0)
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    pruned = _fitted_copy(model)
    if getattr(pruned, "classes_", None) is None:
        raise ValueError("pessimistic pruning counts misclassified rows: it needs a classifier")
    root = pruned.tree_
    number = {id(node): i for i, node in enumerate(root.walk())}
    rows = []

    def errors(node) -> float:
        return node.weighted_n_samples - float(node.value.max())

    def judge(node) -> None:
        leaves = node.leaves()
        charged = sum(errors(leaf) for leaf in leaves) + len(leaves) / 2
        n = node.weighted_n_samples
        se = math.sqrt(max(charged * (n - charged), 0.0) / n) if n > 0 else 0.0
        as_leaf = errors(node) + 0.5
        prune = as_leaf <= charged + z * se + 1e-12
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
    pruned._layout = Layout(root)
    pruned.pruning_log_ = pd.DataFrame(rows, columns=["node", "test", "e(t) + 1/2", "E(T_t)",
                                                      "SE", "E + z SE", "decision"])
    return pruned

"""The generic grower: one procedure for every algorithm in the book.

Starting from the root with all rows, each node is either made a leaf by the first stopping rule
that applies, or split on the attribute with the best score; its rows are handed to the children
and the same happens there (Quinlan 1986; Zhou 2016, fig. 4.2). What differs between ID3, C4.5
and CART is only the criterion and the kinds of split, passed in as arguments.

Rows carry weights. A row whose tested value is missing goes to every child with its weight
multiplied by the child's share of the known weight, r~_v (Zhou 2016, sec. 4.4.2).
"""
from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from . import kernels
from .jit import compiled, kernel
from ._validation import Feature
from .impurity import SCORES
from .kernels import n_statistics, partition, score_attributes
from .routing import SPREAD, STAY, route_missing
from .splits import Candidates, Split, TrainingSet, candidate_splits
from .surrogates import _category_sides, _node_surrogates, _surrogate
from .tolerances import J48_AVERAGE_GAIN_SLACK, J48_COLLAPSE_SLACK, WEKA_SMALL
from .tree import (Node, NodeTable, _child_places, _collector_paused, _objects, branches,
                   larger_branch, make_leaf, ties)

__all__ = ["SplitRules", "StoppingRules", "grow", "STOP_REASONS"]

#: why a node became a leaf, in the order the rules are tried
STOP_REASONS = {
    "empty": "no training rows reached this branch; it predicts like its parent",
    "pure": "all rows have the same target",
    "max_depth": "the depth limit was reached",
    "min_samples_split": "fewer rows than min_samples_split",
    "purity_threshold": "the majority class reached purity_threshold",
    "no_attributes": "no attributes are left to test",
    "no_split": "the rows agree on every remaining attribute",
    "min_samples_leaf": "every split would leave a branch with fewer than min_samples_leaf rows",
    "min_weight_fraction_leaf": "every split would leave a side with less than "
                                "min_weight_fraction_leaf of the weight",
    "min_impurity_decrease": "the best split's gain is below min_impurity_decrease",
    "max_leaf_nodes": "the tree had max_leaf_nodes leaves before its turn came (best-first)",
    "no_gain": "no split J48 compares has a positive gain ratio",
    "collapsed": "its subtree made no fewer training errors than the node alone (J48)",
    "ccp_alpha": "cost-complexity pruning cut its branch (g(t) <= ccp_alpha)",
    "validation": "splitting it did not raise the validation accuracy (pre-pruning)",
    "reduced_error": "as a leaf it does not lower the validation accuracy (reduced-error pruning)",
    "error_based": "its estimated errors as a leaf are no worse than its subtree's (C4.5)",
    "pessimistic": "e(t) + 1/2 is within z standard errors of its subtree's (Quinlan 1987)",
}

#: a node of at most this many rows is grown, with its whole subtree, by one call to the
#: compiled :func:`grow_subtree`, where the configuration allows (:func:`_subtrees_compiled`);
#: 0 never. The same tree either way; the per-node Python work is what it saves. Fewer rows
#: where the columns, the most categories of a column and the node statistics (a class count
#: per class) number more than SUBTREE_ENTRIES / SUBTREE_ROWS: grow_subtree keeps every
#: column's score, every category's side and the statistics of each of its nodes (about
#: twice as many as rows).
SUBTREE_ROWS = 2048
SUBTREE_ENTRIES = 2**18
#: the stop reasons the kernels give (:func:`first_stop`, :func:`choose_split`,
#: :func:`grow_subtree`), by code (0: the node is split), and the names by which they write
#: each code: the reason's own, in capitals
SUBTREE_REASONS = (None, "pure", "max_depth", "min_samples_split", "purity_threshold",
                   "no_attributes", "no_split", "min_samples_leaf", "min_impurity_decrease",
                   "empty", "no_gain")
(PURE, MAX_DEPTH, MIN_SAMPLES_SPLIT, PURITY_THRESHOLD, NO_ATTRIBUTES, NO_SPLIT, MIN_SAMPLES_LEAF,
 MIN_IMPURITY_DECREASE, EMPTY, NO_GAIN) = range(1, len(SUBTREE_REASONS))

NO_CATEGORIES = np.zeros(0, np.int64)  # the category map of a threshold split
#: a tree whose root's sorted rows have at most this many entries (4 MiB) never sorts again
#: (:func:`_resort_from`)
RESORT_ENTRIES = 2**20


@dataclass(frozen=True)
class SplitRules:
    """How nodes are split; each algorithm of the book is one configuration.

    ``criterion`` is what ranks the attributes, a key of ``dtree.impurity.SCORES``:
    ``"info_gain"`` for ID3, ``"gain_ratio"`` for C4.5. Categorical attributes split multiway,
    numeric ones at the threshold of highest gain, the decrease of the criterion's impurity
    (Zhou 2016, eq. 4.8, for entropy).

    ``gain_filter="average"`` lets only the attributes whose gain is at least the average gain
    compete (C4.5's heuristic; Quinlan 1993; Zhou 2016, p. 78): the average is over the
    candidates, the attributes that can split the node, and a gain that ties with it
    (:func:`dtree.tree.ties`) passes. ``min_samples_leaf``: a split is allowed only if every
    branch that receives rows receives at least this many (a row with a missing value counts
    in every branch it enters).

    ``j48=True`` makes these choices as Weka's J48 (C4.5 Release 8; Quinlan 1996) does:
    ``min_samples_leaf`` is its minimum weight ``-M`` in at least two branches (and in both
    sides of a cut, with the larger ``min_split`` of ``dtree.kernels.j48_best_cut``); a
    threshold's gain pays log2(number of cuts)/W and the threshold moves down to the largest
    training value not above it; attributes with at least 0.3 x (training rows) categories are
    left out of the average gain; a gain 1e-3 below the average passes; the winner needs a gain
    ratio above 1e-6; and after growing, subtrees that do not lower the training error are
    collapsed (``_collapse``).

    ``missing_branch=True`` treats a missing value as a value of its own: a split of a node whose
    rows include some with the tested value missing gets one more branch, the last, for them.

    ``binary=True`` (CART) splits a categorical attribute in two, by the best bipartition of its
    categories (``dtree.kernels._best_bipartition``); like a numeric one, the attribute
    stays available below its split. ``max_surrogates`` (CART; None for none of it) keeps that
    many surrogate splits per node (:mod:`dtree.surrogates`) and sends a row whose tested value
    is missing by the first one that can place it, else the way most rows went.
    ``discount_missing=False`` scores a split by the decrease among the rows whose value is
    known, without multiplying it by their share rho (seed 004's "penalty" switched off).

    ``learn_missing=True`` (CART's ``missing="learn"``, scikit-learn's rule) scores each cut
    of a numeric attribute with the rows whose value is missing on the better side
    (:func:`dtree.kernels.learned_cut`); the node keeps that side in ``missing_side`` for
    prediction. No surrogates; a split on categories sends a missing value (unseen at fit)
    to the child with more training rows, or none on a tie.
    ``max_features`` (None for all): at each node only that many of the available attributes,
    drawn at random without replacement, are scored (Breiman 2001's random forests;
    scikit-learn's ``max_features``); if none of them can split the node, the others are
    scored one at a time, in the drawn order, until one can. The draws come from
    ``numpy.random.RandomState(seed)``, so a seed gives the same tree every time.
    ``min_weight_fraction_leaf`` (CART): each side of a binary split needs at least this
    fraction of the weight the tree is grown on (scikit-learn's), counted as
    ``min_samples_leaf`` counts rows.
    """

    criterion: str = "info_gain"
    gain_filter: str | None = None
    min_samples_leaf: int = 1
    j48: bool = False
    missing_branch: bool = False
    binary: bool = False
    max_surrogates: int | None = None
    discount_missing: bool = True
    learn_missing: bool = False
    max_features: int | None = None
    seed: int | None = None
    min_weight_fraction_leaf: float = 0.0


@dataclass(frozen=True)
class StoppingRules:
    """When a node stops splitting (pre-pruning). ``max_depth=None`` means unlimited.

    ``min_impurity_decrease`` is compared with the best split's gain at the node or, with
    ``weighted_decrease`` (scikit-learn's and CART's reading), with that gain times the node's
    share of the training weight, W_t / W.

    ``max_leaf_nodes`` (None for no limit) grows the tree best-first, as scikit-learn's
    ``BestFirstTreeBuilder``: of the nodes that could be split, the one whose split has the
    largest weighted decrease (W_t / W) times its gain goes first (the earliest on a tie), and
    once the tree has ``max_leaf_nodes`` leaves the nodes still waiting become leaves. Without
    it the tree is grown depth first; both orders give the same tree when the limit is not
    reached (and no attributes are drawn at random: the draws come in another order).
    """

    max_depth: int | None = None
    min_samples_split: int = 2
    min_impurity_decrease: float = 0.0
    purity_threshold: float = 1.0
    weighted_decrease: bool = False
    max_leaf_nodes: int | None = None


# quoted in chapter 2
@_collector_paused()
def grow(X: np.ndarray, features: list[Feature], y: np.ndarray, n_classes: int,
         sample_weight: np.ndarray, rules: SplitRules, stopping: StoppingRules,
         priority: np.ndarray) -> Node:
    """Grow a tree on the encoded matrix ``X`` and return its root.

    ``y`` holds each row's class code (``n_classes`` classes) or, with
    ``n_classes=0``, its target value; ``priority`` ranks the features for breaking
    ties (lower wins). Rows of weight zero are left out, as if they were absent.

    The nodes wait on an agenda (``_Agenda``), which decides for each whether it is
    a leaf (``_stop_or_split``) and hands out the ones to split, with the split
    chosen. Each split node gets its test, its rows go to its children (a compiled
    kernel, ``dtree.kernels.partition``) and the children join the agenda.
    """
    agenda = _Agenda(X, features, y, n_classes, sample_weight, rules, stopping,
                     priority)
    data, partition = agenda.data, compiled(kernels.partition)
    for node, rows, weights, order, available, split in iter(agenda.next_split, None):
        if rules.j48 and not split.is_multiway:  # a threshold seen in the data
            t = data.value_at_most(split.feature, split.threshold)
            split = replace(split, threshold=t)
        _attach_split(node, split, features, agenda.shared)
        n_branches, sent = _missing_rows(node, split, data, rules, rows, weights,
                                         order, agenda.categories, agenda.complete)
        handed = partition(data.X[:, split.feature], _threshold(node), _codes(node),
                           n_branches, sent, data.y, n_classes, agenda.impurity, rows,
                           weights, order)
        n_sorted = len(order)
        rows = weights = order = sent = None  # the children have their own
        if split.is_multiway:  # a categorical attribute is tested once on a path
            available = available[available != split.feature]
        agenda.add_children(node, handed, n_sorted, available)
        if rules.max_surrogates is not None or rules.learn_missing:
            node.larger_branch = larger_branch([c.n_samples for c in node.children])
    if rules.j48:
        _collapse(agenda.root)
    agenda.root._table.shrink()
    return agenda.root


def _threshold(node: Node) -> float:
    """A node's threshold as the kernels read it: NaN for a split on categories."""
    return np.nan if node.threshold is None else node.threshold


def _codes(node: Node) -> np.ndarray:
    """A node's map from category code to branch as the kernels read it (empty for a
    threshold)."""
    return NO_CATEGORIES if node.branch_of_code is None else node.branch_of_code


def _missing_rows(node: Node, split: Split, data: TrainingSet, rules: SplitRules,
                  rows: np.ndarray, weights: np.ndarray, order: np.ndarray,
                  categories: list, complete: bool) -> tuple[int, np.ndarray]:
    """The number of branches of ``node``'s split and, for each of its rows, where the row
    goes if its tested value is missing (:func:`dtree.tree.branches` at fit): to every
    branch (SPREAD), to a branch of their own (``missing_branch``), by CART's surrogates
    (found here) else the majority side, or by the side ``missing="learn"`` chose; none
    if the training data are ``complete`` (no value missing: partition asks for none)."""
    n_branches = 2 if node.category_sets is None else len(node.category_sets)
    sent = np.full(0 if complete else len(rows), SPREAD)
    if rules.missing_branch or rules.max_surrogates is not None:
        missing = np.isnan(data.X[rows, split.feature])
        any_missing = bool(missing.any())
        if rules.missing_branch and any_missing:
            node.missing_branch, n_branches = n_branches, n_branches + 1
        if rules.max_surrogates is not None:
            _surrogates(node, data, rows, weights, order, categories, rules.max_surrogates)
        if any_missing:  # CART: a row no surrogate places, at a majority tie, stays here
            sent[missing] = branches(node, data.X, rows[missing],
                                     "distribute" if rules.missing_branch else "stop",
                                     at_fit=True)
    if rules.learn_missing and split.missing_left is not None:
        node.missing_side = 0 if split.missing_left else 1
        sent[:] = node.missing_side
    return n_branches, sent


class _Agenda:
    """The nodes still to be examined, and how they wait: the engine beside :func:`grow`.

    Depth first (no ``max_leaf_nodes``) the agenda is a stack; a node is examined when it is
    taken, and a node of at most ``SUBTREE_ROWS`` rows is grown with its whole subtree by
    one call to the compiled :func:`grow_subtree` where the configuration allows
    (:func:`_subtrees_compiled`), which applies the same rules with the same kernels. Best
    first, it is a heap of nodes examined when they are added, by their split's weighted
    decrease (then age), and once the tree has ``max_leaf_nodes`` leaves the nodes still
    waiting become leaves. A child that waits for its siblings' subtrees holds copies of its
    rows, so that its parent's arrays are freed, and in a large tree without missing values
    it waits without its sorted rows, sorted again when its turn comes (:func:`_resort_from`).
    """

    def __init__(self, X: np.ndarray, features: list[Feature], y: np.ndarray, n_classes: int,
                 sample_weight: np.ndarray, rules: SplitRules, stopping: StoppingRules,
                 priority: np.ndarray) -> None:
        rows = np.flatnonzero(sample_weight > 0)
        weights = np.ascontiguousarray(  # only read: no copy if every row is kept
            sample_weight if len(rows) == len(sample_weight) else sample_weight[rows], float)
        if rules.learn_missing:
            _refuse_missing_categories(X, rows, features)
        self.data = data = TrainingSet.of(X, features, y, n_classes,
                                          total_weight=float(weights.sum()))
        self.rules, self.stopping, self.priority = rules, stopping, priority
        self.impurity = kernels.IMPURITY_CODES[SCORES[rules.criterion]]
        order = data.sorted_rows(rows)
        stats, total, impurity_of, pure = compiled(kernels.node_statistics)(
            data.y, n_classes, self.impurity, rows, weights)
        prediction = _predictions(stats[None], np.array([total]), n_classes)[0]
        if self.impurity == kernels.ABSOLUTE_ERROR:
            prediction = _medians(data.y, rows, weights, np.array([0, len(rows)]))[0]
        self.root = _make_node(stats, prediction, float(total), float(impurity_of), len(rows),
                               0, n_classes)
        self.shared: dict[int, tuple] = {}  # per feature: what every node testing it shares
        self.rank = priority.tolist()  # plain lists and numbers in the per-node work
        self.categories = [f.categories if f.is_categorical else None for f in features]
        self.draw = None if rules.max_features is None else np.random.RandomState(rules.seed)
        self.best_first = stopping.max_leaf_nodes is not None
        self.n_leaves, self.age, self.work = 1, itertools.count(), []
        self.complete = not any(np.isnan(column).any() for column in data.X.T)  # none missing
        self.resort_from = _resort_from(len(rows), len(order), self.best_first, self.complete)
        width = (len(features) + int(data.n_categories.max(initial=0))
                 + n_statistics(n_classes))
        self.compiled_below = (min(SUBTREE_ROWS, SUBTREE_ENTRIES // max(width, 1))
                               if _subtrees_compiled(rules, stopping) else 0)
        self._add(self.root, rows, weights, order, pure, np.arange(len(features)))

    def _choose(self, node, rows, weights, order, pure, available):
        return _stop_or_split(node, rows, weights, order, pure, available, self.data,
                              self.rules, self.stopping, self.rank, self.draw)

    def _add(self, node, rows, weights, order, pure, available) -> None:
        if not self.best_first:
            self.work.append((node, rows, weights, order, pure, available))
            return
        chosen = self._choose(node, rows, weights, order, pure, available)
        if chosen is not None:
            split, gain = chosen
            decrease = gain * node.weighted_n_samples / self.data.total_weight
            heapq.heappush(self.work, (-decrease, next(self.age),
                                       (node, rows, weights, order, available, split)))

    def next_split(self) -> tuple | None:
        """The next node to split, as (node, rows, weights, sorted rows, available
        attributes, split); None when no node is left."""
        work, stopping = self.work, self.stopping
        while work:
            if self.best_first:
                node, rows, weights, order, available, split = heapq.heappop(work)[-1]
                if self.n_leaves >= stopping.max_leaf_nodes:
                    node.stop_reason = "max_leaf_nodes"
                    continue
                return node, rows, weights, order, available, split
            node, rows, weights, order, pure, available = work.pop()
            if order is None and not pure:  # it waited without its sorted rows
                order = self.data.sorted_rows(rows)
            if len(rows) <= self.compiled_below and not pure:
                _grow_compiled(node, rows, weights, order, pure, available, self.data,
                               self.rules, stopping, self.priority, self.categories,
                               self.shared)
                continue
            chosen = self._choose(node, rows, weights, order, pure, available)
            if chosen is not None:
                return node, rows, weights, order, available, chosen[0]
        return None

    def add_children(self, node: Node, handed: tuple, n_sorted: int,
                     available: np.ndarray) -> None:
        """Make ``node``'s children from what :func:`dtree.kernels.partition` returned
        (``handed``; ``n_sorted`` numeric columns in its sorted rows), and add those that
        training rows reach, with the attributes still ``available``."""
        (child_rows, child_weights, start, stats, total, impurities, pure, fractions,
         child_order) = handed
        n_classes = self.data.n_classes
        node.branch_fractions = fractions.copy()  # numpy's own: less than the kernel's array
        predictions = _predictions(stats, total, n_classes)
        if self.impurity == kernels.ABSOLUTE_ERROR:
            predictions = _medians(self.data.y, child_rows, child_weights, start)
        start = start.tolist()
        children = _add_rows(node, stats, predictions, total, impurities, np.diff(start),
                             n_classes)
        for b, (child, is_pure) in enumerate(zip(children, pure.tolist())):
            first, last = start[b], start[b + 1]
            if child.stop_reason == "empty":
                continue
            waits = b < len(start) - 2
            own_rows, own_weights = child_rows[first:last], child_weights[first:last]
            own_order = (None if waits and (is_pure or last - first >= self.resort_from) else
                         child_order[n_sorted * first:n_sorted * last].reshape(
                             n_sorted, last - first))
            if waits:  # with copies, this node's arrays are freed once the next child is done
                own_rows, own_weights = own_rows.copy(), own_weights.copy()
                own_order = None if own_order is None else own_order.copy()
            self._add(child, own_rows, own_weights, own_order, is_pure, available)
        self.n_leaves += len(children) - 1


def _subtrees_compiled(rules: SplitRules, stopping: StoppingRules) -> bool:
    """Whether :func:`grow_subtree` may grow the small subtrees: splits by a criterion of
    class counts or sums (not the absolute error) or by the gain ratio, with ``gain_filter``
    "average" or None, J48's rules not, a row whose tested value is missing sent by the
    surrogates or to every branch, every attribute scored at every node, depth first.
    Every rule that grow_subtree does not read has its default value (so a rule added later
    keeps the generic grower until grow_subtree reads it)."""
    read = (SplitRules(rules.criterion, rules.gain_filter if rules.gain_filter == "average"
                       else None, min_samples_leaf=rules.min_samples_leaf, binary=rules.binary,
                       max_surrogates=rules.max_surrogates,
                       discount_missing=rules.discount_missing, seed=rules.seed),
            StoppingRules(stopping.max_depth, stopping.min_samples_split,
                          stopping.min_impurity_decrease, stopping.purity_threshold,
                          stopping.weighted_decrease))
    return (rules, stopping) == read and rules.criterion != "absolute_error"


def _grow_compiled(node: Node, rows: np.ndarray, weights: np.ndarray, order: np.ndarray,
                   pure: bool, available: np.ndarray, data: TrainingSet, rules: SplitRules,
                   stopping: StoppingRules, priority: np.ndarray, categories: list,
                   shared: dict) -> None:
    """Grow ``node``'s subtree by one call to :func:`grow_subtree` (compiled, :mod:`dtree.jit`)
    and write its nodes into ``node``'s table, as :func:`grow` would have made them one by
    one. ``categories[j]``:
    column j's category labels (None for a numeric column); ``shared``, as
    :func:`_attach_split` keeps it."""
    n_classes, names = data.n_classes, data.names
    top = float(node.prediction.max()) if n_classes else 0.0
    search = compiled(grow_subtree)
    (child, n_samples, depth, weight, impurity, stats, reason, feature, threshold, sides, scores,
     gains, tied, shortlist, fractions, majority, n_surrogates, surrogate_feature, agreement,
     adjusted, cut, lower_right, surrogate_sides) = search(
        data.X, data.y, n_classes, kernels.IMPURITY_CODES[SCORES[rules.criterion]],
        np.ascontiguousarray(rows, dtype=np.int64), np.ascontiguousarray(weights, dtype=float),
        np.ascontiguousarray(order), bool(pure), node.depth, node.weighted_n_samples, top,
        available, data.n_categories, data.slot, priority, rules.min_samples_leaf,
        rules.discount_missing, -1 if stopping.max_depth is None else stopping.max_depth,
        stopping.min_samples_split, float(stopping.purity_threshold),
        float(stopping.min_impurity_decrease), stopping.weighted_decrease, data.total_weight,
        -1 if rules.max_surrogates is None else rules.max_surrogates,
        rules.criterion == "gain_ratio", rules.gain_filter == "average", rules.binary)
    # the nodes below, new rows of the table (node k >= 1 of the subtree at base + k), written
    # column by column, as grow would have made them one by one; children stay consecutive
    table, m = node._table, len(child)
    base = table.add(m - 1) - 1
    place = np.arange(m) + base
    place[0] = node._row
    below = slice(base + 1, base + m)
    predictions = _predictions(stats[1:], weight[1:], n_classes)
    table.value[below] = stats[1:] if n_classes else predictions
    table.prediction[below] = predictions
    table.n_samples[below], table.weighted_n_samples[below] = n_samples[1:], weight[1:]
    table.impurity[below], table.depth[below] = impurity[1:], depth[1:]
    stopped = np.flatnonzero(reason > 0)
    _scatter(table.stop_reason, place[stopped],
             [SUBTREE_REASONS[code] for code in reason[stopped].tolist()])
    # every candidate's score kept, as _stop_or_split keeps it (a node that
    # choose_split stopped for its decrease too)
    scored = np.flatnonzero((reason == 0) | (reason == MIN_IMPURITY_DECREASE))
    # the kernel's rows, NaN for no candidate; the gains where they differ from the scores
    kept, at = scores[scored], place[scored]
    own = np.flatnonzero(((kept != gains[scored]) & ~np.isnan(kept)).any(axis=1))
    _scatter(table.names, at, itertools.repeat(names))
    table.scores.put(at, kept)
    table.gains.put(at[own], gains[scored[own]])
    if rules.gain_filter is not None:
        _scatter(table.shortlist, at, _named_sets(names, shortlist[scored]))
    many = scored[tied[scored].sum(axis=1) > 1]  # the tied attributes' names
    _scatter(table.ties, place[many], _named_sets(names, tied[many]))
    split = np.flatnonzero(reason == 0)
    first, tested, at = child[split], feature[split], place[split]
    n_codes = data.n_categories[tested]
    multiway = (n_codes > 0) & (not rules.binary)
    width = np.where(multiway, n_codes, 2)
    table.first_child[at], table.n_children[at] = place[first], width
    table.feature_index[at] = tested
    table.threshold[at[n_codes == 0]] = threshold[split][n_codes == 0]
    _scatter(table.feature, at, [names[j] for j in tested.tolist()])
    _scatter(table.score, at, scores[split, tested].tolist())
    shares = fractions[split]
    table.branch_fractions.put(at, shares[:, :2] if (width == 2).all() else
                               [row[:ways] for row, ways in zip(shares, width.tolist())])
    coded = np.flatnonzero(n_codes)
    for r, k, j, codes in zip(at[coded].tolist(), split[coded].tolist(),
                              tested[coded].tolist(), n_codes[coded].tolist()):
        if not rules.binary:
            if j not in shared:
                shared[j] = _one_branch_each(categories[j])
            table.category_sets[r], table.branch_of_code[r] = shared[j]
        else:
            table.category_sets[r], table.branch_of_code[r] = _bipartition(
                categories[j], sides[k, :codes].tolist())
    empty = np.flatnonzero(reason == EMPTY)  # only multiway splits leave branches empty
    if len(empty):  # an empty node predicts like its parent
        parent = np.zeros(m, np.int64)
        parent[_child_places(first, width)] = np.repeat(split, width)
        _like_parents(table, place[empty].tolist(), place[parent[empty]].tolist(), n_classes)
    if rules.max_surrogates is None:
        return
    left, right = n_samples[first], n_samples[first + 1]
    table.majority_branch[at] = majority[split]
    table.larger_branch[at] = np.where(left > right, 0, np.where(right > left, 1, -1))
    # the surrogates' fields, node after node, as Surrogate would hold them
    counts = n_surrogates[split]
    owner, j = np.nonzero(np.arange(surrogate_feature.shape[1]) < counts[:, None])
    k = split[owner]  # surrogate j of subtree node k
    f = surrogate_feature[k, j]
    numeric = data.n_categories[f] == 0
    sets, codes = _objects([None] * len(f)), _objects([None] * len(f))
    for i in np.flatnonzero(~numeric).tolist():
        sets[i], codes[i] = _category_sides(data, categories, f[i], surrogate_sides[k[i], j[i]])
    table.surrogates.write(at[counts > 0], dict(
        feature=_objects(names)[f], feature_index=f, agreement=agreement[k, j],
        adjusted_agreement=adjusted[k, j], threshold=np.where(numeric, cut[k, j], np.nan),
        reverse=numeric & lower_right[k, j], category_sets=sets, branch_of_code=codes),
        counts[counts > 0])


def _scatter(column: list, rows: np.ndarray, values: Iterable) -> None:
    """Write ``values`` into the ragged ``column`` of a table at ``rows``."""
    for row, value in zip(rows.tolist(), values):
        column[row] = value


def _named_sets(names: tuple[str, ...], flags: np.ndarray) -> list[tuple[str, ...]]:
    """Per row of the boolean matrix ``flags``, the ``names`` whose flag is set; rows alike
    share one tuple (small nodes repeat a few sets)."""
    if not len(flags):
        return []
    kinds, which = np.unique(flags, axis=0, return_inverse=True)
    named = [tuple(itertools.compress(names, row)) for row in kinds.tolist()]
    return [named[i] for i in which.ravel().tolist()]


@kernel
def grow_subtree(X, y, n_classes, impurity, rows, w, order, pure, depth, weight0, top0,
                 attrs, n_categories, slot, priority, min_leaf, discount, max_depth,
                 min_samples_split, purity_threshold, min_impurity_decrease,
                 weighted_decrease, total_weight, max_surrogates, by_ratio, average_filter,
                 binary):
    """:func:`grow` for a node's whole subtree in one call (see :func:`_subtrees_compiled`
    for the configurations), the same rules in the same order: each node stops by the first
    stopping rule that applies (``max_depth`` -1 for none; :func:`first_stop`), else the
    allowed attributes of :func:`dtree.kernels.score_attributes` (by Gain / IV if
    ``by_ratio``) compete as :func:`choose_split` lets them (the average-gain filter if
    ``average_filter``, ties to the lowest ``priority``, ``min_impurity_decrease``), the
    functions :func:`_stop_or_split` calls; a node that is split has its surrogates searched
    (``max_surrogates`` -1 for none) and its rows handed down by
    :func:`dtree.kernels.partition`, a row whose tested value is missing as
    :func:`dtree.tree.branches` sends it at fit: by the surrogates, or without them to every
    branch. A categorical attribute splits in two if ``binary``, else into one branch per
    category, and is then no longer available below. ``pure``, ``depth``, ``weight0`` and
    ``top0`` (the largest class share) describe the node itself.

    Returns arrays over the subtree's nodes, the node first and a node's children numbered
    consecutively: the first child (-1 for a leaf), rows, depth, weight, impurity and
    statistics, the stop reason (a code of ``SUBTREE_REASONS``), the feature (-1 for a leaf),
    threshold (NaN for categories) and each category code's side (-1 for none), every
    attribute's score and gain (NaN where it is no candidate or the node was not scored), the
    tied attributes, those that competed on score, the branch fractions, the majority side
    (-1 for none), and per node its surrogates' number, features, agreements, adjusted
    agreements, thresholds, whether reversed and category codes' sides."""
    # room for a node per 4 rows, enough for most classification trees, doubled when full
    # (a regression tree grown out has 2 n - 1 nodes for n rows): the arrays below are
    # mostly per node and attribute, several MB for 2,048 rows if sized for the most
    cap = 1 + len(rows) // 4
    n_features, most = X.shape[1], max(max_surrogates, 1)
    n_codes = max(1, n_categories.max())
    n_ways = 2 if binary else max(2, n_codes)
    child = np.full(cap, -1, np.int64)
    n_samples, node_depth = np.zeros(cap, np.int64), np.zeros(cap, np.int64)
    weight, impurity_of, top = np.zeros(cap), np.zeros(cap), np.zeros(cap)
    stats = np.zeros((cap, n_statistics(n_classes)))
    reason, feature = np.zeros(cap, np.int64), np.full(cap, -1, np.int64)
    threshold, sides = np.full(cap, np.nan), np.full((cap, n_codes), -1, np.int64)
    scores, gains = np.full((cap, n_features), np.nan), np.full((cap, n_features), np.nan)
    tied, shortlist = np.zeros((cap, n_features), np.bool_), np.zeros((cap, n_features), np.bool_)
    fractions, majority = np.zeros((cap, n_ways)), np.full(cap, -1, np.int64)
    n_surrogates = np.zeros(cap, np.int64)
    surrogate_feature = np.zeros((cap, most), np.int64)
    agreement, adjusted = np.zeros((cap, most)), np.zeros((cap, most))
    cut, lower_right = np.zeros((cap, most)), np.zeros((cap, most), np.bool_)
    surrogate_sides = np.full((cap, most, n_codes), -1, np.int8)
    n_samples[0], node_depth[0], weight[0], top[0] = len(rows), depth, weight0, top0
    stack = [(0, rows, w, order, pure, attrs)]
    n_nodes = 1
    while len(stack) > 0:
        k, r, wk, ok, is_pure, available = stack.pop()
        reason[k] = first_stop(is_pure, node_depth[k], len(r), top[k], len(available),
                               max_depth, min_samples_split, purity_threshold)
        if reason[k] > 0:
            continue
        gain, iv, at, n_branches, allowed, split_sides, missing_left = score_attributes(
            X, y, n_classes, impurity, r, wk, ok, available, n_categories, slot, False,
            min_leaf, False, False, binary, discount, False, 0.0)
        candidate, n_candidates, blocked = np.empty(len(available), np.int64), 0, False
        for a in range(len(available)):
            if allowed[a]:
                gains[k, available[a]] = gain[a]
                scores[k, available[a]] = (gain[a] / iv[a] if iv[a] > 0 else 0.0) \
                    if by_ratio else gain[a]
                candidate[n_candidates] = a
                n_candidates += 1
            elif n_branches[a] >= 2:
                blocked = True
        if n_candidates == 0:
            reason[k] = MIN_SAMPLES_LEAF if blocked else NO_SPLIT
            continue
        candidate = candidate[:n_candidates]  # positions in available
        tested = available[candidate]
        reason[k], chosen, competing, tie = choose_split(
            tested, gains[k][tested], scores[k][tested], priority, n_categories, len(y),
            average_filter, False, weight[k] / total_weight if weighted_decrease else 1.0,
            min_impurity_decrease)
        for c in range(n_candidates):
            shortlist[k, tested[c]], tied[k, tested[c]] = competing[c], tie[c]
        if reason[k] > 0:
            continue
        chosen = candidate[chosen]
        j = available[chosen]
        feature[k], threshold[k] = j, at[chosen]
        multiway = n_categories[j] > 0 and not binary
        for c in range(n_categories[j]):
            sides[k, c] = c if multiway else split_sides[chosen, c]
        width = n_categories[j] if multiway else 2
        below = available[available != j] if multiway else available
        sent = np.full(len(r), SPREAD, np.int64)  # a row whose tested value is missing goes
        if max_surrogates >= 0:  # to every branch, or with surrogates as they place it
            majority[k], ranked, agree, adjust, surrogate_cut, reverse, codes = (
                _node_surrogates(X, n_categories, slot, r, wk, ok, j, threshold[k], sides[k],
                                 max_surrogates))
            n_surrogates[k] = len(ranked)
            table = np.empty((len(ranked), 3), np.int64)  # as dtree.routing reads them
            for s in range(len(ranked)):
                surrogate_feature[k, s] = ranked[s]
                agreement[k, s], adjusted[k, s] = agree[ranked[s]], adjust[ranked[s]]
                cut[k, s], lower_right[k, s] = surrogate_cut[ranked[s]], reverse[ranked[s]]
                for c in range(n_categories[ranked[s]]):
                    surrogate_sides[k, s, c] = codes[ranked[s], c]
                table[s, 0], table[s, 1], table[s, 2] = ranked[s], reverse[ranked[s]], s * n_codes
            runs = np.zeros((1, 2), np.int64)
            runs[0, 1] = len(ranked)
            for i in range(len(r)):  # the routing rule, this node alone: the surrogates,
                if math.isnan(X[r[i], j]):  # else the majority side, else nowhere
                    sent[i] = route_missing(X, r[i], 0, surrogate_sides[k].reshape(-1), runs,
                                            table, cut[k], majority[k:k + 1], STAY)
        (child_rows, child_w, start, child_stats, child_weight, child_impurity, child_pure,
         shares, child_order) = partition(
            X[:, j], threshold[k], sides[k], width, sent, y, n_classes, impurity, r, wk, ok)
        if n_nodes + width > cap:
            cap = 2 * (n_nodes + width)
            child, n_samples, node_depth, reason, feature, majority, n_surrogates = (
                _enlarged(child, cap, -1), _enlarged(n_samples, cap, 0),
                _enlarged(node_depth, cap, 0), _enlarged(reason, cap, 0),
                _enlarged(feature, cap, -1), _enlarged(majority, cap, -1),
                _enlarged(n_surrogates, cap, 0))
            weight, impurity_of, top, threshold, stats, fractions = (
                _enlarged(weight, cap, 0.0), _enlarged(impurity_of, cap, 0.0),
                _enlarged(top, cap, 0.0), _enlarged(threshold, cap, np.nan),
                _enlarged(stats, cap, 0.0), _enlarged(fractions, cap, 0.0))
            sides, scores, gains = (_enlarged(sides, cap, -1), _enlarged(scores, cap, np.nan),
                                    _enlarged(gains, cap, np.nan))
            tied, shortlist = _enlarged(tied, cap, False), _enlarged(shortlist, cap, False)
            surrogate_feature, agreement, adjusted, cut, lower_right, surrogate_sides = (
                _enlarged(surrogate_feature, cap, 0), _enlarged(agreement, cap, 0.0),
                _enlarged(adjusted, cap, 0.0), _enlarged(cut, cap, 0.0),
                _enlarged(lower_right, cap, False), _enlarged(surrogate_sides, cap, -1))
        fractions[k, :width] = shares
        child[k] = n_nodes
        n_sorted = ok.shape[0]
        for b in range(width):
            c, first, last = n_nodes + b, start[b], start[b + 1]
            n_samples[c], node_depth[c] = last - first, node_depth[k] + 1
            weight[c], impurity_of[c] = child_weight[b], child_impurity[b]
            stats[c] = child_stats[b]
            if last == first:  # no training row reached it
                reason[c] = EMPTY
                continue
            if n_classes > 0:
                top[c] = (child_stats[b] / child_weight[b]).max()
            stack.append((c, child_rows[first:last].copy(), child_w[first:last].copy(),
                          child_order[n_sorted * first:n_sorted * last].copy().reshape(
                              n_sorted, last - first), child_pure[b], below))
        n_nodes += width
    return (child[:n_nodes], n_samples[:n_nodes], node_depth[:n_nodes], weight[:n_nodes],
            impurity_of[:n_nodes],
            stats[:n_nodes], reason[:n_nodes], feature[:n_nodes], threshold[:n_nodes],
            sides[:n_nodes], scores[:n_nodes], gains[:n_nodes], tied[:n_nodes],
            shortlist[:n_nodes], fractions[:n_nodes], majority[:n_nodes],
            n_surrogates[:n_nodes], surrogate_feature[:n_nodes], agreement[:n_nodes],
            adjusted[:n_nodes], cut[:n_nodes], lower_right[:n_nodes],
            surrogate_sides[:n_nodes])


@kernel
def _enlarged(a, size, fill):
    """``a`` with room for ``size`` rows, the new ones filled with ``fill`` (concatenated:
    numba compiles this a third as long as filling slices of a new array)."""
    more = np.empty((size - len(a),) + a.shape[1:], a.dtype)
    more[:] = fill
    return np.concatenate((a, more))


def _resort_from(n_rows: int, n_sorted: int, best_first: bool, complete: bool) -> float:
    """How many rows a child that waits for its siblings' subtrees must have to wait without
    its sorted rows, sorting them again when its turn comes (a pure one never needs them):
    an eighth of the rows, so that the orders held meanwhile are a fraction of the root's and
    the sorting done again about as much as the root's. Only where the root's orders
    (``n_sorted`` columns) have more than RESORT_ENTRIES entries (the waiting children's rows
    are disjoint, so they hold less than that meanwhile), without missing values
    (``complete``), where the order carried down is the stable sort of the child's rows
    (sorting gives it again exactly), and depth first (best first, a node's split is chosen
    when it is added)."""
    if best_first or not complete or n_rows * n_sorted <= RESORT_ENTRIES:
        return np.inf
    return n_rows / 8


def _refuse_missing_categories(X: np.ndarray, rows: np.ndarray,
                               features: list[Feature]) -> None:
    """``learn_missing`` learns a side for the missing values of numeric columns only: a
    categorical column with a missing value among ``rows`` is refused (ValueError). Column by
    column: no copy of X."""
    for j, feature in enumerate(features):
        if feature.is_categorical and np.isnan(X[rows, j]).any():
            raise ValueError(
                f"column {feature.name!r} is categorical and has a missing value, but "
                "missing='learn' learns a side for missing values of numeric columns only; "
                "use missing='surrogate', or make the gap a category of its own")


def _medians(y: np.ndarray, rows: np.ndarray, weights: np.ndarray,
             start: np.ndarray) -> np.ndarray:
    """Each node's weighted median target (the prediction that minimises the absolute error);
    node b's rows are ``rows[start[b]:start[b + 1]]``, NaN if it has none."""
    median = compiled(kernels.weighted_median)
    return np.array([[median(y[rows[a:b]], weights[a:b]) if b > a else np.nan]
                     for a, b in zip(start[:-1], start[1:])])


def _predictions(stats: np.ndarray, weight: np.ndarray, n_classes: int) -> np.ndarray:
    """Each node's prediction from its statistics: class shares, or the mean (NaN if empty)."""
    if n_classes == 0:
        share, whole = stats[:, 1:2], stats[:, :1]
    else:
        share, whole = stats, weight[:, None]
    if weight.all():  # numpy's error state is costly to switch; only an empty node needs it
        return share / whole
    with np.errstate(invalid="ignore", divide="ignore"):
        return share / whole


def _make_node(stats: np.ndarray, prediction: np.ndarray, weight: float, impurity: float,
               n_samples: int, depth: int, n_classes: int) -> Node:
    """A root node, the first row of its tree's table; its ``value`` is the weighted class
    counts ``stats`` (or, for regression, the mean)."""
    return Node(value=stats if n_classes else prediction, prediction=prediction,
                n_samples=n_samples, weighted_n_samples=weight, impurity=impurity, depth=depth)


def _add_rows(node: Node, stats: np.ndarray, predictions: np.ndarray, weight: np.ndarray,
              impurity: np.ndarray, n_samples: np.ndarray, n_classes: int) -> list[Node]:
    """``node``'s children, new consecutive rows of its table, from their class counts (or,
    for regression, their means ``predictions``), weights, impurities and rows. A child that
    no training row reaches is empty and predicts like its parent."""
    table, row = node._table, node._row
    count = len(weight)
    first = table.add(count)
    rows = slice(first, first + count)
    table.value[rows] = stats if n_classes else predictions
    table.prediction[rows] = predictions
    table.n_samples[rows], table.weighted_n_samples[rows] = n_samples, weight
    table.impurity[rows], table.depth[rows] = impurity, table.depth[row] + 1
    table.first_child[row], table.n_children[row] = first, count
    empty = (first + np.flatnonzero(weight == 0)).tolist()
    _like_parents(table, empty, [row] * len(empty), n_classes)
    for r in empty:
        table.stop_reason[r] = "empty"
    return [table.node(r) for r in range(first, first + count)]


def _like_parents(table: NodeTable, rows: list[int], parents: list[int], n_classes: int) -> None:
    """Empty nodes (``rows``: no training row reached them) predict as their ``parents`` do:
    they take the parent's prediction, and a regressor's node its value too."""
    for row, parent in zip(rows, parents):
        table.prediction[row] = table.prediction[parent]
        if not n_classes:
            table.value[row] = table.prediction[parent]


# quoted in chapter 2
@kernel
def first_stop(pure, depth, n_rows, top, n_available, max_depth, min_samples_split,
               purity_threshold):
    """The first of the stopping rules that need no split searched which makes a
    node a leaf, as a code of ``SUBTREE_REASONS`` (0: none does): its rows are
    ``pure``; it is at ``max_depth`` (-1 for no limit); it has fewer than
    ``min_samples_split`` rows; its largest class share ``top`` reaches
    ``purity_threshold`` (in (0, 1]; ``top`` is 0 for regression); no attribute is
    left to test."""
    if pure:
        return PURE
    if max_depth >= 0 and depth >= max_depth:
        return MAX_DEPTH
    if n_rows < min_samples_split:
        return MIN_SAMPLES_SPLIT
    if top >= purity_threshold:
        return PURITY_THRESHOLD
    if n_available == 0:
        return NO_ATTRIBUTES
    return 0


@kernel
def choose_split(features, gains, scores, priority, n_categories, n_rows, average_filter,
                 j48, share, min_impurity_decrease):
    """Which of a node's candidate splits is made: C4.5's choice, which both growers make
    here. The candidates test the columns ``features`` with these ``gains`` and ``scores``;
    returns (stop reason, a code of ``SUBTREE_REASONS``, 0 for none; the chosen candidate,
    -1 for none; which candidates competed; which tied).

    With ``average_filter`` only the candidates whose gain is at least the average gain
    compete, up to round-off (:func:`dtree.tree.ties`; Quinlan 1993; Zhou 2016, p. 78).
    The largest score wins; of those that tie with it, the one of lowest ``priority``
    (of a column). The winner's gain times ``share`` (W_t / W, the node's share of the
    training weight, for a weighted decrease, else 1) must reach
    ``min_impurity_decrease``, up to round-off.

    ``j48`` chooses as Weka's J48 (``C45ModelSelection.selectModel``): the average is over
    the attributes with fewer than 0.3 x ``n_rows`` (the training rows) categories
    (``n_categories``, per column; over all of them if no column has so few), a gain at
    most J48_AVERAGE_GAIN_SLACK below the average competes, and the winner's score must
    exceed WEKA_SMALL, else the node is a leaf ("no_gain")."""
    n = len(gains)
    shortlist, tied = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
    counted = np.ones(n, np.bool_)  # the candidates the average is over
    if j48:
        few, some = 0.3 * n_rows - WEKA_SMALL, False  # Weka's Utils.sm(categories, 0.3 n)
        for j in range(len(n_categories)):
            some = some or n_categories[j] < few
        for k in range(n):
            counted[k] = not some or n_categories[features[k]] < few
    total, n_counted = 0.0, 0
    for k in range(n):
        shortlist[k] = not average_filter
        if counted[k]:
            total, n_counted = total + gains[k], n_counted + 1
    if average_filter and n_counted > 0:
        average = total / n_counted
        for k in range(n):
            shortlist[k] = (gains[k] >= average - J48_AVERAGE_GAIN_SLACK if j48
                            else ties(gains[k], average))
    best = -np.inf
    for k in range(n):
        if shortlist[k]:
            best = max(best, scores[k])
    if j48 and best <= WEKA_SMALL:
        return NO_GAIN, -1, shortlist, tied
    chosen = -1
    for k in range(n):
        if shortlist[k] and ties(scores[k], best):
            tied[k] = True
            if chosen < 0 or priority[features[k]] < priority[features[chosen]]:
                chosen = k
    if not ties(gains[chosen] * share, min_impurity_decrease):
        return MIN_IMPURITY_DECREASE, chosen, shortlist, tied
    return 0, chosen, shortlist, tied


# quoted in chapter 2
def _stop_or_split(node, rows, weights, order, pure, available, data, rules, stopping,
                   priority: list[int], draw: np.random.RandomState | None
                   ) -> tuple[Split, float] | None:
    """Apply the stopping rules in order; return the chosen split and its gain, or None
    for a leaf.

    ``rows`` and ``weights`` are the node's training rows (``order``: sorted by
    each numeric column), ``pure`` says whether they all have the same target,
    ``available`` lists the attributes that may still be tested; ``draw`` draws them at
    random for ``rules.max_features`` (None: all are scored).
    """
    top = node.prediction.max() if data.n_classes else 0.0
    reason = first_stop(pure, node.depth, node.n_samples, top, len(available),
                        -1 if stopping.max_depth is None else stopping.max_depth,
                        stopping.min_samples_split, stopping.purity_threshold)
    if reason:
        node.stop_reason = SUBTREE_REASONS[reason]
        return None
    found, blocked, penalised = _candidates(rows, weights, order, available, data,
                                            rules, draw)
    if not found.scores:
        node.stop_reason = blocked or ("no_gain" if penalised else "no_split")
        return None
    node.record_scores(data.names, found.features, found.scores, found.gains)
    share = (node.weighted_n_samples / data.total_weight if stopping.weighted_decrease
             else 1.0)  # of the training weight, if the decrease is weighted
    reason, chosen, shortlist, tied = choose_split(
        found.features, found.gains, found.scores, priority, data.n_categories,
        len(data.y), rules.gain_filter is not None, rules.j48, share,
        stopping.min_impurity_decrease)
    if rules.gain_filter is not None:
        node.shortlist = tuple(itertools.compress(found.names, shortlist))
    if tied.sum() > 1:
        node.ties = tuple(itertools.compress(found.names, tied))
    if reason:
        node.stop_reason = SUBTREE_REASONS[reason]
        return None
    return found.split(chosen), found.gains[chosen]


def _candidates(rows, weights, order, available, data, rules, draw
                ) -> tuple[Candidates, str | None, bool]:
    """The candidate splits of a node (:func:`dtree.splits.candidate_splits`) on all the
    ``available`` attributes or, with ``rules.max_features`` fewer than them, on that many drawn
    at random, then on the others one at a time (in the drawn order) until one splits the
    node, as scikit-learn does; the rule that blocked a scored attribute which would split the
    node (None for none): ``min_samples_leaf``, or if no candidate is left and the attributes
    split the node without the weight rule, ``min_weight_fraction_leaf``; and whether one
    gained nothing under J48's penalty."""
    def score(attributes, min_weight=rules.min_weight_fraction_leaf * data.total_weight):
        return candidate_splits(data, rows, weights, order, attributes, rules.criterion,
                                min_leaf=rules.min_samples_leaf, j48=rules.j48,
                                missing_branch=rules.missing_branch, binary=rules.binary,
                                discount_missing=rules.discount_missing,
                                learn=rules.learn_missing, min_weight=min_weight)

    if draw is None or rules.max_features >= len(available):
        found = score(available)
        blocked, penalised = bool(found.blocked), bool(found.penalised)
    else:
        drawn, k = draw.permutation(available), rules.max_features
        found = score(drawn[:k])
        blocked, penalised = bool(found.blocked), bool(found.penalised)
        while not found.scores and k < len(drawn):
            found, k = score(drawn[k:k + 1]), k + 1
            blocked = blocked or bool(found.blocked)
            penalised = penalised or bool(found.penalised)
    if not blocked:
        return found, None, penalised
    if not found.scores and rules.min_weight_fraction_leaf > 0 and score(available, 0.0).scores:
        return found, "min_weight_fraction_leaf", penalised  # (every attribute was scored)
    return found, "min_samples_leaf", penalised


def _surrogates(node: Node, data: TrainingSet, rows: np.ndarray, weights: np.ndarray,
                order: np.ndarray, categories: list, max_surrogates: int) -> None:
    """CART's surrogate splits of a binary split (:mod:`dtree.surrogates`), stored on the node,
    best first, with the primary's majority branch (None on a tie: rpart has no default way).
    ``categories[j]``: column j's category labels (None for a numeric column)."""
    majority, ranked, agreement, adjusted, cut, reverse, codes = compiled(_node_surrogates)(
        data.X, data.n_categories, data.slot, rows, weights, order, node.feature_index,
        _threshold(node), _codes(node), max_surrogates)
    node.surrogates = tuple([_surrogate(data, categories, j, agreement[j], adjusted[j], cut[j],
                                        reverse[j], codes[j]) for j in ranked.tolist()])
    node.majority_branch = None if majority < 0 else majority


def _attach_split(node: Node, split: Split, features: list[Feature], shared: dict) -> None:
    feature = features[split.feature]
    node.feature, node.feature_index = feature.name, split.feature
    node.score = split.score
    node.threshold = split.threshold
    if split.sides is not None:
        node.category_sets, node.branch_of_code = _bipartition(feature.categories, split.sides)
    elif split.is_multiway:
        # each category its own branch; built once per feature and shared by every node that
        # tests it (both are read-only), so a many-valued column costs time linear in its size
        if split.feature not in shared:
            shared[split.feature] = _one_branch_each(feature.categories)
        node.category_sets, node.branch_of_code = shared[split.feature]


def _one_branch_each(categories) -> tuple[tuple[frozenset, ...], np.ndarray]:
    """A multiway split's category sets, one category each, and its map from category code
    to branch (the identity)."""
    return tuple(frozenset((c,)) for c in categories), np.arange(len(categories))


def _bipartition(categories, sides) -> tuple[tuple[frozenset, frozenset], np.ndarray]:
    """A bipartition's category sets (categories sent left, categories sent right) and its
    map from category code to branch, from each code's side (0, 1; -1 for neither)."""
    return (tuple(frozenset(c for c, side in zip(categories, sides) if side == b)
                  for b in (0, 1)), np.array(sides, dtype=np.int64))


def _collapse(root: Node) -> None:
    """Weka J48's subtree collapsing, in place: from the root down, a node whose subtree
    misclassifies at least as much training weight as the node would alone (less 1e-3) becomes
    a leaf. A node's errors are :attr:`Node.training_errors`."""
    subtree_errors = {}
    for node in reversed(list(root.walk())):  # children before parents
        subtree_errors[id(node)] = (node.training_errors if node.is_leaf else
                                    sum(subtree_errors[id(c)] for c in node.children))
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_leaf:
            continue
        if subtree_errors[id(node)] >= node.training_errors - J48_COLLAPSE_SLACK:
            make_leaf(node, "collapsed")
        else:
            stack.extend(node.children)

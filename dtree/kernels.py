"""The grower's kernels: plain loops over the rows of a node.

Each kernel reads like the step of the algorithm it performs. numba compiles it once per
installation and caches the machine code (:mod:`dtree.jit`); with ``NUMBA_DISABLE_JIT=1`` it runs
as the plain Python it is, so a reader can step through it in a debugger.

A node's *statistics* are its weighted class counts (``n_classes > 0``) or, for regression
(``n_classes == 0``), ``[sum w, sum w*y, sum w*y^2]``. The kernels work with the *weighted
impurity* W*I(D), the weight of the rows times their impurity, because it adds up over the
branches of a split. With D~ the rows whose tested value is known, the gain of a split is

    Gain = (W I(D~) - sum_v W_v I(D~_v)) / W(D) = rho * (I(D~) - sum_v r~_v I(D~_v)),

Zhou (2016), eq. 4.12, where rho = W(D~) / W(D) and r~_v = W_v / W(D~). Every row that reaches a
kernel has a positive weight (the grower leaves out rows of weight zero).
"""
from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .routing import SPREAD, branch_of, route_missing
from .tolerances import MEDIAN_RTOL, WEKA_SMALL

ENTROPY, GINI, SQUARED_ERROR, ABSOLUTE_ERROR = 0, 1, 2, 3
#: impurity name -> the code the kernels take
IMPURITY_CODES = {"entropy": ENTROPY, "gini": GINI, "squared_error": SQUARED_ERROR,
                  "absolute_error": ABSOLUTE_ERROR}


# ------------------------------------------------------------------------------ statistics
@kernel
def n_statistics(n_classes):
    """Length of a statistics vector: one count per class, or [W, S1, S2] for regression."""
    return n_classes if n_classes > 0 else 3


@kernel
def add_row(stats, y, w, n_classes):
    """Add a row with target ``y`` (a class code, or a number) and weight ``w`` to ``stats``."""
    if n_classes > 0:
        stats[int(y)] += w
    else:
        stats[0] += w
        stats[1] += w * y
        stats[2] += w * y * y


@kernel(inline=True)
def ordered_sum(values):
    """The sum of ``values``, added one at a time from the first, as numba's ``sum`` adds
    them. numpy's ``sum`` adds eight values or more pairwise, which rounds otherwise: the
    kernels add with this, so that run as plain Python (``NUMBA_DISABLE_JIT=1``) they give
    the compiled results to the last bit."""
    acc = 0.0
    for v in values:
        acc += v
    return acc


@kernel
def weight_of(stats, n_classes):
    """Total weight W behind the statistics."""
    return ordered_sum(stats) if n_classes > 0 else stats[0]


@kernel
def weighted_impurity(stats, impurity):
    """W * I(D) from the statistics: W Ent = -sum_k c_k log2(c_k / W) (entropy, in bits);
    W Gini = W - sum_k c_k^2 / W; W * variance = S2 - S1^2 / W (squared error)."""
    if impurity == SQUARED_ERROR:
        if stats[0] <= 0:
            return 0.0
        return max(stats[2] - stats[1] * stats[1] / stats[0], 0.0)  # clips round-off below 0
    whole = ordered_sum(stats)
    if whole <= 0:
        return 0.0
    acc = 0.0
    for c in stats:
        if c > 0:
            acc += c * math.log2(c / whole) if impurity == ENTROPY else c * c / whole
    return -acc if impurity == ENTROPY else whole - acc


@kernel
def is_pure(stats, lowest, highest, n_classes):
    """One class only (classification), or one target value only (regression)."""
    if n_classes == 0:
        return lowest == highest
    return np.count_nonzero(stats) <= 1


@kernel
def node_statistics(y, n_classes, impurity, rows, w):
    """One node's weighted statistics (class counts, or [w, wy, wy^2]), their total weight, the
    node's impurity and whether all its rows have the same target."""
    stats = np.zeros(n_statistics(n_classes))
    lowest, highest = np.inf, -np.inf
    for i in range(len(rows)):
        target = y[rows[i]]
        add_row(stats, target, w[i], n_classes)
        lowest, highest = min(lowest, target), max(highest, target)
    weight = weight_of(stats, n_classes)
    spread = (absolute_deviation(y, rows, w) if impurity == ABSOLUTE_ERROR else
              weighted_impurity(stats, impurity))
    impurity_of = spread / weight if weight > 0 else 0.0
    return stats, weight, impurity_of, is_pure(stats, lowest, highest, n_classes)


# ------------------------------------------------------------------------------ absolute error
@kernel
def weighted_median(values, weights):
    """The weighted median: the smallest value whose cumulative weight reaches half the total,
    or the mean of it and the next value if the cumulative weight is exactly half (the middle
    of the two middle values, for equal weights). "Exactly" allows the running sum's round-off,
    1e-9 of the half: weights 0.1 sum to 0.1 + 0.1 + 0.1 > 0.3, and equal weights of any size
    must give the median of the unweighted values."""
    order = np.argsort(values, kind="mergesort")
    half, cumulative = ordered_sum(weights) / 2, 0.0
    slack = MEDIAN_RTOL * half
    for k in range(len(order)):
        cumulative += weights[order[k]]
        if cumulative >= half - slack:
            if cumulative <= half + slack and k + 1 < len(order):
                return (values[order[k]] + values[order[k + 1]]) / 2
            return values[order[k]]
    return np.nan


@kernel
def absolute_deviation(y, rows, w):
    """W * mean absolute error: sum_i w_i |y_i - median|, over ``rows`` with weights ``w``."""
    if len(rows) == 0:
        return 0.0
    values = y[rows]
    m = weighted_median(values, w)
    return ordered_sum(w * np.abs(values - m))


@kernel
def _fenwick_add(tree, i, value):
    i += 1
    while i < len(tree):
        tree[i] += value
        i += i & -i


@kernel
def _fenwick_sum(tree, i):
    """Sum of the first i entries."""
    total = 0.0
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


@kernel
def _fenwick_reach(tree, target):
    """The smallest index whose prefix sum (through it) reaches ``target``."""
    position, step = 0, 1
    while step * 2 < len(tree):
        step *= 2
    while step > 0:
        if position + step < len(tree) and tree[position + step] < target:
            position += step
            target -= tree[position]
        step //= 2
    return position


@kernel
def running_deviations(values, weights):
    """For k = 1..n, the absolute deviation (sum w |y - median|) of the first k values, in
    O(n log n): Fenwick trees over the values' ranks hold the weights and weighted values
    inserted so far, and the median is the rank where half the weight is reached."""
    n = len(values)
    order = np.argsort(values, kind="mergesort")
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n)
    sorted_values = values[order]
    tree_w, tree_wy = np.zeros(n + 1), np.zeros(n + 1)
    out = np.empty(n)
    total_w = total_wy = 0.0
    for k in range(n):
        _fenwick_add(tree_w, rank[k], weights[k])
        _fenwick_add(tree_wy, rank[k], weights[k] * values[k])
        total_w += weights[k]
        total_wy += weights[k] * values[k]
        r = _fenwick_reach(tree_w, total_w / 2)
        m = sorted_values[r]
        below_w, below_wy = _fenwick_sum(tree_w, r + 1), _fenwick_sum(tree_wy, r + 1)
        out[k] = m * below_w - below_wy + (total_wy - below_wy) - m * (total_w - below_w)
    return out


# quoted in chapter 7
@kernel
def absolute_cut_decreases(column, y, rows, w, order, n_known, decrease, left_w):
    """:func:`cut_decreases` for the absolute error, whose W I(D) is
    ``sum_i w_i |y_i - m|``, m the weighted median of D: every side's deviation comes
    from ``running_deviations``, run once from the left and once from the right, so
    the n - 1 cuts cost O(n log n)."""
    known_rows, known_weights = rows[order[:n_known]], w[order[:n_known]]
    left_deviation = running_deviations(y[known_rows], known_weights)
    backwards = known_weights[::-1].copy()  # contiguous: running_deviations' one layout
    right_deviation = running_deviations(y[known_rows[::-1]], backwards)[::-1]
    before = left_deviation[n_known - 1] if n_known > 0 else 0.0
    weight = 0.0
    for k in range(n_known - 1):
        weight += known_weights[k]
        if column[known_rows[k]] == column[known_rows[k + 1]]:
            decrease[k] = np.nan  # no cut between equal values
            continue
        left_w[k] = weight
        decrease[k] = before - (left_deviation[k] + right_deviation[k + 1])


@kernel
def split_information(branch_weights, missing_weight):
    """IV = -sum_v W_v/W log2(W_v/W), the rows with a missing value as one more group (C4.5)."""
    whole = ordered_sum(branch_weights) + missing_weight
    iv = 0.0
    for wv in branch_weights:
        if wv > 0:
            iv -= wv / whole * math.log2(wv / whole)
    if missing_weight > 0:
        iv -= missing_weight / whole * math.log2(missing_weight / whole)
    return iv


@kernel
def midpoint(lower, upper):
    """(lower + upper) / 2 without overflow; ``lower`` where rounding would reach ``upper``."""
    t = lower / 2 + upper / 2
    return t if lower <= t < upper else lower


# ------------------------------------------------------------------------------ split search
@kernel
def score_attributes(X, y, n_classes, impurity, rows, w, order, attrs, n_categories, slot,
                     by_ratio, min_leaf, j48, missing_branch, binary, discount, learn=False,
                     min_weight=0.0):
    """Score the best split of every attribute in ``attrs`` at a node with ``rows`` (weights
    ``w``). ``X[:, j]`` is column j (NaN = missing); ``n_categories[j]`` is its number of
    categories, or 0 for a numeric column, whose rows sorted by value are ``order[slot[j]]``
    (positions in ``rows``, the rows with a missing value last).

    This function composes the pieces; each is a kernel of its own. The textbook rule: a
    categorical attribute splits multiway (:func:`multiway`), a numeric one at the threshold
    ``x <= t`` of highest gain (:func:`cut_decreases`, then :func:`best_cut`; by gain ratio if
    ``by_ratio``), where a split is *allowed* if every branch that receives rows receives at
    least ``min_leaf`` of them, a row with a missing value counting in every branch it enters.
    The variants beside it, per configuration: ``j48``, Weka J48's choice of a cut
    (:func:`j48_best_cut`) and of a multiway split (:func:`j48_allows`); ``missing_branch``,
    the rows with a missing value as a branch of their own (:func:`missing_branch_before`);
    ``discount``, C4.5's discount of the gain by the known fraction (:func:`gain_divisor`);
    the absolute error's cut search (:func:`absolute_cut_decreases`); and ``binary`` (CART),
    a categorical attribute split in two by the best bipartition of its categories
    (:func:`_best_bipartition`); ``learn``, scikit-learn's search that sends the rows with a
    missing value to the better side of each cut (:func:`learned_cut`). Returns, per
    attribute: gain, split information IV and
    threshold (NaN for a categorical split) of the best allowed split, the number of branches
    with weight (-1 if J48's cuts gain nothing after its penalty), whether some split is
    allowed and, for a bipartition, each category code's branch (``sides[a, code]``: 0 left,
    1 right, -1 for a category absent from the node), and (``learn``) whether the rows with a
    missing value go left. ``min_weight`` (CART's ``min_weight_fraction_leaf`` times the
    training weight) is the least weight each side of a binary split must have, counted as
    ``min_leaf`` counts rows.
    """
    n = len(attrs)
    gain, iv = np.zeros(n), np.zeros(n)
    threshold = np.full(n, np.nan)
    n_branches = np.zeros(n, np.int64)
    allowed = np.zeros(n, np.bool_)
    n_stats = n_statistics(n_classes)
    total = np.zeros(n_stats)
    for i in range(len(rows)):
        add_row(total, y[rows[i]], w[i], n_classes)
    W = weight_of(total, n_classes)
    most = 1
    for a in range(n):
        most = max(most, n_categories[attrs[a]])
    table = np.zeros((most, n_stats))  # categorical workspace: statistics per category
    sizes = np.zeros(most, np.int64)  # and rows per category
    sides = np.full((n, most), -1, np.int64)
    missing_left = np.zeros(n, np.bool_)
    decrease, left_w = np.empty(len(rows)), np.empty(len(rows))  # numeric workspace, per cut
    for a in range(n):
        column = X[:, attrs[a]]
        divisor = gain_divisor(column, rows, w, W, discount)
        if n_categories[attrs[a]] > 0 and binary:
            gain[a], n_branches[a], allowed[a] = _best_bipartition(
                column, y, n_classes, impurity, rows, w, n_categories[attrs[a]], table, sizes,
                divisor, min_leaf, sides[a], min_weight)
        elif n_categories[attrs[a]] > 0:
            gain[a], iv[a], n_branches[a], allowed[a] = _categorical(
                column, y, n_classes, impurity, rows, w, n_categories[attrs[a]], table, sizes,
                W, divisor, min_leaf, j48, missing_branch)
        elif learn:
            gain[a], threshold[a], n_branches[a], allowed[a], missing_left[a] = learned_cut(
                column, y, n_classes, impurity, rows, w, order[slot[attrs[a]]], total, W,
                min_leaf, min_weight)
        else:
            gain[a], iv[a], threshold[a], n_branches[a], allowed[a] = _numeric(
                column, y, n_classes, impurity, rows, w, order[slot[attrs[a]]], total, W,
                divisor, min_leaf, by_ratio, j48, missing_branch, not binary, decrease, left_w,
                min_weight)
    return gain, iv, threshold, n_branches, allowed, sides, missing_left


@kernel
def _categorical(column, y, n_classes, impurity, rows, w, n_codes, table, sizes, W, divisor,
                 min_leaf, j48, missing_branch):
    """A categorical attribute's multiway split (:func:`multiway`), with the configuration's
    variants: the rows with a missing value as one more branch, J48's rule for an allowed
    split. Returns gain, IV, branches with weight and whether the split is allowed."""
    known, missing = np.zeros(table.shape[1]), np.zeros(table.shape[1])
    n_missing = category_table(column, y, n_classes, rows, w, n_codes, table, sizes, known,
                               missing)
    branch_weights = np.zeros(n_codes)
    after, n_branches, allowed = multiway(table, sizes, n_codes, n_classes, impurity,
                                          min_leaf, 0 if missing_branch else n_missing,
                                          branch_weights)
    before = weighted_impurity(known, impurity)
    missing_w = W - weight_of(known, n_classes)
    if missing_branch and n_missing > 0:
        before = missing_branch_before(known + missing, missing, impurity)
        n_branches += 1
        allowed = allowed and n_missing >= min_leaf
    if j48:
        branch_m = missing_w if missing_branch and n_missing > 0 else 0.0
        allowed = j48_allows(branch_weights, branch_m, min_leaf)
    gain = max(before - after, 0.0) / divisor
    return (gain, split_information(branch_weights, missing_w), n_branches,
            allowed and n_branches >= 2)


@kernel
def known_first(column, y, n_classes, rows, w, order, missing):
    """The number of rows whose value of ``column`` is known. ``order`` sorts the node's
    ``rows`` by the column with the missing values (NaN) last; their statistics are added
    to ``missing``, the last row first."""
    n_known = len(order)
    while n_known > 0 and math.isnan(column[rows[order[n_known - 1]]]):
        n_known -= 1
        add_row(missing, y[rows[order[n_known]]], w[order[n_known]], n_classes)
    return n_known


@kernel
def _numeric(column, y, n_classes, impurity, rows, w, order, total, W, divisor, min_leaf,
             by_ratio, j48, missing_branch, spread_missing, decrease, left_w, min_weight=0.0):
    """A numeric attribute's best cut: every cut scored (:func:`cut_decreases`, or
    :func:`absolute_cut_decreases`), then the best allowed one chosen (:func:`best_cut`, or
    :func:`j48_best_cut`). A cut needs ``min_leaf`` rows on each side: the rows with a known
    value, and with ``spread_missing`` (C4.5's fractional rows) those with a missing value
    too, which go to both; CART counts the known ones only (rpart's ``minbucket``,
    ``src/anova.c``); with ``missing_branch`` they are a third branch, of ``min_leaf`` rows
    too. Returns the best allowed cut's gain, IV and threshold (the midpoint), the number of
    branches with weight (2 if the known values differ, else 1; -1 if J48's cuts gain
    nothing after its penalty) and whether some cut is allowed."""
    missing = np.zeros(len(total))
    n_known = known_first(column, y, n_classes, rows, w, order, missing)
    known = total - missing
    known_w = weight_of(known, n_classes)
    n_missing = len(order) - n_known
    branch_weights = np.zeros(2)
    if missing_branch and 0 < n_missing < min_leaf:  # their branch would be too small
        return 0.0, _cut_information(0.0, known_w, W, branch_weights), np.nan, 1, False
    if impurity == ABSOLUTE_ERROR:
        absolute_cut_decreases(column, y, rows, w, order, n_known, decrease, left_w)
    else:
        before = (missing_branch_before(total, missing, impurity) if missing_branch else
                  weighted_impurity(known, impurity))
        cut_decreases(column, y, n_classes, impurity, rows, w, order, n_known, known, before,
                      decrease, left_w)
    if j48:
        k, gain, n_branches = j48_best_cut(column, rows, order, n_known, decrease, left_w,
                                           known_w, W, n_classes, min_leaf)
    else:
        n_extra = n_missing if spread_missing and not missing_branch else 0
        k, gain, n_branches = best_cut(decrease, left_w, n_known, n_extra, min_leaf, divisor,
                                       by_ratio, known_w, W, branch_weights, min_weight)
    if k < 0:
        return gain, _cut_information(0.0, known_w, W, branch_weights), np.nan, n_branches, False
    t = midpoint(column[rows[order[k]]], column[rows[order[k + 1]]])
    return gain, _cut_information(left_w[k], known_w, W, branch_weights), t, n_branches, True


@kernel
def learned_cut(column, y, n_classes, impurity, rows, w, order, total, W, min_leaf,
                min_weight=0.0):
    """A numeric attribute's best cut when the rows with a missing value go, together, to
    one side, the side that decreases the impurity more (scikit-learn >= 1.3,
    ``sklearn/tree/_splitter.pyx``, ``node_split_best``; as in 1.9). The decrease of a cut
    is W I(D) - W_L I(D_L) - W_R I(D_R) over all the node's rows, the missing ones counted
    in their side, and so are ``min_leaf`` and ``min_weight``. Cuts are tried in
    scikit-learn's order, a later one winning only if strictly better: every cut with the
    missing rows on the right, then "is missing" (all known values left, threshold +inf, the
    missing rows right), then every cut with them on the left. Without missing rows at the
    node they go, at predict, to the side with more rows (right on a tie). A column with no
    known value, or whose known values are all equal and none missing, does not split.
    Returns gain (decrease / W), threshold, branches with weight (2 or 1), whether a cut is
    allowed and whether the missing rows go left."""
    missing = np.zeros(len(total))
    n_known = known_first(column, y, n_classes, rows, w, order, missing)
    n_missing = len(order) - n_known
    if n_known == 0 or (n_missing == 0 and column[rows[order[0]]] ==
                        column[rows[order[n_known - 1]]]):
        return 0.0, np.nan, 1, False, False  # scikit-learn's constant feature
    before = weighted_impurity(total, impurity)
    w_missing = weight_of(missing, n_classes)
    left, right = np.zeros(len(total)), np.zeros(len(total))
    best, t, best_left = -np.inf, np.nan, False
    for side in range(2 if n_missing > 0 else 1):  # 0: missing rows right, 1: left
        for s in range(len(total)):
            left[s] = missing[s] if side == 1 else 0.0
        for k in range(n_known - 1):
            i = order[k]
            add_row(left, y[rows[i]], w[i], n_classes)
            if column[rows[i]] == column[rows[order[k + 1]]]:
                continue
            n_left = k + 1 + side * n_missing
            if min(n_left, len(order) - n_left) < min_leaf:
                continue
            w_left = weight_of(left, n_classes)
            if min(w_left, W - w_left) < min_weight:
                continue
            for s in range(len(total)):
                right[s] = total[s] - left[s]
            d = before - weighted_impurity(left, impurity) - weighted_impurity(right, impurity)
            if d > best:
                best = d
                t = midpoint(column[rows[i]], column[rows[order[k + 1]]])
                best_left = side == 1 if n_missing > 0 else n_left > len(order) - n_left
        if (side == 0 and n_missing > 0 and min(n_known, n_missing) >= min_leaf
                and min(W - w_missing, w_missing) >= min_weight):
            d = before - weighted_impurity(total - missing, impurity) - weighted_impurity(
                missing, impurity)  # "is missing", against the rest
            if d > best:
                best, t, best_left = d, np.inf, False
    if t != t:
        return 0.0, np.nan, 2, False, False
    return max(best, 0.0) / W, t, 2, True, best_left


# ------------------------------------------------------------------------ the textbook rule
@kernel(inline=True)
def category_table(column, y, n_classes, rows, w, n_codes, table, sizes, known,
                   missing):
    """Fill ``table[code]`` with the statistics of the rows of each category code and
    ``sizes[code]`` with their number, ``known`` with those of all rows whose value
    is known, ``missing`` with the others'; returns the number of rows with a missing
    value."""
    table[:n_codes] = 0.0
    sizes[:n_codes] = 0
    n_missing = 0
    for i in range(len(rows)):
        v = column[rows[i]]
        if math.isnan(v):
            n_missing += 1
            add_row(missing, y[rows[i]], w[i], n_classes)
        else:
            add_row(table[int(v)], y[rows[i]], w[i], n_classes)
            add_row(known, y[rows[i]], w[i], n_classes)
            sizes[int(v)] += 1
    return n_missing


@kernel(inline=True)
def multiway(table, sizes, n_codes, n_classes, impurity, min_leaf, n_extra,
             branch_weights):
    """One branch per category with rows: returns sum_v W_v I(D_v) over the branches,
    their number, and whether each has ``min_leaf`` rows (``n_extra`` more counting
    in each). Writes each branch's weight W_v into ``branch_weights``."""
    after, n_branches, allowed = 0.0, 0, True
    for code in range(n_codes):
        branch_weights[code] = weight_of(table[code], n_classes)
        if branch_weights[code] > 0:
            n_branches += 1
            after += weighted_impurity(table[code], impurity)
            allowed = allowed and sizes[code] + n_extra >= min_leaf
    return after, n_branches, allowed


# quoted in chapter 5
@kernel
def cut_decreases(column, y, n_classes, impurity, rows, w, order, n_known, known,
                  before, decrease, left_w):
    """Go through the rows with a known value in value order (``order``), moving them
    one by one from the right side to the left, and score the cut after row k if its
    value differs from the next: decrease[k] = W I(D) - W_L I(D_L) - W_R I(D_R)
    (``before`` = W I(D), ``known`` the statistics of all n_known rows); NaN between
    equal values; left_w[k] = W_L."""
    left, right = np.zeros(len(known)), np.zeros(len(known))
    for k in range(n_known - 1):
        i = order[k]
        add_row(left, y[rows[i]], w[i], n_classes)  # row k moves to the left
        if column[rows[i]] == column[rows[order[k + 1]]]:
            decrease[k] = np.nan  # no cut between equal values
            continue
        for s in range(len(known)):
            right[s] = known[s] - left[s]
        left_w[k] = weight_of(left, n_classes)
        after = weighted_impurity(left, impurity) + weighted_impurity(right, impurity)
        decrease[k] = before - after


@kernel
def best_cut(decrease, left_w, n_known, n_extra, min_leaf, divisor, by_ratio, known_w,
             W, branch_weights, min_weight=0.0):
    """The allowed cut of highest gain, max(decrease, 0) / ``divisor``, or gain ratio if
    ``by_ratio``; the first (smallest threshold) on a tie. A cut is allowed if both
    sides have ``min_leaf`` rows, ``n_extra`` more counting in each, and a known weight of
    ``min_weight`` (CART's ``min_weight_fraction_leaf``). Returns the cut
    (-1: none), its gain, and the number of branches with weight (2 if some cut
    exists, else 1)."""
    best_k, best_score, n_branches = -1, -1.0, 1
    for k in range(n_known - 1):
        if math.isnan(decrease[k]):
            continue  # equal values
        n_branches = 2
        if min(k + 1, n_known - k - 1) + n_extra < min_leaf:
            continue
        if min(left_w[k], known_w - left_w[k]) < min_weight:
            continue
        score = max(decrease[k], 0.0) / divisor
        if by_ratio:
            iv = _cut_information(left_w[k], known_w, W, branch_weights)
            score = score / iv if iv > 0 else 0.0
        if score > best_score:
            best_k, best_score = k, score
    gain = max(decrease[best_k], 0.0) / divisor if best_k >= 0 else 0.0
    return best_k, gain, n_branches


@kernel
def _cut_information(left_w, known_w, W, branch_weights):
    """IV of a cut whose left side has weight ``left_w`` (missing rows: one more group)."""
    branch_weights[0], branch_weights[1] = left_w, known_w - left_w
    return split_information(branch_weights, W - known_w)


# --------------------------------------------------------------------------- missing values
# quoted in chapter 6
@kernel(inline=True)
def gain_divisor(column, rows, w, W, discount):
    """What a split's decrease W~ I(D~) - sum_v W~_v I(D~_v) among the rows with a known
    value is divided by to give its gain. C4.5 discounts the gain by their share rho
    = W~ / W (Quinlan 1993; Zhou 2016, eq. 4.12): rho x decrease / W~ = decrease / W.
    Without ``discount``, the gain among the known rows alone: decrease / W~."""
    if discount:
        return W
    known_w = 0.0
    for i in range(len(rows)):
        if not math.isnan(column[rows[i]]):
            known_w += w[i]
    return known_w if known_w > 0 else 1.0  # no known value: no split to score


# quoted in chapter 6
@kernel
def missing_branch_before(total, missing, impurity):
    """The rows with a missing value as a branch of their own: the gain is (W I(D) -
    sum_v W_v I(D_v) - W_m I(D_m)) / W, so the textbook sum over the known values'
    branches is subtracted from W I(D) - W_m I(D_m) in place of W~ I(D~)."""
    return weighted_impurity(total, impurity) - weighted_impurity(missing, impurity)


# ------------------------------------------------------------------------------ J48
# quoted in chapter 5
@kernel
def j48_best_cut(column, rows, order, n_known, decrease, left_w, known_w, W, n_classes,
                 min_leaf):
    """Weka J48's choice among the cuts (C4.5 Release 8, Quinlan 1996; Weka's
    ``C45Split.handleNumericAttribute``): values closer than 1e-5 are equal; a cut
    needs a known weight of min_split = 0.1 W~ / n_classes, clipped to [min_leaf,
    25], on each side; it wins if its gain beats the best so far (0 at first) by more
    than 1e-6; the winner's gain pays log2(number of such cuts) / W and must stay
    above 1e-6. Returns the cut (-1: none), its gain, and the number of branches with
    weight (-1: cuts, none gaining enough)."""
    min_split = 0.1 * known_w / max(n_classes, 1)
    min_split = min_leaf if min_split <= min_leaf else min(min_split, 25.0)
    if n_known < 2 * min_split - WEKA_SMALL:
        return -1, 0.0, 1  # too few known values to cut
    best_k, best_gain, n_cuts, n_branches = -1, 0.0, 0, 1
    for k in range(n_known - 1):
        if column[rows[order[k]]] + 1e-5 >= column[rows[order[k + 1]]]:
            continue  # equal values
        n_branches = 2
        if min(left_w[k], known_w - left_w[k]) < min_split - WEKA_SMALL:
            continue
        n_cuts += 1
        gain = max(decrease[k], 0.0) / W
        if gain > best_gain + WEKA_SMALL:
            best_k, best_gain = k, gain
    if n_cuts == 0:
        return -1, 0.0, n_branches
    best_gain -= math.log2(n_cuts) / W  # the MDL penalty
    if best_k < 0 or best_gain <= WEKA_SMALL:
        return -1, best_gain, -1
    return best_k, best_gain, n_branches


@kernel(inline=True)
def j48_allows(branch_weights, missing_w, min_leaf):
    """Weka J48's test of a multiway split (``Distribution.check``): at least two
    branches (the missing values' branch, of weight ``missing_w``, among them) have a
    weight of ``min_leaf`` or more."""
    big_enough = 1 if missing_w >= min_leaf - WEKA_SMALL else 0
    for weight in branch_weights:
        if weight >= min_leaf - WEKA_SMALL:
            big_enough += 1
    return big_enough >= 2


@kernel
def j48_split_point(column, t):
    """Where J48 moves a threshold ``t``: Weka 3.6's ``C45Split.setSplitPoint`` goes through
    the column in row order and keeps each known value that is above the one it holds by more
    than 1e-6 (``Utils.gr``) and not above t by 1e-6 or more (``Utils.smOrEq``). A value within
    1e-6 above the one held does not replace it, so of two values closer than 1e-6 the first in
    row order can stay, though it is the smaller."""
    held = -math.inf
    for value in column:  # a missing value (NaN) fails both comparisons
        if value - held > WEKA_SMALL and value - t < WEKA_SMALL:
            held = value
    return held


# ----------------------------------------------------------------------- CART's bipartition
#: above this many categories at a node, a bipartition for many classes or for the absolute error
#: is searched along one order of the categories (a heuristic) instead of among them all
MAX_EXHAUSTIVE_CATEGORIES = 12


@kernel
def _best_bipartition(column, y, n_classes, impurity, rows, w, n_codes, table, sizes,
                      divisor, min_leaf, sides, min_weight=0.0):
    """CART's split of a categorical attribute in two (Breiman et al. 1984, sec. 4.2.2).

    For two classes and for the squared error, the k categories present at the node are put in
    order, by the share of the second class or by the mean target, and the best bipartition is
    one of the k - 1 cuts along that order (Breiman et al.'s theorem 4.5): exact. For more
    classes and for the absolute error no order is exact, so all 2^(k-1) - 1 bipartitions are
    tried, up to ``MAX_EXHAUSTIVE_CATEGORIES`` present categories; beyond, only the cuts along
    the order of the share of the node's majority class, or of the categories' weighted median
    targets (the lower median on an exact half): heuristics. Each side needs ``min_leaf`` rows
    with a known value, and their weight ``min_weight``. Writes the branch of each present
    category code into ``sides`` (0 left, 1 right); returns gain, branches with weight (1 or
    2), and whether a split is allowed. The rows with a missing value take no part; the gain
    is the decrease over ``divisor``."""
    known, missing = np.zeros(table.shape[1]), np.zeros(table.shape[1])
    category_table(column, y, n_classes, rows, w, n_codes, table, sizes, known, missing)
    present = np.flatnonzero(sizes[:n_codes] > 0)
    k = len(present)
    if k < 2:
        return 0.0, k, False
    on_left = np.zeros(n_codes, np.bool_)
    values, weights, codes = np.empty(0), np.empty(0), np.empty(0, np.int64)
    if impurity == ABSOLUTE_ERROR:  # the known rows sorted by target, for medians and deviations
        is_known = ~np.isnan(column[rows])
        by_target = np.argsort(y[rows[is_known]], kind="mergesort")
        values, weights = y[rows[is_known]][by_target], w[is_known][by_target]
        codes = column[rows[is_known]][by_target].astype(np.int64)
        before = _deviation_of_sides(values, weights, codes, ~on_left)
    else:
        before = weighted_impurity(known, impurity)
    exhaustive = (n_classes > 2 or impurity == ABSOLUTE_ERROR) and k <= MAX_EXHAUSTIVE_CATEGORIES
    if not exhaustive:
        if impurity == ABSOLUTE_ERROR:
            key = _group_medians(values, weights, codes, n_codes)[present]
        else:
            key = np.empty(k)
            target = 1 if n_classes == 2 else (np.argmax(known) if n_classes > 2 else -1)
            for b in range(k):
                stats = table[present[b]]
                key[b] = (stats[1] / stats[0] if target < 0 else
                          stats[target] / ordered_sum(stats))
        present = present[np.argsort(key, kind="mergesort")]
    n_known, known_w = sizes[:n_codes].sum(), weight_of(known, n_classes)
    best, best_cut = -1.0, 0
    part = np.zeros(table.shape[1])
    n_left = 0
    for cut in range(1, 2 ** (k - 1) if exhaustive else k):
        if exhaustive:  # the bits of ``cut`` say which categories go left; the last stays right
            part[:] = 0.0
            n_left = 0
            for b in range(k - 1):
                on_left[present[b]] = (cut >> b) & 1 == 1
                if on_left[present[b]]:
                    part += table[present[b]]
                    n_left += sizes[present[b]]
        else:  # the first ``cut`` categories in order go left
            on_left[present[cut - 1]] = True
            part += table[present[cut - 1]]
            n_left += sizes[present[cut - 1]]
        if min(n_left, n_known - n_left) < min_leaf:
            continue  # a side with too few rows
        left_w = weight_of(part, n_classes)
        if min(left_w, known_w - left_w) < min_weight:
            continue  # a side too light
        if impurity == ABSOLUTE_ERROR:
            decrease = before - _deviation_of_sides(values, weights, codes, on_left)
        else:
            decrease = _decrease(part, known, before, impurity)
        if decrease > best:
            best, best_cut = decrease, cut
    if best < 0:
        return 0.0, 2, False
    for b in range(k):
        goes_left = (best_cut >> b) & 1 == 1 if exhaustive else b < best_cut
        sides[present[b]] = 0 if goes_left else 1
    return max(best, 0.0) / divisor, 2, True


@kernel
def _decrease(part, known, before, impurity):
    """W I(D~) - W_L I(D~_L) - W_R I(D~_R) for the left part ``part`` of the known rows
    ``known`` (``before`` = W I(D~))."""
    return before - weighted_impurity(part, impurity) - weighted_impurity(known - part, impurity)


@kernel
def _group_medians(values, weights, group, n_groups):
    """The weighted median of each group of ``values`` (sorted ascending; row i in group
    ``group[i]``): the group's first value at which its cumulative weight reaches half its
    total. NaN for an empty group."""
    total, reached = np.zeros(n_groups), np.zeros(n_groups)
    median = np.full(n_groups, np.nan)
    for i in range(len(values)):
        total[group[i]] += weights[i]
    for i in range(len(values)):
        g = group[i]
        if math.isnan(median[g]):
            reached[g] += weights[i]
            if reached[g] >= total[g] / 2:
                median[g] = values[i]
    return median


@kernel
def _deviation_of_sides(values, weights, codes, on_left):
    """sum_i w_i |y_i - m_s(i)|, each row's absolute deviation from the weighted median of its
    side s(i) (left if ``on_left[codes[i]]``); ``values`` sorted ascending."""
    side = np.where(on_left[codes], 0, 1)
    median = _group_medians(values, weights, side, 2)
    return ordered_sum(weights * np.abs(values - median[side]))


# ------------------------------------------------------------------------------ partition
@kernel
def partition(column, threshold, branch_of_code, n_branches, sent, y, n_classes, impurity,
              rows, w, order):
    """Hand the node's rows to its children. A row whose value is missing goes where
    ``sent[i]`` says (:mod:`dtree.routing`): to that child (a branch for missing values, a
    surrogate's choice), to no child (-2: it stays at the node), or, for -1, to every child that
    has known weight, with weight w * r~_v, the child's share of the known weight (Zhou 2016,
    sec. 4.4.2). A child holds the rows of its branch, then the spread rows.

    Returns the children's rows and weights, concatenated (child b's are ``start[b]:start[b+1]``),
    their statistics, total weights, impurities and purity, the branch fractions r~_v, and the
    children's rows sorted by each numeric column: ``order`` (see :func:`score_attributes`)
    carried down, child b's block at ``len(order) * start[b]``.
    """
    m = len(rows)
    branch, rank = np.empty(m, np.int32), np.empty(m, np.int32)  # fewer than 2**31 rows
    known_w = np.zeros(n_branches)
    counts = np.zeros(n_branches, np.int64)
    n_missing = 0
    for i in range(m):
        branch[i] = branch_of(column[rows[i]], threshold, branch_of_code, 0)
        if branch[i] < 0:
            branch[i] = sent[i]
        if branch[i] >= 0:  # rank: the row's place among its branch's rows, or the spread ones
            known_w[branch[i]] += w[i]
            rank[i] = counts[branch[i]]
            counts[branch[i]] += 1
        elif branch[i] == -1:
            rank[i] = n_missing
            n_missing += 1
    fractions = known_w / ordered_sum(known_w)
    start = np.zeros(n_branches + 1, np.int64)
    for b in range(n_branches):
        start[b + 1] = start[b] + counts[b] + (n_missing if fractions[b] > 0 else 0)
    child_rows, child_w = np.empty(start[-1], np.int64), np.empty(start[-1])
    n_sorted = order.shape[0]
    child_order = np.empty(n_sorted * start[-1], order.dtype)
    stats = np.zeros((n_branches, n_statistics(n_classes)))
    lowest, highest = np.full(n_branches, np.inf), np.full(n_branches, -np.inf)
    for i in range(m):
        known = branch[i] >= 0
        spread = n_branches if branch[i] == -1 else 0  # a row that stays (-2) goes nowhere
        first, last = (branch[i], branch[i] + 1) if known else (0, spread)
        for b in range(first, last):
            if known or fractions[b] > 0:
                place = start[b] + rank[i] + (0 if known else counts[b])
                child_rows[place] = rows[i]
                child_w[place] = w[i] if known else w[i] * fractions[b]
                target = y[rows[i]]
                add_row(stats[b], target, child_w[place], n_classes)
                lowest[b], highest[b] = min(lowest[b], target), max(highest[b], target)
    for s in range(n_sorted):  # each sorted list, filtered into the children in the same order
        fill = np.zeros(n_branches, np.int64)
        for k in range(m):
            i = order[s, k]
            known = branch[i] >= 0
            spread = n_branches if branch[i] == -1 else 0
            first, last = (branch[i], branch[i] + 1) if known else (0, spread)
            for b in range(first, last):
                if known or fractions[b] > 0:
                    size = start[b + 1] - start[b]
                    at = n_sorted * start[b] + s * size + fill[b]
                    child_order[at] = rank[i] + (0 if known else counts[b])
                    fill[b] += 1
    weight, impurity_of = np.zeros(n_branches), np.zeros(n_branches)
    pure = np.zeros(n_branches, np.bool_)
    for b in range(n_branches):
        weight[b] = weight_of(stats[b], n_classes)
        if weight[b] > 0 and impurity == ABSOLUTE_ERROR:
            impurity_of[b] = absolute_deviation(y, child_rows[start[b]:start[b + 1]],
                                                child_w[start[b]:start[b + 1]]) / weight[b]
        elif weight[b] > 0:
            impurity_of[b] = weighted_impurity(stats[b], impurity) / weight[b]
        pure[b] = is_pure(stats[b], lowest[b], highest[b], n_classes)
    return child_rows, child_w, start, stats, weight, impurity_of, pure, fractions, child_order


# ------------------------------------------------------------------------------ prediction
@kernel
def predict_rows(X, feature, first_child, code_start, threshold, codes, n_children, fractions,
                 detour, unplaced, values, surrogates, surrogate_table, surrogate_threshold):
    """Each row's prediction: that of the leaf it reaches, or a weighted sum of nodes'
    predictions ``values`` (see :func:`dtree.tree.predict_values`).

    The tree is given as arrays over its nodes (``dtree.tree.RoutingArrays``): node i
    tests ``feature[i]`` (-1 for a leaf); its children are the ``n_children[i]`` nodes from
    ``first_child[i]``, ``fractions`` their training fractions. At each node a row takes the
    branch the routing rule gives it (:mod:`dtree.routing`: its value's, else the first
    surrogate's that places it, else ``detour[i]``, else ``unplaced``). A row that stays
    (STAY) ends there with node i's prediction; one that spreads (SPREAD) goes down every
    branch, its weight multiplied by that branch's fraction (Quinlan 1993, ch. 3).

    The way down takes the first branch or another by a jump, not by adding the branch to
    ``first_child[node]``: numba turns that sum into a select, which waits at every level for
    the row's value to arrive, where the processor runs ahead along the branch it predicts.
    The store on one side keeps the jump (without it numba selects); on adult this is a
    fifth of the prediction's time. On the way down a node's position is unsigned, which
    numba reads as it is (a signed position is first checked for a negative one, counted
    from the end, which took a sixth of the time on adult).
    """
    out = np.zeros((X.shape[0], values.shape[1]))
    stack_node = np.empty(len(feature), np.int64)  # the branches still to visit
    stack_weight = np.empty(len(feature))
    for i in range(X.shape[0]):
        node, weight, top, b = 0, 1.0, 0, 0  # from the root, with the row's whole weight
        while True:
            while True:  # follow the branches down to a leaf
                at = np.uint64(node)
                if feature[at] < 0:
                    break
                b = branch_of(X[i, feature[at]], threshold[at], codes, code_start[at])
                if b < 0:
                    b = route_missing(X, i, node, codes, surrogates, surrogate_table,
                                      surrogate_threshold, detour, unplaced)
                    if b < 0:
                        break
                if b == 0:
                    node = first_child[at]
                else:  # the free stack slot notes the node: a store keeps the test a jump
                    stack_node[top] = node
                    node = first_child[at] + b
            if b != SPREAD:  # a leaf, or a row that stays at the node
                for k in range(values.shape[1]):
                    out[i, k] += weight * values[node, k]
            else:
                for k in range(n_children[node]):  # every branch waits on the stack
                    child = first_child[node] + k
                    if fractions[child] > 0:
                        stack_node[top], stack_weight[top] = child, weight * fractions[child]
                        top += 1
            if top == 0:
                break
            top -= 1
            node, weight, b = stack_node[top], stack_weight[top], 0
    return out

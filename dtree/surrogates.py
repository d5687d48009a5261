"""Surrogate splits (Breiman et al. 1984, sec. 5.3; Therneau & Atkinson, "An Introduction to
Recursive Partitioning Using the RPART Routines", the rpart vignette, "Surrogate variables").

A CART split needs the tested value. For a row that lacks it, the tree asks other attributes
that split the node's rows *the same way*: the **surrogates** of the split, best first. At a node
whose primary split sends the rows with a known primary value left (weight t_L) or right (t_R),
a candidate split s of another attribute is scored by

    agreement(s) = w(rows that s sends the same way as the primary) / (t_L + t_R),

and compared with the *majority* ("blind") rule, which sends every row the primary's majority
way and so agrees on a share m = max(t_L, t_R) / (t_L + t_R):

    adjusted agreement(s) = (agreement(s) - m) / (1 - m).

Only surrogates with a positive adjusted agreement (better than the blind rule) are kept, ranked
by agreement, at most ``max_surrogates``. A row missing the primary then goes by the first
surrogate whose attribute it has, else the majority way (:mod:`dtree.routing`).

Everything follows rpart's C code (``src/surrogate.c``, ``src/choose_surg.c``,
``src/insert_split.c``, ``src/nodesplit.c``, version 4.1), including its details:

* only the rows with a known primary value count; a row missing the surrogate's attribute counts
  as a disagreement (rpart's default ``surrogatestyle = 0``; with ``style=1`` the sums run over the
  rows that have the surrogate's attribute instead, the CART book's choice);
* a numeric surrogate may send its lower values left or right (``reverse``). Its cut is the
  midpoint of adjacent distinct values among *all* the node's rows that have the attribute (also
  those missing the primary), and must leave at least two rows with a known primary value and a
  positive weight on each side. Cuts are tried from the smallest value up; a cut replaces the
  best so far only if it agrees strictly more, and a surrogate must agree strictly more than the
  majority rule *among the rows that have the attribute*;
* a categorical surrogate sends each category the way most of its (weighted) rows go; on an
  equal split, the way the majority of the rows that have the attribute go, and right when those
  are equal too. A category that no row with a known primary value has at the node goes neither
  way (a row with it cannot use this surrogate). rpart also demands at least two such rows on
  which the surrogate agrees *and two on which it disagrees*: a categorical surrogate that
  disagrees on fewer than two rows is dropped, however good (the vignette and the code's comment
  say "at least 2 [sent] each way", but the code counts agreements and disagreements);
* kept means adjusted agreement > 1e-10; ties in agreement keep the column order.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .jit import compiled, kernel
from .kernels import midpoint
from .routing import branch_of
from .tolerances import RPART_MIN_ADJUSTED_AGREEMENT

if TYPE_CHECKING:
    from .splits import TrainingSet

__all__ = ["Surrogate", "find_surrogates", "majority_side"]

LEFT, RIGHT, UNDECIDED = 0, 1, -1
STYLES = (0, 1)
#: a surrogate needs two counted rows each way (agreeing and disagreeing ones, if categorical):
#: at a node of fewer rows there is none, and the grower does not search
MIN_ROWS = 4


@dataclass(frozen=True, slots=True)
class Surrogate:
    """A surrogate of a node's split, on column ``feature_index`` named ``feature``.

    Numeric: ``value <= threshold`` goes left, or, if ``reverse``, ``value > threshold`` goes
    left. Categorical: ``category_sets`` = (categories sent left, categories sent right) and
    ``branch_of_code[c]`` the side of category code c (0 left, 1 right, -1 for a category no row
    with a known primary value had at the node: the surrogate cannot place it).
    ``agreement`` and ``adjusted_agreement`` as in the module docstring.
    """

    feature: str
    feature_index: int
    agreement: float
    adjusted_agreement: float
    threshold: float | None = None
    reverse: bool = False
    category_sets: tuple[frozenset, frozenset] | None = None
    branch_of_code: tuple[int, ...] | None = None

    @property
    def rule(self) -> str:
        """The test that sends a row left, e.g. ``"Number > 6.5"`` or ``"colour in {a, b}"``."""
        if self.category_sets is None:
            return f"{self.feature} {'>' if self.reverse else '<='} {self.threshold:g}"
        return f"{self.feature} in {{{', '.join(sorted(map(str, self.category_sets[0])))}}}"

    def sides(self, values: np.ndarray) -> np.ndarray:
        """The side (0 left, 1 right) this surrogate sends each value of its attribute (a
        number, or a category code), -1 where it cannot tell: a missing value, or a category
        not placed at the node. The routing rule's :func:`dtree.routing.branch_of`, the other
        side for a reversed surrogate."""
        codes = np.asarray(self.branch_of_code or (), dtype=np.int64)
        threshold = np.nan if self.threshold is None else self.threshold
        sides = np.full(len(values), UNDECIDED, dtype=np.int8)
        for i, value in enumerate(np.asarray(values, dtype=float).tolist()):
            if self.category_sets is None or 0 <= value < len(codes):
                side = branch_of(value, threshold, codes, 0)
                sides[i] = 1 - side if self.reverse and side >= 0 else side
        return sides


def find_surrogates(data: TrainingSet, rows: np.ndarray, weights: np.ndarray,
                    goes_left: np.ndarray, primary: int, max_surrogates: int = 5, *,
                    order: np.ndarray | None = None,
                    categories: Sequence[Sequence | None] | None = None,
                    style: int = 0) -> list[Surrogate]:
    """The surrogates of a node's primary split on column ``primary``, best first (rpart's
    ``surrogate()``; see the module docstring for the definitions and rpart's rules).

    ``data`` is the encoded training set (``dtree.splits.TrainingSet``: ``X``,
    ``n_categories``, ``slot``, ``names``); ``rows`` and ``weights`` are the node's rows, all of
    them, also those whose primary value is missing (they place numeric cuts); ``goes_left[i]``
    is True where the primary sends ``rows[i]`` left (ignored where the primary value is
    missing). ``order`` is the node's rows sorted by each numeric column, missing last
    (``TrainingSet.sorted_rows``, which is called if it is None). ``categories[j]`` lists
    the labels of column j's category codes (``Feature.categories``); the surrogates'
    ``category_sets`` hold these labels, or the codes without them. ``style`` is rpart's
    ``surrogatestyle``: 0 (default) counts a row missing the surrogate as a disagreement, 1
    leaves it out of the agreement.
    """
    rows = np.asarray(rows, dtype=np.int64)
    weights = np.asarray(weights, dtype=float)
    goes_left = np.asarray(goes_left, dtype=np.bool_)
    n_features = data.X.shape[1]
    if weights.shape != rows.shape or goes_left.shape != rows.shape:
        raise ValueError(f"rows, weights and goes_left need the same length, got {len(rows)}, "
                         f"{len(weights)} and {len(goes_left)}")
    if not 0 <= primary < n_features:
        raise ValueError(f"primary must be a column index in [0, {n_features}), got {primary}")
    if max_surrogates < 0:
        raise ValueError(f"max_surrogates must be >= 0, got {max_surrogates}")
    if style not in STYLES:
        raise ValueError(f"style must be 0 or 1 (rpart's surrogatestyle), got {style!r}")
    if order is None:
        order = data.sorted_rows(rows)
    search = compiled(_surrogate_search)
    sent, ranked, agreement, adjusted, threshold, reverse, codes = search(
        data.X, data.n_categories, data.slot, rows, weights, goes_left, order, primary, style,
        max_surrogates)
    if min(sent.tolist()) <= 0:
        raise ValueError("the primary split must send weight both ways (goes_left is all "
                         "True or all False on the rows with a known primary value)")
    return [_surrogate(data, categories, j, agreement[j], adjusted[j], threshold[j], reverse[j],
                       codes[j]) for j in ranked.tolist()]


def _surrogate(data, categories, j, agreement, adjusted, threshold, reverse, codes) -> Surrogate:
    n_codes = int(data.n_categories[j])
    if n_codes == 0:
        return Surrogate(data.names[j], j, float(agreement), float(adjusted),
                         threshold=float(threshold), reverse=bool(reverse))
    sets, sides = _category_sides(data, categories, j, codes)
    return Surrogate(data.names[j], j, float(agreement), float(adjusted), category_sets=sets,
                     branch_of_code=sides)


def _category_sides(data, categories, j, codes) -> tuple[tuple[frozenset, frozenset], tuple]:
    """A surrogate on categorical column ``j`` that sends category code c to side
    ``codes[c]``: its ``category_sets`` and ``branch_of_code``."""
    sides = tuple(codes[:int(data.n_categories[j])].tolist())
    labels = range(len(sides)) if categories is None or categories[j] is None else categories[j]
    sets = tuple(frozenset(c for c, s in zip(labels, sides) if s == b) for b in (LEFT, RIGHT))
    return sets, sides


def majority_side(goes_left: np.ndarray, weights: np.ndarray, known: np.ndarray) -> int:
    """The primary's majority way at fit, rpart's "last surrogate" (``surrogate.c``): 0 (left)
    if it sends more weight left among the ``known`` rows (primary value known), 1 if more
    right, -1 on a tie (rpart then has no default: such a row stays at the node). rpart's
    predict compares the children's numbers of training rows instead (``pred_rpart.c``)."""
    known = np.asarray(known, dtype=np.bool_)
    return int(compiled(_majority)(np.asarray(goes_left, dtype=np.bool_),
                                           np.asarray(weights, dtype=float), known))


@kernel
def _majority(goes_left, w, known):
    """:func:`majority_side` on arrays, the weights summed in row order as rpart does (and as
    the compiled grower, :func:`dtree.grow.grow_subtree`, does)."""
    t_left = t_right = 0.0
    for i in range(len(w)):
        if known[i] and goes_left[i]:
            t_left += w[i]
        elif known[i]:
            t_right += w[i]
    return LEFT if t_left > t_right else RIGHT if t_right > t_left else UNDECIDED


# ------------------------------------------------------------------------------ kernels
@kernel
def _node_surrogates(X, n_categories, slot, rows, w, order, primary, threshold, codes,
                     max_surrogates):
    """What the grower keeps at a node whose binary split tests column ``primary``
    (:func:`dtree.routing.branch_of`: ``threshold``, or for categories, threshold NaN, each
    code's side ``codes``): the primary's majority side among the rows whose value is known
    (:func:`_majority`), then the surrogates as :func:`_surrogate_search` returns them from
    ``ranked`` on (rpart's default style 0), none at a node of fewer than MIN_ROWS rows."""
    n = len(rows)
    goes_left, known = np.empty(n, np.bool_), np.empty(n, np.bool_)
    for i in range(n):
        value = X[rows[i], primary]
        known[i] = not math.isnan(value)
        goes_left[i] = branch_of(value, threshold, codes, 0) == 0
    sent, ranked, agreement, adjusted, cut, reverse, sides = _surrogate_search(
        X, n_categories, slot, rows, w, goes_left, order, primary, 0,
        max_surrogates if n >= MIN_ROWS else 0)
    return _majority(goes_left, w, known), ranked, agreement, adjusted, cut, reverse, sides


@kernel
def _surrogate_search(X, n_categories, slot, rows, w, goes_left, order, primary, style,
                      max_surrogates):
    """The best surrogate split of every column but ``primary`` (rpart's ``surrogate()``).
    Returns the weights the primary sends left and right; the columns kept (adjusted agreement
    above 1e-10), ranked by agreement, the column order breaking ties, at most
    ``max_surrogates``; and per column the agreement and adjusted agreement (0 where no split
    is found or, with ``max_surrogates`` 0, none is searched), threshold, reverse and category
    sides (0 left, 1 right, -1 not placed)."""
    n_features, n = X.shape[1], len(rows)
    side = np.empty(n, dtype=np.int8)  # the primary's side of each row, -1 if missing
    t_left = t_right = 0.0
    n_counted = 0  # rows with a known primary value and a positive weight
    for i in range(n):
        if math.isnan(X[rows[i], primary]):
            side[i] = -1
            continue
        side[i] = 0 if goes_left[i] else 1
        if goes_left[i]:
            t_left += w[i]
        else:
            t_right += w[i]
        if w[i] > 0:
            n_counted += 1
    agreement = np.zeros(n_features)
    adjusted = np.zeros(n_features)
    threshold = np.full(n_features, np.nan)
    reverse = np.zeros(n_features, dtype=np.bool_)
    codes = np.full((n_features, max(1, n_categories.max())), -1, dtype=np.int8)
    for j in range(n_features if max_surrogates > 0 else 0):  # none searched if none is kept
        if j == primary:
            continue
        if n_categories[j] == 0:
            found, agree, majority, total, cut, lower_right = _numeric_surrogate(
                X[:, j], rows, w, side, order[slot[j]], t_left, t_right, n_counted)
            threshold[j], reverse[j] = cut, lower_right
        else:
            found, agree, majority, total = _categorical_surrogate(
                X[:, j], n_categories[j], rows, w, side, codes[j])
        if not found:
            continue
        if style == 0:  # over every row with a known primary value
            total = t_left + t_right
            majority = t_left if t_left > t_right else t_right
        agreement[j] = agree / total
        share = majority / total
        adjusted[j] = (agreement[j] - share) / (1.0 - share)
    kept = np.flatnonzero(adjusted > RPART_MIN_ADJUSTED_AGREEMENT)
    ranked = kept[np.argsort(-agreement[kept], kind="mergesort")][:max_surrogates]
    return np.array([t_left, t_right]), ranked, agreement, adjusted, threshold, reverse, codes


@kernel
def _numeric_surrogate(column, rows, w, side, order, t_left, t_right, n_counted):
    """rpart's ``choose_surg`` for a numeric column: go up through the values, moving rows from
    the upper side of the cut to the lower, and keep the first cut that agrees strictly more
    than anything before it (the majority rule first), either way round. A cut needs two
    counted rows (primary known, weight > 0) on each side. ``t_left``, ``t_right`` and
    ``n_counted`` are the weights and count of the node's rows with a known primary value.
    Returns (found, agreeing weight, majority weight and total weight among the rows with a
    value, threshold, reverse)."""
    up_left, up_right, n_up = t_left, t_right, n_counted  # above the cut: every row at first
    m = len(order)
    while m > 0 and math.isnan(column[rows[order[m - 1]]]):  # missing values come last
        m -= 1
        i = order[m]
        if side[i] == 0:
            up_left -= w[i]
        elif side[i] == 1:
            up_right -= w[i]
        if side[i] >= 0 and w[i] > 0:
            n_up -= 1
    best = up_left if up_left > up_right else up_right
    majority, total = best, up_left + up_right
    low_left = low_right = 0.0
    n_low = 0
    found, threshold, reverse = False, np.nan, False
    last = column[rows[order[0]]] if m > 0 else 0.0
    p = 0
    while p < m and n_up >= 2:
        i = order[p]
        x = column[rows[i]]
        if n_low >= 2 and x != last:
            if up_left + low_right > best:  # lower values right, upper values left
                found, best, reverse = True, up_left + low_right, True
                threshold = midpoint(last, x)
            elif low_left + up_right > best:  # lower values left
                found, best, reverse = True, low_left + up_right, False
                threshold = midpoint(last, x)
        if side[i] == 0:
            up_left -= w[i]
            low_left += w[i]
        elif side[i] == 1:
            up_right -= w[i]
            low_right += w[i]
        if side[i] >= 0 and w[i] > 0:
            n_up -= 1
            n_low += 1
        last = x
        p += 1
    return found, best, majority, total, threshold, reverse


@kernel
def _categorical_surrogate(column, n_codes, rows, w, side, codes):
    """rpart's ``choose_surg`` for a categorical column: each category goes the way most of its
    weight goes (a tie: the majority way among the rows with a value, right if that ties too);
    ``codes`` receives each category's side. Found if at least two counted rows agree and two
    disagree. Returns (found, agreeing weight, majority weight, total weight)."""
    left_w = np.zeros(n_codes)
    right_w = np.zeros(n_codes)
    left_n = np.zeros(n_codes, dtype=np.int64)
    right_n = np.zeros(n_codes, dtype=np.int64)
    for i in range(len(rows)):
        x = column[rows[i]]
        if math.isnan(x) or side[i] < 0:
            continue
        k = int(x)
        counted = 1 if w[i] > 0 else 0
        if side[i] == 0:
            left_w[k] += w[i]
            left_n[k] += counted
        else:
            right_w[k] += w[i]
            right_n[k] += counted
    total_left = total_right = 0.0
    for k in range(n_codes):
        total_left += left_w[k]
        total_right += right_w[k]
    default_right = not total_left > total_right
    majority = total_right if default_right else total_left
    agree = 0.0
    n_agree = n_disagree = 0
    for k in range(n_codes):
        if left_n[k] == 0 and right_n[k] == 0:
            codes[k] = -1
        elif left_w[k] < right_w[k] or (left_w[k] == right_w[k] and default_right):
            codes[k] = 1
            agree += right_w[k]
            n_agree += right_n[k]
            n_disagree += left_n[k]
        else:
            codes[k] = 0
            agree += left_w[k]
            n_agree += left_n[k]
            n_disagree += right_n[k]
    return n_agree > 1 and n_disagree > 1, agree, majority, total_left + total_right

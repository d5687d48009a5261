"""Candidate splits and their vectorised search.

A split is scored from weighted statistics of the rows that reach a node (class counts for
classification, ``[w, w*y, w*y^2]`` for regression; see :mod:`dtree.impurity`):

* a **multiway** split on a categorical attribute (ID3, C4.5) needs one table of statistics per
  category, built with ``np.bincount``;
* a **threshold** split on a numeric attribute (C4.5, CART) sorts the known values once and takes
  cumulative sums, so every midpoint between adjacent distinct values is scored in one array
  operation.

No code here loops over rows.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validation import as_array, check_sample_weight, encode_labels
from .impurity import (SCORES, impurity_decrease, partition_impurity, ratio, split_information,
                       stats_weight)

__all__ = ["Split", "multiway_split", "threshold_split", "best_threshold"]

CRITERIA = tuple(SCORES)


@dataclass(frozen=True)
class Split:
    """The best split of one attribute at one node.

    ``score`` is what the criterion maximises (gain, gain ratio, or impurity decrease) and ``gain``
    the impurity decrease itself. A categorical split maps each category code to a branch
    (``branch_of_code``); a threshold split sends ``value <= threshold`` to branch 0.
    ``branch_weights`` is the known weight each branch receives.
    """

    feature: int
    score: float
    gain: float
    branch_weights: np.ndarray
    branch_of_code: np.ndarray | None = None
    threshold: float | None = None

    @property
    def n_branches(self) -> int:
        return len(self.branch_weights)

    @property
    def is_multiway(self) -> bool:
        """One branch per category: the attribute has nothing left to test below this node."""
        return self.threshold is None and self.n_branches == len(self.branch_of_code)


def _score(gain: np.ndarray, branch_stats: np.ndarray, criterion: str, missing_w: float):
    if criterion != "gain_ratio":
        return gain
    weights = stats_weight(branch_stats, SCORES[criterion])
    return ratio(gain, split_information(weights, missing_w))


def _table(codes: np.ndarray, stats: np.ndarray, n_codes: int) -> np.ndarray:
    """Sum of the statistics rows per code: shape (n_codes, n_stats)."""
    return np.stack([np.bincount(codes, weights=stats[:, k], minlength=n_codes)
                     for k in range(stats.shape[1])], axis=1)


def multiway_split(feature: int, column: np.ndarray, stats: np.ndarray, n_categories: int,
                   criterion: str) -> Split | None:
    """One branch per category. ``stats`` are the rows' weighted statistics.

    Returns None when fewer than two branches would receive weight (no real split).
    """
    known = ~np.isnan(column)
    table = _table(column[known].astype(np.intp), stats[known], n_categories)
    impurity = SCORES[criterion]
    branch_weights = stats_weight(table, impurity)
    if np.count_nonzero(branch_weights > 0) < 2:
        return None
    missing_w = float(stats_weight(stats[~known].sum(axis=0), impurity))
    gain = impurity_decrease(table, impurity, missing_w)
    return Split(feature, float(_score(gain, table, criterion, missing_w)), float(gain),
                 branch_weights, branch_of_code=np.arange(n_categories))


def _threshold_candidates(column: np.ndarray, stats: np.ndarray, impurity: str):
    """Midpoints between adjacent distinct known values, the (left, right) statistics at each,
    and the weight of the rows whose value is missing."""
    known = ~np.isnan(column)
    missing_w = float(stats_weight(stats[~known].sum(axis=0), impurity))
    order = np.argsort(column[known], kind="stable")
    values, ordered = column[known][order], stats[known][order]
    cumulative = np.cumsum(ordered, axis=0)
    cut = np.flatnonzero(values[1:] > values[:-1])  # split after position `cut`
    left = cumulative[cut]
    branch_stats = np.stack([left, cumulative[-1:] - left], axis=-2)
    weights = stats_weight(branch_stats, impurity)
    real = (weights > 0).all(axis=-1)
    lower, upper = values[cut], values[cut + 1]
    midpoints = (lower + upper) / 2
    # the midpoint of two adjacent floats can round up to the upper one
    thresholds = np.where(midpoints < upper, midpoints, lower)
    return thresholds[real], branch_stats[real], missing_w


def _best_candidate(branch_stats: np.ndarray, criterion: str, missing_w: float):
    """Gains and scores of candidate splits, and the index of the best (the first on a tie)."""
    gains = impurity_decrease(branch_stats, SCORES[criterion], missing_w)
    scores = _score(gains, branch_stats, criterion, missing_w)
    return gains, scores, int(np.argmax(scores))


def threshold_split(feature: int, column: np.ndarray, stats: np.ndarray,
                    criterion: str) -> Split | None:
    """The best binary split ``value <= t`` over midpoints t; the smallest t wins a tie."""
    impurity = SCORES[criterion]
    thresholds, branch_stats, missing_w = _threshold_candidates(column, stats, impurity)
    if len(thresholds) == 0:
        return None
    gains, scores, best = _best_candidate(branch_stats, criterion, missing_w)
    return Split(feature, float(scores[best]), float(gains[best]),
                 stats_weight(branch_stats[best], impurity), threshold=float(thresholds[best]))


def _target_stats(y: ArrayLike, criterion: str, w: np.ndarray) -> np.ndarray:
    """Per-row weighted statistics: one-hot class indicators, or [1, y, y^2] for regression."""
    if criterion == "squared_error":
        values = np.asarray(y, dtype=float)
        if np.isnan(values).any():
            raise ValueError("y contains missing values (NaN); every row needs a target")
        return np.column_stack([np.ones_like(values), values, values**2]) * w[:, None]
    codes, classes = encode_labels(y)
    return np.eye(len(classes))[codes] * w[:, None]


def best_threshold(x: ArrayLike, y: ArrayLike, criterion: str = "info_gain",
                   sample_weight: ArrayLike | None = None) -> tuple[float, float]:
    """Best cut of a numeric attribute among the midpoints of adjacent distinct values.

    Returns ``(threshold, score)``. For ``"info_gain"`` and ``"gain_ratio"`` the score is the
    (maximised) gain or gain ratio; for ``"gini"`` and ``"squared_error"`` it is the (minimised)
    weighted impurity after the split, ``sum_v |D_v|/|D| I(D_v)``. Missing x values are handled
    as in :func:`dtree.info_gain`. Ties go to the smallest threshold.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
    try:
        column = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("best_threshold needs a numeric x; use info_gain for a categorical one") \
            from None
    if column.ndim != 1:
        raise ValueError(f"x must be one-dimensional, got shape {column.shape}")
    if np.isinf(column).any():
        raise ValueError("x contains infinity")
    n_labels = len(as_array(y))
    if n_labels != len(column):
        raise ValueError(f"x and y have different lengths: {len(column)} and {n_labels}")
    w = check_sample_weight(sample_weight, len(column))
    stats = _target_stats(y, criterion, w)
    impurity = SCORES[criterion]
    thresholds, branch_stats, missing_w = _threshold_candidates(column, stats, impurity)
    if len(thresholds) == 0:
        raise ValueError("x has fewer than two distinct known values: there is no threshold")
    _, scores, best = _best_candidate(branch_stats, criterion, missing_w)
    if criterion in ("info_gain", "gain_ratio"):
        return float(thresholds[best]), float(scores[best])
    return float(thresholds[best]), float(partition_impurity(branch_stats[best], impurity))

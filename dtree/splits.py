"""Candidate splits: every attribute of a node scored in one call to a compiled kernel.

A split is scored from the weighted statistics of the rows that reach a node (class counts for
classification, ``[w, w*y, w*y^2]`` for regression; see :mod:`dtree.kernels`):

* a **multiway** split on a categorical attribute (ID3, C4.5) sums the statistics per category;
* a **threshold** split on a numeric attribute (C4.5, CART) goes through the node's rows in the
  order of their values, moving them one by one from the right branch to the left and scoring the
  midpoint between each pair of adjacent distinct values. The rows are sorted once, at the root,
  and each split hands every child its rows still in order, so no node sorts again.

:func:`dtree.kernels.score_attributes` does both, for all attributes of a node at once, and
returns small arrays (one entry per attribute) from which the grower picks the split.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import kernels
from .jit import compiled
from ._validation import Feature, as_array, check_sample_weight, encode_labels
from .impurity import IMPURITIES, SCORES, partition_impurity

__all__ = ["Split", "Candidates", "TrainingSet", "candidate_splits", "best_threshold"]

#: the criteria best_threshold takes: those whose impurity follows from class counts or sums
CRITERIA = tuple(c for c, impurity in SCORES.items() if impurity in IMPURITIES)


@dataclass(frozen=True)
class Split:
    """The chosen split of a node: the attribute (column index), its score (what the criterion
    maximises: gain, gain ratio or impurity decrease) and, for a numeric attribute, the
    threshold: ``value <= threshold`` goes to branch 0. A bipartition of a categorical
    attribute (CART) has ``sides``, the branch of each category code (0 or 1; -1 for a category
    absent from the node's rows, which is routed as a missing value). With neither, the split
    is multiway, one branch per category. ``missing_left``: with ``missing="learn"``, whether
    the rows whose value is missing go to branch 0 (else branch 1); None otherwise."""

    feature: int
    score: float
    threshold: float | None = None
    sides: tuple[int, ...] | None = None
    missing_left: bool | None = None

    @property
    def is_multiway(self) -> bool:
        """One branch per category: the attribute has nothing left to test below this node."""
        return self.threshold is None and self.sides is None


@dataclass(frozen=True)
class TrainingSet:
    """The training data as the kernels read it: ``X[i, j]`` is row i's value of column j
    (a category code or number, NaN where missing; X itself, not a copy, when it is a
    writable float64 array in row order, the one layout the kernels are compiled for, which
    a table of one column or one row has too; a copy would double fit's memory on large
    tables), ``y`` each row's class code (as a float) or target value,
    ``n_classes`` 0 for regression,
    ``n_categories[j]`` 0 for a numeric column, ``slot[j]`` the place of a numeric column
    among the numeric ones (-1 if categorical), and ``total_weight`` the weight of the rows
    the tree is grown on."""

    X: np.ndarray
    y: np.ndarray
    n_classes: int
    n_categories: np.ndarray
    slot: np.ndarray
    names: tuple[str, ...]
    total_weight: float = 1.0
    # per numeric column: do two of its values compare equal (1, else 0; -1 until its first sort)
    tied: np.ndarray | None = None

    @classmethod
    def of(cls, X: np.ndarray, features: list[Feature], y: np.ndarray, n_classes: int,
           total_weight: float = 1.0):
        n_categories = np.array([len(f.categories) if f.is_categorical else 0 for f in features],
                                dtype=np.int64)
        numeric = n_categories == 0
        slot = np.where(numeric, np.cumsum(numeric) - 1, -1)
        X = np.require(X, float, ["C", "W"])
        tied = np.full(int(numeric.sum()), -1, np.int8)  # found by the first sort (the root's)
        return cls(X, np.require(y, float, ["C", "W"]), n_classes, n_categories, slot,
                   tuple(f.name for f in features), total_weight, tied)

    def value_at_most(self, j: int, t: float) -> float:
        """The training value of column j where J48 moves a threshold t, so that it reads as a
        value seen in the data (Quinlan 1993): the largest value not above t, except that
        values within 1e-6 of one another count as one, the first in row order
        (:func:`dtree.kernels.j48_split_point`)."""
        return float(compiled(kernels.j48_split_point)(self.X[:, j], t))  # a float, not numpy's

    def sorted_rows(self, rows: np.ndarray) -> np.ndarray:
        """For each numeric column, the positions in ``rows`` sorted by value, missing last.
        Sorted once at the root; the kernels carry the order down the tree. Positions are
        int32 (half the memory of int64; a node has fewer than 2^31 rows), one column sorted
        at a time. Equal values keep their row order (a stable sort); numpy's default sort,
        several times faster, gives the same order where no two values of the column are equal
        (``tied``), and is taken there. Whether they are is found by the first sort of a
        column, the root's, in its sorted values; every later call sorts some of those rows."""
        numeric = np.flatnonzero(self.slot >= 0)
        order = np.empty((len(numeric), len(rows)), dtype=np.int32)
        for s, j in enumerate(numeric):
            values, ranked = self.X[rows, j], None
            if self.tied[s] < 0:
                ranked = np.argsort(values)
                self.tied[s] = _has_ties(values[ranked])
            if self.tied[s]:
                ranked = np.argsort(values, kind="stable")
            order[s] = np.argsort(values) if ranked is None else ranked
        return order


def _has_ties(ranked: np.ndarray) -> bool:
    """Whether two of the sorted values ``ranked`` compare equal, two missing ones (NaN, last)
    counting as equal."""
    return len(ranked) > 1 and bool((ranked[1:] == ranked[:-1]).any() or np.isnan(ranked[-2]))


@dataclass(frozen=True)
class Candidates:
    """The attributes that split a node (more than one branch receives weight, each branch
    with rows at least ``min_leaf`` of them), in column order: their column indices and names,
    and the score, gain and threshold (NaN for a multiway split) of each one's best split;
    ``blocked`` names the attributes that would split the node but only with a smaller branch,
    ``penalised`` those whose J48 cuts gain nothing once the penalty is paid, ``missing_left``
    (``learn``) the side each one sends the rows with a missing value to.
    Plain lists: a node has only a handful of attributes."""

    features: list[int]
    names: list[str]
    scores: list[float]
    gains: list[float]
    thresholds: list[float]
    blocked: list[str]
    penalised: list[str]
    sides: list[tuple[int, ...] | None]
    missing_left: list[bool] | None = None

    def split(self, k: int) -> Split:
        t = self.thresholds[k]
        return Split(self.features[k], self.scores[k], None if t != t else t, self.sides[k],
                     None if self.missing_left is None or t != t else self.missing_left[k])


def candidate_splits(data: TrainingSet, rows: np.ndarray, weights: np.ndarray,
                     order: np.ndarray, attributes: np.ndarray, criterion: str,
                     cut_by_ratio: bool = False, min_leaf: int = 1, j48: bool = False,
                     missing_branch: bool = False, binary: bool = False,
                     discount_missing: bool = True, learn: bool = False,
                     min_weight: float = 0.0) -> Candidates:
    """Score the best split of every attribute in ``attributes`` at a node: one kernel call.
    ``order`` holds the node's rows sorted by each numeric column (``TrainingSet.sorted_rows``).

    The score is the gain, or for ``"gain_ratio"`` Gain / IV (Zhou 2016, eq. 4.3; IV counts the
    rows with a missing value as one more group, as C4.5 does). A numeric attribute's threshold
    is the cut of highest gain (Zhou 2016, eq. 4.8), or of highest gain ratio if
    ``cut_by_ratio``, among the cuts that leave ``min_leaf`` rows in each branch. ``j48``
    applies Weka J48's rules instead, ``missing_branch`` gives the rows with a missing value
    a branch of their own, and ``binary`` splits a categorical attribute by the best
    bipartition of its categories, CART's (see :func:`dtree.kernels.score_attributes`).
    The gain counts only the rows whose value is known: rho times the decrease among them;
    without ``discount_missing`` it is that decrease itself. ``learn`` scores a numeric
    attribute as scikit-learn does, the rows with a missing value on the better side of each
    cut (:func:`dtree.kernels.learned_cut`). ``min_weight``: the least weight of each side of
    a binary split.
    """
    impurity = kernels.IMPURITY_CODES[SCORES[criterion]]
    search = compiled(kernels.score_attributes)
    gain, iv, threshold, n_branches, allowed, sides, missing_left = search(
        data.X, data.y, data.n_classes, impurity, rows, weights, order, attributes,
        data.n_categories, data.slot, cut_by_ratio, min_leaf, j48, missing_branch, binary,
        discount_missing, learn, min_weight)
    # in plain lists: a node has a handful of attributes, too few for numpy's per-call overhead
    names, columns = data.names, attributes.tolist()
    ok, n_branches = allowed.tolist(), n_branches.tolist()
    gain, threshold = gain.tolist(), threshold.tolist()
    score = ([g / v if v > 0 else 0.0 for g, v in zip(gain, iv.tolist())]  # impurity.ratio's
             if criterion == "gain_ratio" else gain)  # Gain / IV, 0 where IV = 0
    missing_left = missing_left.tolist() if learn else None
    real, blocked, penalised, features = range(len(columns)), [], [], columns
    if not all(ok):
        real = [a for a, allowed_a in enumerate(ok) if allowed_a]
        blocked = [names[j] for j, allowed_j, n in zip(columns, ok, n_branches)
                   if not allowed_j and n >= 2]
        penalised = [names[j] for j, n in zip(columns, n_branches) if n < 0]
        features = [columns[a] for a in real]
        score, gain, threshold = ([v[a] for a in real] for v in (score, gain, threshold))
        if learn:
            missing_left = [missing_left[a] for a in real]
    if binary:
        n_codes, sides = data.n_categories.tolist(), sides.tolist()
        sides = [tuple(sides[a][:n_codes[j]]) if n_codes[j] else None
                 for a, j in zip(real, features)]
    else:
        sides = [None] * len(features)
    return Candidates(features, [names[j] for j in features], score, gain, threshold, blocked,
                      penalised, sides, missing_left)


def _target(y: ArrayLike, criterion: str) -> tuple[np.ndarray, int]:
    """Class codes and the number of classes, or the target values and 0 for regression."""
    if criterion == "squared_error":
        values = np.asarray(y, dtype=float)
        if np.isnan(values).any():
            raise ValueError("y contains missing values (NaN); every row needs a target")
        if np.isinf(values).any():
            raise ValueError("y contains infinity; a regression target must be finite")
        return values, 0
    codes, classes = encode_labels(y)
    return codes.astype(float), len(classes)


def _statistics(y: np.ndarray, w: np.ndarray, n_classes: int) -> np.ndarray:
    """Weighted class counts, or [sum w, sum w*y, sum w*y^2]."""
    if n_classes:
        return np.bincount(y.astype(np.intp), weights=w, minlength=n_classes)
    return np.array([w.sum(), (w * y).sum(), (w * y * y).sum()])


def best_threshold(x: ArrayLike, y: ArrayLike, criterion: str = "info_gain",
                   sample_weight: ArrayLike | None = None) -> tuple[float, float]:
    """Best cut of a numeric attribute among the midpoints of adjacent distinct values.

    Returns ``(threshold, score)``. For ``"info_gain"`` and ``"gain_ratio"`` the score is the
    (maximised) gain or gain ratio; for ``"gini"`` and ``"squared_error"`` it is the (minimised)
    weighted impurity after the split, ``sum_v |D_v|/|D| I(D_v)``. Missing x values are handled
    as in :func:`dtree.info_gain`. Ties go to the smallest threshold. Rows of weight zero are
    left out, as if absent.

    ``"gain_ratio"`` picks the cut of largest gain ratio, seed 000's reading. Quinlan's C4.5
    and Zhou (eq. 4.8), and so :class:`dtree.C45Classifier`, pick the cut of largest *gain*
    and use its gain ratio only to compare attributes; the two cuts can differ.
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
    if y is None:
        raise ValueError("best_threshold needs y, the target of each row, but y is None")
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
    w = check_sample_weight(sample_weight, len(column))  # also refuses all-zero weights
    target, n_classes = _target(y, criterion)
    rows = np.flatnonzero(w > 0)
    data = TrainingSet.of(column[:, None], [Feature("x")], target, n_classes)
    found = candidate_splits(data, rows, w[rows], data.sorted_rows(rows), np.zeros(1, np.int64),
                             criterion, cut_by_ratio=criterion == "gain_ratio")
    if not found.features:
        raise ValueError("x has fewer than two distinct known values among the rows of positive "
                         "weight: there is no threshold")
    t = found.thresholds[0]
    if criterion in ("info_gain", "gain_ratio"):
        return t, found.scores[0]
    known = ~np.isnan(column) & (w > 0)
    sides = [known & (column <= t), known & (column > t)]
    branch_stats = np.stack([_statistics(target[s], w[s], n_classes) for s in sides])
    return t, float(partition_impurity(branch_stats, SCORES[criterion]))

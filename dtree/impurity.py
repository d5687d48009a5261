"""Impurity measures and the split scores built on them.

Two layers live here.

*Kernels* take weighted statistics and work on whole arrays at once; the public functions below
are built on them. For classification the statistics are weighted class counts (last axis =
classes); for regression they are ``[sum w, sum w*y, sum w*y**2]``. (The grower's own split search
runs as compiled loops over rows, in :mod:`dtree.kernels`.)

*Public functions* (`entropy`, `gini`, `info_gain`, `intrinsic_value`, `gain_ratio`, `gini_index`)
take plain labels and attribute values, as a reader of the book would write them by hand. A
missing attribute value (``None`` or ``NaN``) is handled as in C4.5 and Zhou (2016, eq. 4.12):
the score is computed on the rows whose value is known and multiplied by their weight fraction rho.
Their ``sample_weight`` is described once, in `entropy`.

All logarithms are base 2, so entropies are in bits.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validation import check_sample_weight, encode_attribute, encode_labels

__all__ = [
    "entropy", "gini", "misclassification", "info_gain", "intrinsic_value", "gain_ratio",
    "gini_index", "IMPURITIES", "SCORES",
]


# --------------------------------------------------------------------------- kernels on statistics
def _proportions(counts: np.ndarray) -> np.ndarray:
    total = counts.sum(axis=-1, keepdims=True)
    return np.where(total > 0, counts / np.where(total > 0, total, 1), 0.0)


# quoted in chapter 3
def entropy_of_counts(counts: np.ndarray) -> np.ndarray:
    """Ent(D) = -sum_k p_k log2 p_k, with 0 log 0 = 0.

    Quinlan 1986; Zhou 2016, eq. 4.1.
    """
    p = _proportions(np.asarray(counts, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1)), 0.0)
    return terms.sum(axis=-1)


# quoted in chapter 3
def gini_of_counts(counts: np.ndarray) -> np.ndarray:
    """Gini(D) = 1 - sum_k p_k^2; 0 for no weight.

    Breiman et al. 1984; Zhou 2016, eq. 4.5.
    """
    p = _proportions(np.asarray(counts, dtype=float))
    return np.where(p.sum(axis=-1) > 0, 1.0 - (p**2).sum(axis=-1), 0.0)


def misclassification_of_counts(counts: np.ndarray) -> np.ndarray:
    """Misclassification rate 1 - max_k p_k: the error of the majority-class leaf."""
    p = _proportions(np.asarray(counts, dtype=float))
    return np.where(p.sum(axis=-1) > 0, 1.0 - p.max(axis=-1), 0.0)


def squared_error_of_stats(stats: np.ndarray) -> np.ndarray:
    """Weighted variance from ``[sum w, sum w y, sum w y^2]``: (S2 - S1^2 / W) / W."""
    stats = np.asarray(stats, dtype=float)
    w, s1, s2 = stats[..., 0], stats[..., 1], stats[..., 2]
    safe_w = np.where(w > 0, w, 1)
    variance = np.where(w > 0, (s2 - s1**2 / safe_w) / safe_w, 0.0)
    return np.maximum(variance, 0.0)  # clips round-off below zero


#: impurity name -> kernel
IMPURITIES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "entropy": entropy_of_counts,
    "gini": gini_of_counts,
    "misclassification": misclassification_of_counts,
    "squared_error": squared_error_of_stats,
}

#: split criterion -> the impurity whose decrease it measures
SCORES: dict[str, str] = {
    "info_gain": "entropy",
    "gain_ratio": "entropy",
    "gini": "gini",
    "squared_error": "squared_error",
    "absolute_error": "absolute_error",
}


def stats_weight(stats: np.ndarray, impurity: str) -> np.ndarray:
    """Total weight behind statistics: sum of class counts, or the first entry for regression."""
    stats = np.asarray(stats, dtype=float)
    return stats[..., 0] if impurity == "squared_error" else stats.sum(axis=-1)


def impurity_decrease(branch_stats: np.ndarray, impurity: str, missing_weight=0.0) -> np.ndarray:
    """rho * (I(D~) - sum_v r~_v I(D~_v)): the weighted decrease of impurity of a partition.

    ``branch_stats`` has shape (..., branches, stats); the parent D~ is the union of the branches,
    i.e. the rows whose attribute value is known. ``missing_weight`` is the weight of the rows whose
    value is missing; rho = known / (known + missing) (Zhou 2016, eq. 4.12).
    """
    branch_stats = np.asarray(branch_stats, dtype=float)
    known = branch_stats.sum(axis=-2)
    known_w = stats_weight(known, impurity)
    total_w = known_w + missing_weight
    rho = known_w / np.where(total_w > 0, total_w, 1)
    decrease = IMPURITIES[impurity](known) - partition_impurity(branch_stats, impurity)
    return rho * np.maximum(decrease, 0.0)  # never negative (concavity); clips round-off


def partition_impurity(branch_stats: np.ndarray, impurity: str) -> np.ndarray:
    """``sum_v |D_v|/|D| I(D_v)``: the weighted impurity left after a split (eq. 4.6 for Gini)."""
    branch_stats = np.asarray(branch_stats, dtype=float)
    branch_w = stats_weight(branch_stats, impurity)
    total = branch_w.sum(axis=-1, keepdims=True)
    r = branch_w / np.where(total > 0, total, 1)
    return (r * IMPURITIES[impurity](branch_stats)).sum(axis=-1)


def split_information(branch_weights: np.ndarray, missing_weight=0.0) -> np.ndarray:
    """``IV(a) = -sum_v |D_v|/|D| log2 |D_v|/|D|`` (Quinlan 1993; Zhou 2016, eq. 4.4).

    As in C4.5, rows with a missing value form one more group of their own.
    """
    branch_weights = np.asarray(branch_weights, dtype=float)
    missing = np.broadcast_to(np.asarray(missing_weight, float), branch_weights.shape[:-1])
    return entropy_of_counts(np.concatenate([branch_weights, missing[..., None]], axis=-1))


def ratio(gain: np.ndarray, iv: np.ndarray) -> np.ndarray:
    """Gain / IV, defined as 0 where IV = 0 (a 'split' that sends everything one way)."""
    return np.where(iv > 0, gain / np.where(iv > 0, iv, 1), 0.0)


# --------------------------------------------------------------------------- public, on raw labels
def _class_counts(y: ArrayLike, sample_weight: ArrayLike | None) -> np.ndarray:
    codes, classes = encode_labels(y, name="y")
    w = check_sample_weight(sample_weight, len(codes))
    return np.bincount(codes, weights=w, minlength=len(classes))


def _partition(x: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None):
    """Weighted class counts per value of x (known rows) and the weight of the missing rows."""
    codes, _ = encode_attribute(x, name="x")
    y_codes, classes = encode_labels(y, name="y")
    if len(codes) != len(y_codes):
        raise ValueError(f"x and y have different lengths: {len(codes)} and {len(y_codes)}")
    w = check_sample_weight(sample_weight, len(codes))
    known = codes >= 0
    n_values = codes.max() + 1 if known.any() else 0
    table = np.bincount(codes[known] * len(classes) + y_codes[known], weights=w[known],
                        minlength=n_values * len(classes)).reshape(n_values, len(classes))
    return table, w[~known].sum()


def entropy(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Entropy of the label distribution, in bits: Ent(D) = -sum_k p_k log2 p_k.

    ``sample_weight`` (here and in every function of this module): one finite non-negative number
    per row, or one for all; None means 1. A row of weight 0 counts as absent. All-zero weights are
    a ValueError: a distribution with no weight has no impurity to compute. Only the ratios of the
    weights matter, so weights whose sum would overflow (``[1e308] * 6``) are first divided by the
    largest one, which changes no result.
    """
    return float(entropy_of_counts(_class_counts(y, sample_weight)))


def gini(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Gini impurity of the label distribution: 1 - sum_k p_k^2 (weights as in `entropy`)."""
    return float(gini_of_counts(_class_counts(y, sample_weight)))


def misclassification(y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Misclassification impurity of the label distribution: 1 - max_k p_k (weights as in
    `entropy`)."""
    return float(misclassification_of_counts(_class_counts(y, sample_weight)))


def info_gain(x: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Information gain of the multiway split on categorical ``x``, in bits.

    Gain(D, a) = rho * (Ent(D~) - sum_v r~_v Ent(D~_v)), D~ the rows with a known value of a
    (Quinlan 1986; Zhou 2016, eqs. 4.2 and 4.12). Without missing values rho = 1. Weights as in
    `entropy`.
    """
    table, missing = _partition(x, y, sample_weight)
    return float(impurity_decrease(table, "entropy", missing))


def intrinsic_value(x: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Split information ``IV(a) = -sum_v |D_v|/|D| log2 |D_v|/|D|``; missing rows form one more
    group, as in C4.5. Weights as in `entropy`."""
    codes, _ = encode_attribute(x, name="x")
    w = check_sample_weight(sample_weight, len(codes))
    known = codes >= 0
    weights = np.bincount(codes[known], weights=w[known]) if known.any() else np.zeros(0)
    return float(split_information(weights, w[~known].sum()))


def gain_ratio(x: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """Gain_ratio(D, a) = Gain(D, a) / IV(a) (Quinlan 1993; Zhou 2016, eq. 4.3); 0 when IV = 0.
    Weights as in `entropy`."""
    table, missing = _partition(x, y, sample_weight)
    gain = impurity_decrease(table, "entropy", missing)
    return float(ratio(gain, split_information(table.sum(axis=1), missing)))


def gini_index(x: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """``Gini_index(D, a) = sum_v |D_v|/|D| Gini(D_v)`` (Zhou 2016, eq. 4.6), over the rows whose
    value of a is known. Weights as in `entropy`."""
    table, _ = _partition(x, y, sample_weight)
    return float(partition_impurity(table, "gini"))

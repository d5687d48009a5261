"""Comparing fitted models on resampled data: the statistics behind the book's "better"."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["corrected_t_test"]


# quoted in chapter 11
def corrected_t_test(a: Sequence[float], b: Sequence[float],
                     test_share: float) -> tuple[float, float]:
    """Nadeau and Bengio's (2003) corrected resampled t-test of paired scores.

    ``a`` and ``b`` are two models' scores on the same J train/test splits (the
    folds of repeated cross-validation); ``test_share`` is n_test / n_train (1/9
    for ten folds). With d = a - b and s² its sample variance,

        t = mean(d) / sqrt((1/J + n_test/n_train) s²),

    compared with Student's t on J - 1 degrees of freedom. The term n_test/n_train
    widens the paired t-test's 1/J for the overlap of the training sets, which
    makes the folds' scores correlated. Returns t and the two-sided p. Equal
    differences (s = 0) give t = 0, p = 1 if they are zero, else t = ±inf, p = 0."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError(f"corrected_t_test needs two equal-length sequences of at "
                         f"least two scores, got shapes {a.shape} and {b.shape}")
    if not test_share > 0:
        raise ValueError(f"test_share is n_test / n_train, a positive number, got "
                         f"{test_share}")
    d = a - b
    variance = d.var(ddof=1)
    if variance == 0:
        return (0.0, 1.0) if d[0] == 0 else (math.copysign(math.inf, d[0]), 0.0)
    t = d.mean() / math.sqrt((1 / len(d) + test_share) * variance)
    from scipy.stats import t as student_t  # scikit-learn's own dependency
    return float(t), float(2 * student_t.sf(abs(t), len(d) - 1))

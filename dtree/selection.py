"""Unbiased attribute selection, two steps: test, then cut (Loh & Shih 1997; Hothorn, Hornik &
Zeileis 2006).

An exhaustive search (ID3, C4.5, CART) scores every cut of every attribute and takes the best
score; an attribute with more distinct values offers more cuts, so under the null hypothesis
(no attribute says anything about the class) it wins more often (Strobl et al. 2007; Loh
2014). The two-step rule first chooses the attribute by a test of independence from the class,
whose p-value does not grow with the number of cuts, and only then searches that attribute's
cuts. Conditional inference trees (``ctree``) use the permutation test of Strasser & Weber
(1999) and stop when no p-value, adjusted for the number of attributes tested, is below
``alpha``: this module gives that
test and the choice at one node.

Growing a whole tree this way needs one hook in the grower (``dtree.grow``): a rule that,
given a node's rows, names the attribute to split (or none, to stop) before the cut search,
which would then score that attribute's cuts only.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["independence_test", "TwoStepChoice", "two_step_choice"]


def _influence(column: pd.Series) -> np.ndarray:
    """g(x): the value for a number, one indicator column per category (ctree's defaults)."""
    if pd.api.types.is_numeric_dtype(column) and not isinstance(column.dtype,
                                                                pd.CategoricalDtype):
        return column.to_numpy(float)[:, None]
    codes = pd.Categorical(column).codes
    return np.eye(codes.max() + 1)[codes]


def independence_test(x, y, sample_weight=None) -> tuple[float, float, int]:
    """Strasser & Weber's (1999) test of independence of an attribute ``x`` and the class
    ``y``, with ctree's quadratic statistic (Hothorn et al. 2006, sec. 3; partykit's
    ``ctree``, ``teststat = "quadratic"``) and its asymptotic chi-square p-value. Rows where x
    is missing are left out. With g(x) (x itself, or a category's indicators) and h(y) the
    class indicators, w the total weight::

        T = sum_i w_i g(x_i) h(y_i)^T,   mu = (sum_i w_i g(x_i)) E(h)^T,
        Sigma = w/(w-1) V(h) (x) sum_i w_i g_i g_i^T
                - 1/(w-1) V(h) (x) (sum_i w_i g_i)(sum_i w_i g_i)^T,
        c = (T - mu)^T Sigma^+ (T - mu),   p = P(chi2_df > c),  df = rank(Sigma).

    Returns
    -------
    tuple
        (c, p, df): the statistic, its p-value and its degrees of freedom.
    """
    x = pd.Series(x).reset_index(drop=True)
    known = x.notna().to_numpy()
    w = np.ones(len(x)) if sample_weight is None else np.asarray(sample_weight, float)
    w = w[known]
    g = _influence(x[known])
    h = np.eye(len(pd.unique(np.asarray(y))))[pd.Categorical(np.asarray(y)).codes][known]
    total = w.sum()
    T = (g * w[:, None]).T @ h
    eh = (h * w[:, None]).sum(axis=0) / total
    mu = np.outer((g * w[:, None]).sum(axis=0), eh)
    vh = ((h - eh) * w[:, None]).T @ (h - eh) / total
    sg = (g * w[:, None]).sum(axis=0)
    sigma = (total / (total - 1) * np.kron((g * w[:, None]).T @ g, vh)
             - 1 / (total - 1) * np.kron(np.outer(sg, sg), vh))
    d = (T - mu).reshape(-1)  # row-major: index (j of g, k of h), as np.kron(G, V) orders them
    df = int(np.linalg.matrix_rank(sigma, tol=1e-10 * max(np.abs(sigma).max(), 1e-300)))
    statistic = float(d @ np.linalg.pinv(sigma, rcond=1e-10) @ d)
    from scipy.stats import chi2  # scikit-learn's own dependency
    return statistic, float(chi2.sf(statistic, df)) if df else 1.0, df


@dataclass(frozen=True)
class TwoStepChoice:
    """The first step at a node: each attribute's test (``tests``: statistic, p-value, df and
    the p-value adjusted for m attributes, 1 - (1 - p)^m, as partykit's ``ctree`` adjusts it,
    at most Bonferroni's m p), the ``attribute`` of least p-value, and whether the node
    ``stops`` (no adjusted p-value below alpha)."""

    tests: pd.DataFrame
    attribute: str | None
    stops: bool


def two_step_choice(X: pd.DataFrame, y, sample_weight=None, alpha: float = 0.05
                    ) -> TwoStepChoice:
    """Step one of an unbiased split (ctree's at a node): test each column of ``X`` against
    ``y`` (:func:`independence_test`), adjust for the number of tests, and choose the
    attribute of least p-value; the node stops if even that is not below ``alpha``. Step
    two, the cut, is the usual search on that attribute alone (e.g.
    :func:`dtree.best_threshold`)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    rows = [independence_test(X[name], y, sample_weight) for name in X.columns]
    tests = pd.DataFrame(rows, index=list(map(str, X.columns)),
                         columns=["statistic", "p", "df"])
    with np.errstate(divide="ignore"):  # p = 1: log(0), and the adjusted p is 1
        tests["adjusted p"] = -np.expm1(len(tests) * np.log1p(-tests["p"].clip(upper=1.0)))
    best = str(tests["p"].idxmin())  # pandas takes the first of equal p-values
    stops = bool(tests.loc[best, "adjusted p"] >= alpha)
    return TwoStepChoice(tests, None if stops else best, stops)

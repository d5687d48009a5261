"""Only the ratios of the sample weights matter (issue 14): weights multiplied by 2^-1000 or
2^500, or all equal to 1e-200, grow the tree of the weights as given, node for node, with the
same predictions. Such weights are rescaled once at fit by a power of two
(``dtree._validation.check_sample_weight``); ordinary weights are used as given."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from dtree.tree import Node

ESTIMATORS = {
    "CARTClassifier": CARTClassifier,
    "CARTRegressor squared_error": lambda: CARTRegressor(criterion="squared_error"),
    "CARTRegressor absolute_error": lambda: CARTRegressor(criterion="absolute_error"),
    "C45Classifier": C45Classifier,
    "ID3Classifier": lambda: ID3Classifier(missing="fractional"),
}


def random_data(seed: int, regression: bool, n: int = 60):
    """A numeric column, a small-integer column and a categorical one, each with a few missing
    values, and labels (or targets) that depend on them, with noise."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(2)
    b = rng.integers(0, 4, size=n).astype(float)
    c = rng.choice(list("pqrst"), size=n).astype(object)
    signal = a + b / 2 + (c == "p") - (c == "s") + rng.normal(scale=0.7, size=n)
    a[rng.random(n) < 0.1], b[rng.random(n) < 0.1], c[rng.random(n) < 0.1] = np.nan, np.nan, None
    X = pd.DataFrame({"a": a, "b": b, "c": c})
    y = signal if regression else np.digitize(signal, [0.5, 1.5])
    return X, y, rng.uniform(0.1, 3.0, size=n)


def assert_same_tree(a: Node, b: Node, unit: float, exact: bool):
    """The same tests, rows and predictions node by node; the weighted counts of ``a`` are
    those of ``b`` times ``unit`` (``exact``: equal to the last bit, else to round-off)."""
    assert (a.feature, a.threshold, a.category_sets, a.n_samples, a.stop_reason) == (
        b.feature, b.threshold, b.category_sets, b.n_samples, b.stop_reason)
    if exact:
        assert a.weighted_n_samples == b.weighted_n_samples * unit
        np.testing.assert_array_equal(a.prediction, b.prediction)
    else:
        assert a.weighted_n_samples == pytest.approx(b.weighted_n_samples * unit, rel=1e-12)
        np.testing.assert_allclose(a.prediction, b.prediction, rtol=1e-12, atol=1e-14)
    assert len(a.children) == len(b.children)
    for child_a, child_b in zip(a.children, b.children):
        assert_same_tree(child_a, child_b, unit, exact)


def rescaled_unit(largest: float) -> float:
    """The documented rule: a largest weight m 2^e (1 <= m < 2) outside [2^-64, 2^64) makes the
    tree count in units of 2^e."""
    e = math.frexp(largest)[1] - 1
    return 1.0 if -64 <= e < 64 else 2.0 ** e


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("scale", [2.0 ** -1000, 2.0 ** 500])
def test_weights_scaled_by_a_power_of_two_grow_the_same_tree(name, scale, seed):
    X, y, w = random_data(seed, regression="Regressor" in name)
    given = ESTIMATORS[name]().fit(X, y, sample_weight=w)
    scaled = ESTIMATORS[name]().fit(X, y, sample_weight=w * scale)
    assert given.tree_.weighted_n_samples == pytest.approx(w.sum(), rel=1e-12)  # user units
    # the scaled tree counts w * scale in units of the rescaling
    unit = scale / rescaled_unit((w * scale).max())
    assert_same_tree(scaled.tree_.root, given.tree_.root, unit, exact=True)
    predict = "predict" if "Regressor" in name else "predict_proba"
    np.testing.assert_array_equal(getattr(scaled, predict)(X), getattr(given, predict)(X))


def clear_steps(seed: int, regression: bool, n: int = 60):
    """Targets that step with ``a > 0`` and ``c == "p"``, far above the noise: every split of a
    depth-2 tree has a clear winner, no near tie that round-off could flip."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "c": rng.choice(list("pqr"), size=n)})
    step = (4 * (X["a"] > 0) + 2 * (X["c"] == "p")).to_numpy()
    return X, step + rng.normal(scale=0.1, size=n) if regression else step


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name", ESTIMATORS)
def test_tiny_equal_weights_grow_the_unweighted_tree(name, seed):
    # 1e-200 = m 2^-665 with m = 1.53...: every row counts m instead of 1. m is not a power of
    # two, so sums round otherwise than with ones (as they do for weights 0.1), and only where
    # two candidate splits tie exactly could that pick the other one: the data has no such tie
    X, y = clear_steps(seed, regression="Regressor" in name)
    if name == "ID3Classifier":  # every value is a category: a and b in two
        X = X.assign(a=X["a"] > 0, b=X["b"] > 0)
    plain = ESTIMATORS[name]().set_params(max_depth=2).fit(X, y)
    tiny = ESTIMATORS[name]().set_params(max_depth=2).fit(X, y,
                                                          sample_weight=np.full(len(y), 1e-200))
    assert_same_tree(tiny.tree_.root, plain.tree_.root, 1e-200 / 2.0 ** -665, exact=False)
    predict = "predict" if "Regressor" in name else "predict_proba"
    np.testing.assert_allclose(getattr(tiny, predict)(X), getattr(plain, predict)(X),
                               rtol=1e-12, atol=1e-14)

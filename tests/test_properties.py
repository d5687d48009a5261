"""Hypothesis property tests: bounds, invariances and weight/repetition equivalences."""
from __future__ import annotations

from math import log2

import numpy as np
import pandas as pd
import pytest
from handcalc import brute_force
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dtree import (ID3Classifier, best_threshold, entropy, gain_ratio, gini, gini_index,
                   info_gain, intrinsic_value, misclassification)

LABELS = ["a", "b", "c", "是", "否"]
VALUES = ["p", "q", "r", "s", None]
EPS = 1e-12


@st.composite
def rows(draw, min_size=1, max_size=25, missing=True, labels=LABELS):
    """(x, y, w): a categorical attribute (None = missing), labels and positive weights."""
    n = draw(st.integers(min_size, max_size))
    values = VALUES if missing else VALUES[:-1]
    x = draw(st.lists(st.sampled_from(values), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    w = draw(st.lists(st.floats(0.01, 100, allow_nan=False, allow_infinity=False),
                      min_size=n, max_size=n))
    return x, y, w


@st.composite
def integer_weighted_rows(draw):
    x, y, _ = draw(rows())
    w = draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y)))
    assume(sum(w) > 0)
    return x, y, w


# ---------------------------------------------------------------------------------- bounds
@given(rows())
def test_impurity_bounds(data):
    _, y, w = data
    k = len(set(y))
    for weights in (None, w):
        h = entropy(y, sample_weight=weights)
        assert -EPS <= h <= log2(k) + EPS
        assert -EPS <= gini(y, sample_weight=weights) <= 1 - 1 / k + EPS
        assert -EPS <= misclassification(y, sample_weight=weights) <= 1 - 1 / k + EPS


@given(rows())
def test_uniform_labels_reach_the_entropy_bound(data):
    _, y, _ = data
    k = len(set(y))
    balanced = sorted(set(y)) * 3
    assert entropy(balanced) == pytest.approx(log2(k), abs=1e-12)
    assert gini(balanced) == pytest.approx(1 - 1 / k, abs=1e-12)


@given(rows())
def test_info_gain_bounds(data):
    x, y, w = data
    for weights in (None, w):
        g = info_gain(x, y, sample_weight=weights)
        assert -EPS <= g <= entropy(y, sample_weight=weights) + EPS


@given(rows())
def test_intrinsic_value_and_gain_ratio_bounds(data):
    x, y, w = data
    groups = len(set(v for v in x if v is not None)) + (None in x)
    iv = intrinsic_value(x, sample_weight=w)
    assert -EPS <= iv <= log2(groups) + EPS
    gr = gain_ratio(x, y, sample_weight=w)
    assert gr >= -EPS
    if iv > 1e-9:
        assert gr == pytest.approx(info_gain(x, y, sample_weight=w) / iv, rel=1e-9, abs=1e-12)
    assert 0 - EPS <= gini_index(x, y, sample_weight=w) <= 1


@given(rows())
def test_missing_gain_is_rho_times_known_gain(data):
    x, y, w = data
    known = [i for i, v in enumerate(x) if v is not None]
    assume(known)
    rho = sum(w[i] for i in known) / sum(w)
    on_known = info_gain([x[i] for i in known], [y[i] for i in known],
                         sample_weight=[w[i] for i in known])
    assert info_gain(x, y, sample_weight=w) == pytest.approx(rho * on_known, rel=1e-9, abs=1e-12)


# ----------------------------------------------------------------------------- invariances
@given(rows(), st.randoms(use_true_random=False))
def test_permuting_rows_changes_no_score(data, random):
    x, y, w = data
    order = list(range(len(y)))
    random.shuffle(order)
    px, py, pw = [x[i] for i in order], [y[i] for i in order], [w[i] for i in order]
    for f in (info_gain, gain_ratio, gini_index):
        assert f(px, py, sample_weight=pw) == pytest.approx(f(x, y, sample_weight=w),
                                                           rel=1e-9, abs=1e-12)
    assert intrinsic_value(px, pw) == pytest.approx(intrinsic_value(x, w), rel=1e-9, abs=1e-12)
    assert entropy(py, pw) == pytest.approx(entropy(y, w), rel=1e-9, abs=1e-12)


@given(rows(), st.sampled_from([1e-3, 0.5, 3.0, 1e4]))
def test_scaling_weights_changes_nothing(data, c):
    x, y, w = data
    cw = [c * v for v in w]
    for f in (info_gain, gain_ratio, gini_index):
        assert f(x, y, sample_weight=cw) == pytest.approx(f(x, y, sample_weight=w),
                                                         rel=1e-9, abs=1e-12)
    for f in (entropy, gini, misclassification):
        assert f(y, sample_weight=cw) == pytest.approx(f(y, sample_weight=w), rel=1e-9, abs=1e-12)
    assert intrinsic_value(x, cw) == pytest.approx(intrinsic_value(x, w), rel=1e-9, abs=1e-12)


@given(integer_weighted_rows())
def test_integer_weights_equal_repetition(data):
    x, y, w = data
    rx = [v for v, k in zip(x, w) for _ in range(k)]
    ry = [v for v, k in zip(y, w) for _ in range(k)]
    for f in (info_gain, gain_ratio, gini_index):
        assert f(x, y, sample_weight=w) == pytest.approx(f(rx, ry), rel=1e-9, abs=1e-12)
    assert entropy(y, sample_weight=w) == pytest.approx(entropy(ry), rel=1e-9, abs=1e-12)
    assert intrinsic_value(x, w) == pytest.approx(intrinsic_value(rx), rel=1e-9, abs=1e-12)


# -------------------------------------------------------------------------- best_threshold
@st.composite
def numeric_rows(draw):
    n = draw(st.integers(2, 20))
    x = draw(st.lists(st.integers(0, 12).map(lambda v: v / 4), min_size=n, max_size=n))
    assume(len(set(x)) >= 2)
    y = draw(st.lists(st.sampled_from(LABELS[:3]), min_size=n, max_size=n))
    w = draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))
    return x, y, w


@given(numeric_rows(), st.sampled_from(["info_gain", "gain_ratio", "gini"]))
def test_best_threshold_equals_brute_force(data, criterion):
    x, y, w = data
    _, best_t, best_score = brute_force(x, y, criterion, w)
    t, score = best_threshold(x, y, criterion, sample_weight=w)
    assert score == pytest.approx(best_score, abs=1e-9)
    # the returned cut scores the best (a near-tie may be resolved either way)
    candidates = dict(brute_force(x, y, criterion, w)[0])
    assert candidates[t] == pytest.approx(best_score, abs=1e-9)


# ------------------------------------------------------------------------------------ trees
@st.composite
def tables(draw, max_rows=14):
    """Up to max_rows rows of three columns, with None (missing) among the values but at least
    one known value per column (fit refuses a column with none): the models of the tests below
    opt in to fractional missing values (ID3Classifier(missing="fractional"))."""
    n = draw(st.integers(2, max_rows))
    columns = {name: draw(st.lists(st.sampled_from(VALUES[:3] + [None]), min_size=n, max_size=n)
                          .filter(lambda c: any(v is not None for v in c)))
               for name in ("u", "v", "w")}
    y = draw(st.lists(st.sampled_from(LABELS[:3]), min_size=n, max_size=n))
    return pd.DataFrame(columns), np.array(y, dtype=object)


def _proba(model, X):
    return model.predict_proba(X)


@settings(max_examples=30)
@given(tables(), st.randoms(use_true_random=False))
def test_permuting_rows_keeps_the_fitted_predictions(data, random):
    X, y = data
    order = list(range(len(y)))
    random.shuffle(order)
    a = ID3Classifier(missing="fractional").fit(X, y)
    b = ID3Classifier(missing="fractional").fit(X.iloc[order].reset_index(drop=True), y[order])
    np.testing.assert_allclose(_proba(a, X), _proba(b, X), atol=1e-9)
    assert a.get_n_leaves() == b.get_n_leaves() and a.get_depth() == b.get_depth()


@settings(max_examples=30)
@given(tables(), st.sampled_from([0.25, 3.0, 1000.0]))
def test_scaling_weights_keeps_the_fitted_tree(data, c):
    X, y = data
    w = np.arange(1, len(y) + 1, dtype=float)
    a = ID3Classifier(missing="fractional").fit(X, y, sample_weight=w)
    b = ID3Classifier(missing="fractional").fit(X, y, sample_weight=c * w)
    np.testing.assert_allclose(_proba(a, X), _proba(b, X), atol=1e-9)
    assert [n.feature for n in a.tree_.walk()] == [n.feature for n in b.tree_.walk()]


@settings(max_examples=30)
@given(tables(), st.data())
def test_tree_integer_weights_equal_repetition(data, draw):
    X, y = data
    w = np.array(draw.draw(st.lists(st.integers(1, 3), min_size=len(y), max_size=len(y))))
    a = ID3Classifier(missing="fractional").fit(X, y, sample_weight=w)
    b = ID3Classifier(missing="fractional").fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    np.testing.assert_allclose(_proba(a, X), _proba(b, X), atol=1e-9)
    assert a.tree_.weighted_n_samples == pytest.approx(w.sum())


@settings(max_examples=30)
@given(tables(), tables())
def test_predict_proba_is_a_distribution(train, test):
    X, y = train
    model = ID3Classifier(missing="fractional").fit(X, y)
    proba = model.predict_proba(test[0])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    assert (proba >= -1e-12).all()
    assert set(model.predict(test[0])) <= set(model.classes_)


def _reference_proba(node, row: dict) -> np.ndarray:
    """Prediction by the definition, recursively: a known value follows its branch; a missing or
    unseen one follows every branch, weighted by the branch fractions (Quinlan 1993)."""
    if node.is_leaf:
        return node.prediction
    value = row[node.feature]
    for categories, child in zip(node.category_sets, node.children):
        if value in categories:
            return _reference_proba(child, row)
    return sum(fraction * _reference_proba(child, row)
               for fraction, child in zip(node.branch_fractions, node.children))


@settings(max_examples=30)
@given(tables(), tables())
def test_predict_proba_follows_the_definition(train, test):
    X, y = train
    model = ID3Classifier(missing="fractional").fit(X, y)
    expected = [_reference_proba(model.tree_.root, row) for row in test[0].to_dict("records")]
    np.testing.assert_allclose(model.predict_proba(test[0]), expected, atol=1e-12)

"""Bad input: a clear ValueError/TypeError naming the problem; the caller's data untouched."""
from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from sklearn.exceptions import DataConversionWarning

from dtree import ID3Classifier, entropy, info_gain, intrinsic_value


def _equal(a, b) -> bool:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
        return True
    if isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b)
        return True
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        missing = pd.isna(a)
        assert (missing == pd.isna(b)).all()
        assert (a[~missing] == b[~missing]).all()
        return True
    if scipy.sparse.issparse(a):
        assert (a != b).nnz == 0
        return True
    assert type(a) is type(b)
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, z in zip(a, b):
            assert x == z or (x != x and z != z) or _equal(x, z)
        return True
    assert a == b
    return True


def call_untouched(function, *args, **kwargs):
    """Call function and assert that none of its arguments changed; return its result."""
    before = copy.deepcopy((args, kwargs))
    try:
        return function(*args, **kwargs)
    finally:
        for old, new in zip(before[0], args):
            _equal(old, new)
        for key in kwargs:
            _equal(before[1][key], kwargs[key])


def raises_untouched(error, match, function, *args, **kwargs):
    with pytest.raises(error, match=match):
        call_untouched(function, *args, **kwargs)


def fit(X, y, **kw):
    return ID3Classifier().fit(X, y, **kw)


# ------------------------------------------------------------------------------ X and y at fit
def test_empty_dataframe(wm20):
    X, y = wm20
    raises_untouched(ValueError, "empty", fit, X.iloc[:0], y.iloc[:0])


def test_empty_array():
    raises_untouched(ValueError, "empty", fit, np.empty((0, 3)), np.array([]))


def test_no_features():
    raises_untouched(ValueError, "0 feature", fit, np.empty((3, 0)), np.array([1, 2, 3]))


def test_length_mismatch(wm20):
    X, y = wm20
    raises_untouched(ValueError, "17 rows but y has 16", fit, X, y.iloc[:16])
    raises_untouched(ValueError, "rows", fit, X.iloc[:5], y)


@pytest.mark.parametrize("missing", [np.nan, None])
def test_missing_label(wm20, missing):
    X, y = wm20
    y = y.astype(object)
    y.iloc[3] = missing
    raises_untouched(ValueError, "missing", fit, X, y)
    raises_untouched(ValueError, "missing", fit, X, y.to_numpy(dtype=object))
    raises_untouched(ValueError, "missing", fit, X, list(y))


def test_one_dimensional_x():
    raises_untouched(ValueError, "2-D", fit, np.array(["a", "b", "a"]), np.array([0, 1, 0]))
    raises_untouched(ValueError, "2-D", fit, ["a", "b", "a"], [0, 1, 0])


def test_y_none(wm20):
    X, _ = wm20
    raises_untouched(ValueError, "y", fit, X, None)


def test_two_column_y(wm20):
    X, y = wm20
    raises_untouched(ValueError, "one-dimensional", fit, X, np.column_stack([y, y]))


def test_column_vector_y_warns_and_works(wm20):
    X, y = wm20
    with pytest.warns(DataConversionWarning):
        model = fit(X, y.to_numpy().reshape(-1, 1))
    assert model.get_n_leaves() == 9


def test_continuous_y_is_not_a_class_label():
    raises_untouched(ValueError, "Unknown label type", fit, np.array([["a"], ["b"], ["c"]]),
                     np.array([0.1, 0.25, 0.3]))


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_infinity_in_x(bad):
    X = pd.DataFrame({"a": [1.0, bad, 2.0], "b": ["p", "q", "p"]})
    raises_untouched(ValueError, "infinity.*'a'", fit, X, ["y", "n", "y"])
    raises_untouched(ValueError, "infinity", fit, np.array([[1.0], [bad]]), ["y", "n"])


def test_sparse_x():
    raises_untouched(TypeError, "sparse", fit, scipy.sparse.csr_matrix(np.eye(3)), [0, 1, 2])


def test_complex_x():
    raises_untouched(ValueError, "Complex", fit, np.array([[1 + 1j], [2]]), [0, 1])


def test_unorderable_mixed_column():
    X = np.array([["a"], [1], ["b"]], dtype=object)
    raises_untouched(TypeError, "cannot be ordered", fit, X, [0, 1, 0])


def test_successful_fit_and_predict_do_not_touch_inputs(wm20a):
    X, y = wm20a
    w = np.linspace(0.5, 2.0, 17)
    model = call_untouched(ID3Classifier().fit, X, y, sample_weight=w)
    call_untouched(model.predict_proba, X)
    arr = X.to_numpy(dtype=object)
    call_untouched(ID3Classifier().fit, arr, list(y))


# ------------------------------------------------------------------------------ sample weights
@pytest.mark.parametrize("bad, match", [
    (-1.0, "negative"), (np.nan, "NaN"), (np.inf, "infinite"), (-np.inf, "infinite")])
def test_bad_sample_weight_values(wm20, bad, match):
    X, y = wm20
    w = np.ones(17)
    w[4] = bad
    raises_untouched(ValueError, match, fit, X, y, sample_weight=w)


def test_wrong_length_sample_weight(wm20):
    X, y = wm20
    raises_untouched(ValueError, "sample_weight", fit, X, y, sample_weight=np.ones(16))
    raises_untouched(ValueError, "sample_weight", fit, X, y, sample_weight=np.ones((17, 1)))


def test_all_zero_sample_weight(wm20):
    X, y = wm20
    raises_untouched(ValueError, "zero", fit, X, y, sample_weight=np.zeros(17))


def test_non_numeric_sample_weight(wm20):
    X, y = wm20
    raises_untouched(TypeError, "numbers", fit, X, y, sample_weight=["a"] * 17)


def test_scalar_sample_weight_is_every_row(wm20):
    X, y = wm20
    assert fit(X, y, sample_weight=2.0).tree_.weighted_n_samples == 34


@pytest.mark.parametrize("bad", [np.nan, np.inf, -1.0])
def test_bad_scalar_sample_weight_fit(wm20, bad):
    X, y = wm20
    with pytest.raises(ValueError, match="sample_weight contains"):
        fit(X, y, sample_weight=bad)


@pytest.mark.parametrize("bad", [np.nan, -1.0])
def test_bad_scalar_sample_weight_entropy(bad):
    with pytest.raises(ValueError, match="sample_weight contains"):
        entropy(["a", "b"], sample_weight=bad)


@pytest.mark.parametrize("function", [entropy, intrinsic_value])
def test_public_functions_check_weights(function):
    with pytest.raises(ValueError, match="negative"):
        function(["a", "b"], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="NaN or infinite"):
        function(["a", "b"], sample_weight=[1, np.nan])
    with pytest.raises(ValueError, match="sample_weight has shape"):
        function(["a", "b"], sample_weight=[1, 1, 1])


def test_info_gain_does_not_touch_inputs():
    x = ["a", None, "b"]
    y = np.array(["p", "q", "p"])
    w = np.array([1.0, 2.0, 3.0])
    call_untouched(info_gain, x, y, sample_weight=w)


# -------------------------------------------------------------------------------- parameters
@pytest.mark.parametrize("params, match", [
    ({"max_depth": -1}, "max_depth"),
    ({"max_depth": 1.5}, "max_depth"),
    ({"min_samples_split": 1}, "min_samples_split"),
    ({"min_samples_split": 2.5}, "min_samples_split"),
    ({"min_impurity_decrease": -0.1}, "min_impurity_decrease"),
    ({"purity_threshold": 0}, "purity_threshold"),
    ({"purity_threshold": 1.01}, "purity_threshold"),
    ({"purity_threshold": np.nan}, "purity_threshold"),
    ({"tie_break": ["texture", "smell"]}, r"tie_break.*smell"),
    ({"tie_break": "last"}, "tie_break"),
])
def test_bad_params(wm20, params, match):
    X, y = wm20
    raises_untouched(ValueError, match, ID3Classifier(**params).fit, X, y)


def test_nan_min_impurity_decrease_is_rejected(wm20):
    X, y = wm20
    with pytest.raises(ValueError, match="min_impurity_decrease"):
        ID3Classifier(min_impurity_decrease=np.nan).fit(X, y)


def test_params_are_checked_at_fit_not_init():
    model = ID3Classifier(max_depth=-1)  # scikit-learn convention: __init__ only stores
    assert model.max_depth == -1


# ------------------------------------------------------------------------------- at predict
@pytest.fixture
def fitted(wm20):
    X, y = wm20
    return ID3Classifier().fit(X, y), X


def test_predict_with_a_column_unseen_at_fit(fitted):
    model, X = fitted
    renamed = X.rename(columns={"touch": "feel"})
    raises_untouched(ValueError, "feature names", model.predict, renamed)


def test_predict_with_a_column_missing(fitted):
    model, X = fitted
    raises_untouched(ValueError, "feature", model.predict, X.drop(columns="navel"))


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")
def test_predict_with_wrong_number_of_columns(fitted):
    model, X = fitted
    raises_untouched(ValueError, "7 features.*expecting 6", model.predict,
                     np.hstack([X.to_numpy(), X.to_numpy()[:, :1]]))
    raises_untouched(ValueError, "features", model.predict_proba, X.to_numpy()[:, :5])


def test_predict_one_dimensional(fitted):
    model, X = fitted
    raises_untouched(ValueError, "2-D", model.predict, X.iloc[0].to_numpy())


def test_predict_empty(fitted):
    model, X = fitted
    raises_untouched(ValueError, "empty", model.predict, X.iloc[:0])

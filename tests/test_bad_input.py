"""Bad input, in one table: each case gets a clear error that names the problem, or a documented
result; no case changes the caller's data.

``ERRORS`` lists (description, function, args, kwargs, exception type, message regex). ``RESULTS``
lists documented results of odd input as (description, function, args, kwargs, check). Every row
deep-copies its arguments first and asserts afterwards that they are unchanged.
"""
from __future__ import annotations

import copy
import warnings
from typing import Any, Callable, NamedTuple

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from handcalc import G, H, gain, split_info
from sklearn.exceptions import DataConversionWarning, NotFittedError

from dtree import (C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier, entropy,
                   export_text, gain_ratio, gini, gini_index, info_gain, intrinsic_value,
                   misclassification)
from dtree.datasets import load_watermelon

X, Y = load_watermelon("2.0", return_X_y=True)  # 17 melons, 6 categorical columns, "yes"/"no"
XA, YA = load_watermelon("2.0alpha", return_X_y=True)  # the same with missing values
X3, Y3 = load_watermelon("3.0", return_X_y=True)  # the same with numeric density and sugar
W = np.linspace(0.5, 2.0, 17)
NUMERIC = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": ["p", "q", "p"]})
IMPURITIES = [entropy, gini, misclassification]
SCORES = [info_gain, gain_ratio, gini_index]


def fit(X, y, **kw):
    return ID3Classifier().fit(X, y, **kw)


def fitted(X=X, y=Y, **params) -> ID3Classifier:
    return ID3Classifier(**params).fit(X, y)


def fit_c45(X, y, **kw):
    return C45Classifier().fit(X, y, **kw)


def fitted_c45(X=X3, y=Y3, **params) -> C45Classifier:
    return C45Classifier(**params).fit(X, y)


def with_column(frame: pd.DataFrame, column: str, values) -> pd.DataFrame:
    """A copy of ``frame`` with one column replaced (a list becomes an object column)."""
    values = pd.Series(values, index=frame.index, dtype=object if isinstance(values, list)
                       else None)
    return frame.assign(**{column: values})


def with_density(position: int, value) -> pd.DataFrame:
    """Watermelon 3.0 with density as an object column whose value at ``position`` is replaced."""
    density = X3["density"].astype(object).tolist()
    density[position] = value
    return with_column(X3, "density", density)


def with_cell(frame: pd.DataFrame, column: str, value) -> pd.DataFrame:
    """A copy of the first row of ``frame`` with one cell replaced (any object, even a list)."""
    row = frame.iloc[:1].astype(object)
    row[column] = pd.Series([value], index=row.index, dtype=object)
    return row


def set_weight(position: int, value) -> np.ndarray:
    w = np.ones(17)
    w[position] = value
    return w


# ------------------------------------------------------------------------------- the errors
class Case(NamedTuple):
    description: str
    function: Callable
    args: tuple
    kwargs: dict
    error: type[Exception]
    match: str


def case(description, function, *args, error, match, **kwargs) -> Case:
    return Case(description, function, args, kwargs, error, match)


ERRORS = [
    # X and y at fit
    case("empty DataFrame", fit, X.iloc[:0], Y.iloc[:0], error=ValueError, match="empty"),
    case("empty array", fit, np.empty((0, 3)), np.array([]), error=ValueError, match="empty"),
    case("no columns", fit, np.empty((3, 0)), np.array([1, 2, 3]), error=ValueError,
         match="0 feature"),
    case("y shorter than X", fit, X, Y.iloc[:16], error=ValueError, match="17 rows but y has 16"),
    case("X shorter than y", fit, X.iloc[:5], Y, error=ValueError, match="5 rows but y has 17"),
    case("missing label (NaN)", fit, X, Y.astype(object).mask(Y.index == 4), error=ValueError,
         match="y contains missing"),
    case("missing label (None in a list)", fit, X, [None] + list(Y[1:]), error=ValueError,
         match="y contains missing"),
    case("1-D X", fit, np.array(["a", "b", "a"]), np.array([0, 1, 0]), error=ValueError,
         match="2-D"),
    case("1-D X as a list", fit, ["a", "b", "a"], [0, 1, 0], error=ValueError, match="2-D"),
    case("y is None", fit, X, None, error=ValueError, match="y to be passed"),
    case("two-column y", fit, X, np.column_stack([Y, Y]), error=ValueError,
         match="one-dimensional"),
    case("continuous y", fit, np.array([["a"], ["b"], ["c"]]), np.array([0.1, 0.25, 0.3]),
         error=ValueError, match="Unknown label type: continuous"),
    case("+inf in a numeric column", fit, NUMERIC.replace(2.0, np.inf), ["y", "n", "y"],
         error=ValueError, match="infinity in column 'a'"),
    case("-inf in a numeric array", fit, np.array([[1.0], [-np.inf]]), ["y", "n"],
         error=ValueError, match="infinity in column 'x0'"),
    *[case(f"sparse y as a {shape} ({estimator.__name__})", estimator().fit,
           np.array([[1.0], [2.0], [3.0]]), sparse, error=TypeError,
           match="y is a sparse matrix, and sparse matrices are not supported")
      for estimator in (ID3Classifier, C45Classifier, CARTClassifier, CARTRegressor)
      for shape, sparse in (("row", scipy.sparse.csr_matrix([[0.0, 1.0, 1.0]])),
                            ("column", scipy.sparse.csc_matrix([[0.0], [1.0], [1.0]])))],
    case("complex X", fit, np.array([[1 + 1j], [2]]), [0, 1], error=ValueError,
         match="Complex"),
    case("strings and numbers in one column", fit, np.array([["a"], [1], ["b"]], dtype=object),
         [0, 1, 0], error=TypeError,
         match="column 'x0' mixes numbers and strings, e.g. 1 and 'a': .* pd.to_numeric"),
    case("unhashable cell at fit", fit, pd.concat([X.astype(object), with_cell(X, "navel", [1])]),
         list(Y) + ["yes"], error=TypeError, match="column 'navel' .* cannot be hashed"),
    case("repeated column names", fit, X.set_axis(["a", "b", "a", "c", "d", "e"], axis=1), Y,
         error=ValueError, match=r"repeated column names: \['a'\]"),
    case("column names of mixed types", fit, X.set_axis(["a", 1, "b", "c", "d", "e"], axis=1), Y,
         error=TypeError, match="string names"),
    # C4.5 and its numeric columns. A column mixing numbers and strings is neither numeric nor
    # categorical (a column of strings only, numeric-looking or not, is categorical: see RESULTS;
    # a column with every value missing is accepted: test_all_missing_column.py)
    case("text in a numeric object column (C4.5)", fit_c45, with_density(2, "abc"), Y3,
         error=TypeError, match="column 'density' mixes numbers and strings, e.g. 0.697 and 'abc'"),
    case("a numeric string among floats (C4.5)", fit_c45, with_density(2, "0.634"), Y3,
         error=TypeError, match="column 'density' mixes numbers and strings, e.g. .* '0.634'"),
    case("text among numbers in an object array (C4.5)", fit_c45,
         np.array([[1.5], [2.0], ["abc"]], dtype=object), ["y", "n", "y"], error=TypeError,
         match="column 'x0' mixes numbers and strings, e.g. 1.5 and 'abc'"),
    case("+inf in a numeric column (C4.5)", fit_c45, X3.replace(0.697, np.inf), Y3,
         error=ValueError, match="infinity in column 'density'"),
    case("-inf in an object column of numbers (C4.5)", fit_c45, with_density(3, -np.inf), Y3,
         error=ValueError, match="infinity in column 'density'"),
    case("-inf in an object column of numbers (ID3)", fit, with_density(3, -np.inf), Y3,
         error=ValueError, match="infinity in column 'density'"),
    case("+inf at predict (C4.5)", fitted_c45().predict, X3.replace(0.697, np.inf),
         error=ValueError, match="infinity in column 'density'"),
    case("-inf in an object column at predict (C4.5)", fitted_c45().predict_proba,
         with_density(3, -np.inf), error=ValueError, match="infinity in column 'density'"),
    case("text in a numeric column at predict (C4.5)", fitted_c45().predict,
         with_density(2, "abc"), error=TypeError,
         match="column 'density' was numeric at fit but now holds non-numbers, e.g. 'abc'"),
    case("a string column where a numeric one was (C4.5)", fitted_c45().predict,
         X3.astype({"density": str}), error=TypeError,
         match="column 'density' was numeric at fit .* e.g. '0.697' \\(dtype str\\)"),
    # sample weights
    case("negative weight", fit, X, Y, sample_weight=set_weight(4, -1.0), error=ValueError,
         match="negative"),
    case("NaN weight", fit, X, Y, sample_weight=set_weight(4, np.nan), error=ValueError,
         match="NaN or infinite"),
    case("infinite weight", fit, X, Y, sample_weight=set_weight(4, np.inf), error=ValueError,
         match="NaN or infinite"),
    case("-inf weight", fit, X, Y, sample_weight=set_weight(4, -np.inf), error=ValueError,
         match="NaN or infinite"),
    case("NaN as the single weight", fit, X, Y, sample_weight=np.nan, error=ValueError,
         match="NaN or infinite"),
    case("-1 as the single weight", fit, X, Y, sample_weight=-1.0, error=ValueError,
         match="negative"),
    case("too few weights", fit, X, Y, sample_weight=np.ones(16), error=ValueError,
         match=r"sample_weight has shape \(16,\), expected \(17,\)"),
    case("a column of weights", fit, X, Y, sample_weight=np.ones((17, 1)), error=ValueError,
         match="sample_weight has shape"),
    case("all weights zero", fit, X, Y, sample_weight=np.zeros(17), error=ValueError,
         match="sample_weight sums to zero"),
    case("weights as strings", fit, X, Y, sample_weight=["a"] * 17, error=TypeError,
         match="sample_weight must contain real numbers, got 'a'"),
    case("the weight '1'", fit, X, Y, sample_weight="1", error=TypeError,
         match="sample_weight must contain real numbers, got '1'"),
    case("a string among number weights", fit, X, Y,
         sample_weight=np.array([1] * 16 + ["2"], dtype=object),
         error=TypeError, match="sample_weight must contain real numbers, got '2'"),
    case("complex weights", fit, X, Y, sample_weight=np.ones(17) * 1j, error=TypeError,
         match="sample_weight must contain real numbers"),
    # parameters: a wrong type is a TypeError (booleans are not numbers), a bad value a ValueError
    case("max_depth -1", ID3Classifier(max_depth=-1).fit, X, Y, error=ValueError,
         match="max_depth must be None or an integer >= 0, got -1"),
    case("max_depth 1.5", ID3Classifier(max_depth=1.5).fit, X, Y, error=TypeError,
         match="max_depth .* got 1.5"),
    case("max_depth True", ID3Classifier(max_depth=True).fit, X, Y, error=TypeError,
         match="max_depth .* got True"),
    case("max_depth '3'", ID3Classifier(max_depth="3").fit, X, Y, error=TypeError,
         match="max_depth .* got '3'"),
    case("min_samples_split 1", ID3Classifier(min_samples_split=1).fit, X, Y, error=ValueError,
         match="min_samples_split must be an integer >= 2, got 1"),
    case("min_samples_split 2.5", ID3Classifier(min_samples_split=2.5).fit, X, Y,
         error=TypeError, match="min_samples_split .* got 2.5"),
    case("min_samples_split True", ID3Classifier(min_samples_split=True).fit, X, Y,
         error=TypeError, match="min_samples_split .* got True"),
    case("min_impurity_decrease -0.1", ID3Classifier(min_impurity_decrease=-0.1).fit, X, Y,
         error=ValueError, match=r"min_impurity_decrease must be a number in \[0, inf\]"),
    case("min_impurity_decrease NaN", ID3Classifier(min_impurity_decrease=np.nan).fit, X, Y,
         error=ValueError, match="min_impurity_decrease .* got nan"),
    case("min_impurity_decrease True", ID3Classifier(min_impurity_decrease=True).fit, X, Y,
         error=TypeError, match="min_impurity_decrease .* got True"),
    case("min_impurity_decrease None", ID3Classifier(min_impurity_decrease=None).fit, X, Y,
         error=TypeError, match="min_impurity_decrease .* got None"),
    case("purity_threshold 0", ID3Classifier(purity_threshold=0).fit, X, Y, error=ValueError,
         match=r"purity_threshold must be a number in \(0, 1\], got 0"),
    case("purity_threshold 1.01", ID3Classifier(purity_threshold=1.01).fit, X, Y,
         error=ValueError, match="purity_threshold .* got 1.01"),
    case("purity_threshold NaN", ID3Classifier(purity_threshold=np.nan).fit, X, Y,
         error=ValueError, match="purity_threshold .* got nan"),
    case("purity_threshold True", ID3Classifier(purity_threshold=True).fit, X, Y,
         error=TypeError, match="purity_threshold .* got True"),
    case("tie_break None", ID3Classifier(tie_break=None).fit, X, Y, error=TypeError,
         match="tie_break must be 'first' or a list of feature names, got None"),
    case("tie_break 5", ID3Classifier(tie_break=5).fit, X, Y, error=TypeError,
         match="tie_break .* got 5"),
    case("tie_break a set", ID3Classifier(tie_break={"touch"}).fit, X, Y, error=TypeError,
         match="tie_break .* got {'touch'}"),
    case("tie_break 'last'", ID3Classifier(tie_break="last").fit, X, Y, error=ValueError,
         match="tie_break .* got 'last'"),
    case("tie_break names an unknown feature", ID3Classifier(tie_break=["texture", "smell"]).fit,
         X, Y, error=ValueError, match=r"tie_break names features that X does not have: \['smell"),
    case("missing 'drop'", ID3Classifier(missing="drop").fit, X, Y, error=ValueError,
         match=r"missing must be one of \('error', 'fractional'\), got 'drop'"),
    # ID3 proper (missing="error") has no rule for missing values; colour is 2.0alpha's first
    # column with a gap
    case("a missing value at fit (ID3)", fit, XA, YA, error=ValueError,
         match=r"missing value \(None or NaN\) in column 'colour'.*C45Classifier.*"
               r"missing='fractional'"),
    # a failed refit (the model is checked to be unchanged in test_failed_refit_changes_nothing)
    case("refit with an unknown tie_break name",
         lambda X, y: fitted().set_params(tie_break=["zz"]).fit(X, y),
         NUMERIC, ["u", "v", "w"], error=ValueError, match=r"does not have: \['zz'\]"),
    # predict
    case("predict before fit", ID3Classifier().predict, X, error=NotFittedError,
         match="not fitted"),
    case("predict_proba before fit", ID3Classifier().predict_proba, X, error=NotFittedError,
         match="not fitted"),
    case("get_depth before fit", ID3Classifier().get_depth, error=NotFittedError,
         match="not fitted"),
    case("get_n_leaves before fit", ID3Classifier().get_n_leaves, error=NotFittedError,
         match="not fitted"),
    case("a column renamed", fitted().predict, X.rename(columns={"touch": "feel"}),
         error=ValueError, match="feature names should match"),
    case("a column dropped", fitted().predict, X.drop(columns="navel"), error=ValueError,
         match="feature names"),
    case("an extra column (array)", fitted(X.to_numpy(), Y).predict,
         np.hstack([X.to_numpy(), X.to_numpy()[:, :1]]), error=ValueError,
         match="X has 7 features, but ID3Classifier is expecting 6"),
    case("1-D X at predict", fitted().predict, X.iloc[0].to_numpy(), error=ValueError,
         match="2-D"),
    case("empty X at predict", fitted().predict, X.iloc[:0], error=ValueError, match="empty"),
    case("+inf at predict", fitted(NUMERIC, ["y", "n", "y"]).predict_proba,
         NUMERIC.replace(2.0, np.inf), error=ValueError, match="infinity in column 'a'"),
    case("unhashable cell at predict", fitted().predict, with_cell(X, "texture", [1]),
         error=TypeError, match="column 'texture' .* cannot be hashed"),
    case("a missing value at predict (ID3)", fitted().predict, with_cell(X, "touch", None),
         error=ValueError, match=r"missing value \(None or NaN\) in column 'touch'.*"
                                 r"C45Classifier.*missing='fractional'"),
    case("an unseen category at predict (ID3)", fitted().predict_proba,
         with_cell(X, "texture", "very blurry"), error=ValueError,
         match=r"the value 'very blurry', unseen at fit, in column 'texture'.*C45Classifier"),
    case("an unseen number at predict (ID3)", fitted(NUMERIC, ["y", "n", "y"]).predict,
         NUMERIC.replace(2.0, 2.5), error=ValueError,
         match="the value 2.5, unseen at fit, in column 'a'"),
    # the public functions
    *[case(f"{f.__name__} with all weights zero", f, ["a", "b"], sample_weight=[0, 0],
           error=ValueError, match="sample_weight sums to zero") for f in IMPURITIES],
    *[case(f"{f.__name__} with all weights zero", f, ["p", "q"], ["a", "b"],
           sample_weight=[0, 0], error=ValueError, match="sample_weight sums to zero")
      for f in SCORES],
    case("intrinsic_value with all weights zero", intrinsic_value, ["p", "q"],
         sample_weight=[0, 0], error=ValueError, match="sample_weight sums to zero"),
    case("entropy with the weight '1'", entropy, ["a", "b"], sample_weight="1", error=TypeError,
         match="sample_weight must contain real numbers"),
    case("entropy with a negative weight", entropy, ["a", "b"], sample_weight=[1, -1],
         error=ValueError, match="negative"),
    case("intrinsic_value with a NaN weight", intrinsic_value, ["a", "b"],
         sample_weight=[1, np.nan], error=ValueError, match="NaN or infinite"),
    case("entropy with too many weights", entropy, ["a", "b"], sample_weight=[1, 1, 1],
         error=ValueError, match="sample_weight has shape"),
    case("info_gain with an unhashable x", info_gain, [["a"], "b"], ["p", "q"], error=TypeError,
         match="x holds a value that cannot be hashed"),
]


def _equal(a, b) -> None:
    """Assert that a and b are equal, deeply, NaN equal to NaN."""
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        missing = pd.isna(a)
        assert (missing == pd.isna(b)).all()
        assert (a[~missing] == b[~missing]).all()
    elif scipy.sparse.issparse(a):
        assert (a != b).nnz == 0
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, z in zip(a, b):
            _equal(x, z)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _equal(a[key], b[key])
    else:
        assert a == b or (a != a and b != b)


def call_untouched(function: Callable, *args, **kwargs) -> Any:
    """Call function and assert, however it ends, that none of its arguments changed."""
    before = copy.deepcopy((args, kwargs))
    try:
        return function(*args, **kwargs)
    finally:
        _equal(before, (args, kwargs))


@pytest.mark.parametrize("row", ERRORS, ids=[row.description for row in ERRORS])
def test_bad_input_raises_a_clear_error(row: Case):
    with pytest.raises(row.error, match=row.match):
        call_untouched(row.function, *row.args, **row.kwargs)


def test_descriptions_are_unique():
    descriptions = [row.description for row in ERRORS + RESULTS]
    assert len(descriptions) == len(set(descriptions))


# ------------------------------------------------------------------------ documented results
class Result(NamedTuple):
    description: str
    function: Callable
    args: tuple
    kwargs: dict
    check: Callable[[Any], None]


def result(description, function, *args, check, **kwargs) -> Result:
    return Result(description, function, args, kwargs, check)


def same_tree_as(reference: ID3Classifier, X_check=X) -> Callable[[ID3Classifier], None]:
    """Check that a fitted model prints and predicts exactly as ``reference``."""
    def check(model):
        assert export_text(model) == export_text(reference)
        np.testing.assert_array_equal(model.predict_proba(X_check),
                                      reference.predict_proba(X_check))
        assert model._features == reference._features
    return check


def holds(predicate: Callable[[Any], bool]) -> Callable[[Any], None]:
    def check(value):
        assert predicate(value)
    return check


def equals(expected: float) -> Callable[[float], None]:
    def check(value):
        assert value == pytest.approx(expected, abs=1e-12)
    return check


def _warns(category, match):
    def call(X, y):
        with pytest.warns(category, match=match):
            return fit(X, y)
    return call


def _no_warning(function):
    def call(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return function(*args, **kwargs)
    return call


# Zero-weight rows are as if absent. Three extra melons, weight 0: two copies of melon 6 (clear,
# slightly curly), one of them "purple", and a copy of melon 17 with a straight root. With
# min_samples_split=4 the node {6, 8, 15} (clear, slightly curly) is a leaf; counting the
# zero-weight copies it would have 5 rows and split, and "purple" would be a category.
EXTRA = pd.DataFrame([X.loc[6].to_dict(), {**X.loc[6].to_dict(), "colour": "purple"},
                      {**X.loc[17].to_dict(), "root": "straight"}], index=[18, 19, 20])
X_EXTRA = pd.concat([X.astype(str), EXTRA])
Y_EXTRA = pd.concat([Y, pd.Series(["no", "yes", "yes"], index=[18, 19, 20], name=Y.name)])
W_EXTRA = np.r_[np.ones(17), np.zeros(3)]
MANY = pd.DataFrame({"a": [f"v{i % 5}" for i in range(50)], "b": [f"w{i % 7}" for i in range(50)]})
MANY_LABELS = [f"class {i % 25}" for i in range(50)]  # 25 classes, 2 rows each

RESULTS = [
    result("zero-weight rows are as if absent",
           ID3Classifier(min_samples_split=4, missing="fractional").fit,
           X_EXTRA, Y_EXTRA, sample_weight=W_EXTRA,
           check=same_tree_as(fitted(X.astype(str), Y, min_samples_split=4,
                                     missing="fractional"), X_EXTRA)),
    result("a missing value in a zero-weight row is as if absent (ID3)", fit,
           pd.concat([X, XA.loc[[1]]], ignore_index=True), pd.concat([Y, YA.loc[[1]]]),
           sample_weight=np.r_[np.ones(17), 0.0], check=same_tree_as(fitted())),
    result("weights whose sum overflows", fit, X, Y, sample_weight=np.full(17, 1e308),
           check=same_tree_as(ID3Classifier().fit(  # 1e308 = 1.11... x 2^1023, counted 1.11...
               X, Y, sample_weight=np.full(17, 1e308 / 2.0 ** 1023)))),
    result("subnormal weights", fit, X, Y, sample_weight=np.full(17, 5e-324),
           check=same_tree_as(fitted())),
    result("entropy, weights whose sum overflows", entropy, ["a", "b"] * 3,
           sample_weight=[1e308] * 6, check=equals(H(3, 3))),
    result("gini, weights whose sum overflows", gini, ["a", "b"] * 3, sample_weight=[1e308] * 6,
           check=equals(G(3, 3))),
    result("misclassification, weights whose sum overflows", misclassification, ["a", "b", "b"],
           sample_weight=[1e308] * 3, check=equals(1 / 3)),
    result("info_gain, weights whose sum overflows", info_gain, ["p", "p", "q", "q"],
           ["a", "b", "b", "b"], sample_weight=[1e308] * 4,
           check=equals(gain([(1, 1), (0, 2)]))),
    result("intrinsic_value, weights whose sum overflows", intrinsic_value, ["p", "q", "q"],
           sample_weight=[1e308] * 3, check=equals(split_info(1, 2))),
    result("entropy ignores a zero-weight row", entropy, ["a", "b", "c"], sample_weight=[1, 1, 0],
           check=equals(H(1, 1))),
    result("one number is every row's weight", fit, X, Y, sample_weight=2.0,
           check=holds(lambda model: model.tree_.weighted_n_samples == 34)),
    result("25 categorical classes in 50 rows: no regression warning", _no_warning(fit), MANY,
           MANY_LABELS, check=holds(lambda model: len(model.classes_) == 25)),
    result("a column-vector y warns and is used", _warns(DataConversionWarning, "column-vector"),
           X, Y.to_numpy()[:, None], check=holds(lambda model: model.get_n_leaves() == 9)),
    result("fit and predict with weights and missing values", lambda X, y, w: ID3Classifier(
        missing="fractional").fit(X, y, sample_weight=w).predict_proba(X), XA, YA, W,
           check=lambda proba: np.testing.assert_allclose(proba.sum(axis=1), 1.0)),
    result("an object array with None", ID3Classifier(missing="fractional").fit,
           XA.to_numpy(dtype=object), list(YA),
           check=holds(lambda model: model.n_features_in_ == 6)),
    result("an object column of numbers is numeric (C4.5)", fit_c45,
           X3.astype({"density": object}), Y3, check=same_tree_as(fitted_c45(), X3)),
    result("an object column of numbers at predict (C4.5)", fitted_c45().predict_proba,
           X3.astype({"density": object, "sugar": object}),
           check=lambda proba: np.testing.assert_array_equal(
               proba, fitted_c45().predict_proba(X3))),
    result("a column of numeric strings is categorical (C4.5)", fit_c45,
           X3.astype({"density": str}), Y3,
           check=holds(lambda model: model._features[6].categories[:2] == ("0.243", "0.245"))),
    result("a first value missing, the others not (C4.5)", fit_c45,
           with_column(X3, "sugar", [np.nan] + X3["sugar"].tolist()[1:]), Y3,
           check=holds(lambda model: not model._features[7].is_categorical)),
    result("a column with every value missing at predict (C4.5)", fitted_c45().predict_proba,
           with_column(X3, "density", np.full(17, np.nan)),
           check=lambda proba: np.testing.assert_allclose(proba.sum(axis=1), 1.0)),
    result("an unseen category at predict is missing", fitted(missing="fractional").predict_proba,
           with_cell(X, "texture", "very blurry"),
           check=lambda proba: np.testing.assert_array_equal(
               proba, fitted(missing="fractional").predict_proba(with_cell(X, "texture",
                                                                           np.nan)))),
]


@pytest.mark.parametrize("row", RESULTS, ids=[row.description for row in RESULTS])
def test_documented_result(row: Result):
    row.check(call_untouched(row.function, *row.args, **row.kwargs))


# ------------------------------------------------------------------- a failed fit changes nothing
def _state(model: ID3Classifier) -> dict:
    """Every attribute of the model, fitted ones included."""
    return dict(vars(model))


FAILING_REFITS = {
    "unknown tie_break name": ({"tie_break": ["zz"]}, NUMERIC, ["u", "v", "w"], {}),
    "tie_break None": ({"tie_break": None}, NUMERIC, ["u", "v", "w"], {}),
    "bad max_depth": ({"max_depth": -1}, NUMERIC, ["u", "v", "w"], {}),
    "missing label": ({}, NUMERIC, ["u", None, "w"], {}),
    "all weights zero": ({}, NUMERIC, ["u", "v", "w"], {"sample_weight": [0, 0, 0]}),
    "infinity in X": ({}, NUMERIC.replace(1.0, np.inf), ["u", "v", "w"], {}),
    "infinity in an object column": ({}, with_column(NUMERIC, "a", [1.0, -np.inf, 2.0]),
                                     ["u", "v", "w"], {}),
    "text in a numeric column": ({}, with_column(NUMERIC, "a", [1.0, "abc", 2.0]),
                                 ["u", "v", "w"], {}),
    "column names of mixed types": ({}, NUMERIC.set_axis(["a", 0], axis=1), ["u", "v", "w"], {}),
}
#: a fitted model of each class, and rows with missing values it predicts
REFIT_MODELS = {
    "ID3": (lambda: fitted(missing="fractional"), XA),
    "C4.5": (fitted_c45, with_column(X3, "sugar", [np.nan] * 8 + X3["sugar"].tolist()[8:])),
}


@pytest.mark.parametrize("model_name", REFIT_MODELS)
@pytest.mark.parametrize("params, X_new, y_new, fit_kwargs", FAILING_REFITS.values(),
                         ids=FAILING_REFITS.keys())
def test_failed_refit_changes_nothing(model_name, params, X_new, y_new, fit_kwargs):
    make, X_predict = REFIT_MODELS[model_name]
    model = make()
    before, proba, text = _state(model), model.predict_proba(X_predict), export_text(model)
    model.set_params(**params)
    with pytest.raises((ValueError, TypeError)):
        model.fit(X_new, y_new, **fit_kwargs)
    after = _state(model)
    assert after.keys() == before.keys()
    for key in before:
        if key not in params:
            assert after[key] is before[key], key  # the very same objects, not rebuilt ones
    np.testing.assert_array_equal(model.predict_proba(X_predict), proba)
    assert export_text(model) == text


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier])
@pytest.mark.parametrize("params, X_new, y_new, fit_kwargs", FAILING_REFITS.values(),
                         ids=FAILING_REFITS.keys())
def test_failed_first_fit_leaves_the_model_unfitted(estimator, params, X_new, y_new, fit_kwargs):
    model = estimator(**params)
    with pytest.raises((ValueError, TypeError)):
        model.fit(X_new, y_new, **fit_kwargs)
    assert not [key for key in vars(model) if key.endswith("_") or key == "_features"]
    with pytest.raises(NotFittedError):
        model.predict(X_new)


def test_a_target_whose_squares_overflow_is_refused():
    # issue 30: with |y| around 1e154 the sums of squares overflow, every split scored nan and
    # CARTRegressor grew one leaf without a word (scikit-learn grows the whole tree)
    rows = np.arange(100.0)[:, None]
    y = (rows[:, 0] % 7) * 1e154
    with pytest.raises(ValueError, match="too large for the squared error.*divide y"):
        CARTRegressor().fit(rows, y)
    assert CARTRegressor().fit(rows, y / 1e150).get_n_leaves() == 100  # as advised
    assert CARTRegressor(criterion="absolute_error").fit(rows, y).get_n_leaves() > 1

"""The checks and encodings of dtree._validation, against plain-Python references.

Bad input seen through the public API is in test_bad_input.py; here are the helpers themselves:
parameter checks, weights, and the fast encoding of labels and columns.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from dtree._validation import (Feature, _addresses, _factorize, _is_numeric, as_array,
                               check_integer, check_number, check_sample_weight, encode_columns,
                               encode_labels, fit_features, table_columns)
from dtree.datasets import load_mushroom


# -------------------------------------------------------------------------------- parameters
@pytest.mark.parametrize("value", [0, 3, np.int64(3), np.uint8(3)])
def test_check_integer_accepts_integers(value):
    assert check_integer(value, "n", minimum=0) == int(value)
    assert type(check_integer(value, "n", minimum=0)) is int


@pytest.mark.parametrize("value", [True, np.True_, 3.0, "3", None])
def test_check_integer_refuses_other_types(value):
    with pytest.raises(TypeError, match="n must be an integer >= 0"):
        check_integer(value, "n", minimum=0)


def test_check_integer_none_and_range():
    assert check_integer(None, "n", minimum=0, allow_none=True) is None
    with pytest.raises(ValueError, match="n must be None or an integer >= 2, got 1"):
        check_integer(1, "n", minimum=2, allow_none=True)


@pytest.mark.parametrize("value", [0, 0.5, 1, np.float64(0.5), np.int64(1)])
def test_check_number_accepts_numbers_in_range(value):
    assert check_number(value, "p", low=0, high=1) == float(value)


@pytest.mark.parametrize("value, error", [
    (True, TypeError), (np.True_, TypeError), ("0.5", TypeError), (None, TypeError),
    (-0.1, ValueError), (1.5, ValueError), (np.nan, ValueError)])
def test_check_number_refuses(value, error):
    with pytest.raises(error, match=r"p must be a number in \[0, 1\]"):
        check_number(value, "p", low=0, high=1)


def test_check_number_open_low_end():
    with pytest.raises(ValueError, match=r"\(0, 1\], got 0"):
        check_number(0, "p", low=0, high=1, low_open=True)


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier, CARTClassifier,
                                       CARTRegressor])
def test_every_parameter_has_exactly_one_declared_rule(estimator):
    """The parameter table names every argument of __init__ and nothing else, so a new
    parameter cannot go unchecked."""
    assert list(estimator._parameters) != []
    assert set(estimator._parameters) == set(estimator().get_params())


@pytest.mark.parametrize("estimator, name, value, error, message", [
    (CARTClassifier, "max_surrogates", -1, ValueError, "max_surrogates must be an integer >= 0"),
    (CARTRegressor, "criterion", "gini", ValueError, "criterion must be one of"),
    (C45Classifier, "subtree_raising", 1, ValueError, "subtree_raising must be one of (True"),
    (C45Classifier, "random_state", "seed", ValueError, "cannot be used to seed"),
    (ID3Classifier, "missing", "branch", ValueError, "missing must be one of ('error'"),
    (ID3Classifier, "tie_break", 3, TypeError, "tie_break must be 'first' or a list"),
])
def test_a_declared_rule_refuses_with_the_parameter_named(estimator, name, value, error,
                                                          message):
    X, y = pd.DataFrame({"a": [0, 1, 0, 1]}), [0, 1, 0, 1]
    with pytest.raises(error, match=re.escape(message)):
        estimator(**{name: value}).fit(X, y)


def test_params_are_checked_at_fit_not_init():
    model = ID3Classifier(max_depth=-1)  # scikit-learn convention: __init__ only stores
    assert model.max_depth == -1


# ----------------------------------------------------------------------------------- weights
def test_weights_are_a_copy():
    given = np.array([1.0, 2.0])
    w = check_sample_weight(given, 2)
    w[0] = 5.0
    assert given.tolist() == [1.0, 2.0]


def test_ordinary_weights_keep_their_unit():
    assert check_sample_weight([2, 3], 2).tolist() == [2.0, 3.0]
    assert check_sample_weight(2, 3).tolist() == [2.0, 2.0, 2.0]
    assert check_sample_weight([True, False], 2).tolist() == [1.0, 0.0]


def test_overflowing_weights_are_rescaled_by_a_power_of_two():
    # 1e308 + 5e307 + 1e308 overflows; 1e308 = 1.11... x 2^1023, so the weights are multiplied
    # by 2^-1023 (exactly: the division by a power of two only lowers the exponents)
    w = check_sample_weight([1e308, 5e307, 1e308], 3)
    assert w.tolist() == [1e308 / 2.0 ** 1023, 5e307 / 2.0 ** 1023, 1e308 / 2.0 ** 1023]
    assert 1 <= w.max() < 2


def test_subnormal_weights_are_rescaled_by_a_power_of_two():
    # 5e-324 is the smallest subnormal, 2^-1074, and 1e-323 twice it: times 2^1073
    assert check_sample_weight([5e-324, 1e-323], 2).tolist() == [0.5, 1.0]


def test_weights_are_rescaled_only_outside_two_to_the_plus_minus_64():
    assert check_sample_weight([2.0 ** -64, 0.25], 2).tolist() == [2.0 ** -64, 0.25]
    assert check_sample_weight([0.0, 2.0 ** 64 - 2.0 ** 11], 2).tolist() == [0, 2.0 ** 64 - 2 ** 11]
    assert check_sample_weight([2.0 ** -65, 2.0 ** -66], 2).tolist() == [1.0, 0.5]
    assert check_sample_weight([3 * 2.0 ** 64], 1).tolist() == [1.5]  # 1.5 x 2^65


# --------------------------------------------------------------------------------- encoding
def reference_codes(values) -> tuple[list[int], list]:
    """Codes by position in the sorted distinct known values; None and NaN are missing (-1)."""
    known = [v for v in values if not (v is None or v != v)]
    distinct = sorted(set(known))
    return [-1 if v is None or v != v else distinct.index(v) for v in values], distinct


SHARED = ["b", "a", "c"]
OBJECTS_300 = ["".join(["v", str(i % 150)]) for i in range(300)]
EXAMPLES = {
    "shared strings": [SHARED[i % 3] for i in range(30)],
    # distinct objects holding equal strings (as built one by one)
    "distinct string objects": ["".join(["x", str(i % 3)]) for i in range(30)],
    # more distinct objects than _hash's fast path takes
    "many distinct objects": [str(i % 300) for i in range(600)],
    # 300 objects (more than FEW_OBJECTS, an eighth of the rows) holding 150 values: the fast path
    "an eighth of the rows distinct objects": [
        OBJECTS_300[i % 300] for i in range(2400)],
    "strings with None and NaN": ["b", None, "a", np.nan, "b", "a"] * 5,
    "integers": [3, 1, 2, 3, 10] * 4,
    "floats with NaN": [0.5, np.nan, -1.0, 0.5, 2.25] * 3,
    "1 and 1.0 are one value": [1, 1.0, 2, 2.0] * 5,
    "tuples": [(1, 2), (0, 5), (1, 2)] * 4,
}


def objects(values: list) -> np.ndarray:
    """A 1-D object array of the values (numpy would make tuples a second dimension)."""
    array = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        array[i] = v
    return array


@pytest.mark.parametrize("values", EXAMPLES.values(), ids=EXAMPLES.keys())
def test_factorize_matches_the_sorted_distinct_values(values):
    expected_codes, expected_values = reference_codes(values)
    codes, uniques = _factorize(as_array(values) if values[0] != (1, 2) else objects(values), "x")
    assert codes.tolist() == expected_codes
    assert list(uniques) == expected_values


def test_addresses_are_the_objects_ids():
    values = np.array(["a", None, 1.5, "a"], dtype=object)[::-1]  # a strided view
    assert _addresses(values).tolist() == [id(v) for v in values]


def test_encode_labels_refuses_missing():
    with pytest.raises(ValueError, match="missing"):
        encode_labels(["a", None])


def test_ragged_list_is_an_object_array():
    array = as_array([["a"], "b"])
    assert array.shape == (2,) and array[0] == ["a"]


def test_categories_are_python_values_in_sorted_or_declared_order():
    frame = pd.DataFrame({
        "plain": ["b", "a", "c", "a"],
        "numbers": [10, 2, 2, 1],
        "declared": pd.Categorical(["b", "a", "c", "a"], categories=["c", "b", "a"]),
    })
    features, matrix = fit_features(*table_columns(frame)[:2], numeric=False)
    assert [f.categories for f in features] == [("a", "b", "c"), (1, 2, 10), ("c", "b", "a")]
    assert type(features[1].categories[0]) is int  # printed as 1, not np.int64(1)
    assert matrix.tolist() == [[1, 2, 1], [0, 1, 2], [2, 1, 0], [0, 0, 2]]


@pytest.fixture(scope="module")
def mushroom():
    X, _ = load_mushroom(return_X_y=True)
    return X


@pytest.mark.parametrize("kind", ["category", "str", "object"])
def test_mushroom_codes_decode_to_the_values(mushroom, kind):
    X = mushroom if kind == "category" else mushroom.astype(kind)
    features, matrix = fit_features(*table_columns(X)[:2], numeric=False)
    for j, feature in enumerate(features):
        decoded = [None if np.isnan(c) else feature.categories[int(c)] for c in matrix[:, j]]
        column = X.iloc[:, j]
        assert decoded == [None if pd.isna(v) else str(v) for v in column]
        if kind != "category":
            assert list(feature.categories) == sorted(set(decoded) - {None})


@pytest.mark.parametrize("kind", ["str", "object"])
def test_predict_encoding_does_not_depend_on_the_dtype(mushroom, kind):
    names, columns, _ = table_columns(mushroom)
    features, matrix = fit_features(names, columns, numeric=False)
    other = table_columns(mushroom.astype(kind))[1]
    np.testing.assert_array_equal(encode_columns(other, features), matrix)


def test_numeric_columns_with_thresholds():
    # with numeric=True (C4.5, CART) a numeric column keeps its values; at predict it must stay
    # numeric, and infinity is refused as at fit
    frame = pd.DataFrame({"x": [0.5, np.nan, 2.0], "c": ["p", "q", "p"]})
    names, columns, _ = table_columns(frame)
    features, matrix = fit_features(names, columns, numeric=True)
    assert [f.categories for f in features] == [None, ("p", "q")]
    np.testing.assert_array_equal(matrix, [[0.5, 0], [np.nan, 1], [2.0, 0]])
    with pytest.raises(TypeError, match="column 'x' was numeric at fit"):
        encode_columns(table_columns(frame.astype(str))[1], features)
    with pytest.raises(ValueError, match="infinity in column 'x'"):
        encode_columns(table_columns(frame.replace(2.0, np.inf))[1], features)


def test_a_numeric_array_at_predict():
    # a float array is encoded as it is: copied, or (copy=False, for predict) used in place;
    # infinity is found beside NaN, and large finite values whose sum overflows are kept
    X = np.array([[0.5, 1e308], [np.nan, 1e308]])  # 1e308 + 1e308 overflows to infinity
    features = [Feature("x0"), Feature("x1")]
    _, columns, table = table_columns(X)
    copied = encode_columns(columns, features, table)
    assert not np.shares_memory(copied, X)
    np.testing.assert_array_equal(copied, X)
    assert encode_columns(columns, features, table, copy=False) is X
    for bad in ([[np.nan, 1.0], [np.inf, 2.0]], [[1.0, -np.inf], [np.nan, 2.0]]):
        _, columns, table = table_columns(np.array(bad))
        with pytest.raises(ValueError, match="infinity in column"):
            encode_columns(columns, features, table, copy=False)


NUMERIC_OR_NOT = {  # column -> is it numeric? (an object column by what it holds, as an array)
    "int64": (pd.Series([3, 1, 2]), True),
    "float64 with NaN": (pd.Series([0.5, np.nan, 2.0]), True),
    "nullable Int64 with NA": (pd.Series([1, None, 3], dtype="Int64"), True),
    "nullable Float64": (pd.Series([0.5, None, 2.0], dtype="Float64"), True),
    "uint8 array": (np.array([1, 2, 3], dtype=np.uint8), True),
    "object: ints and floats": (pd.Series([1, 2.5, None], dtype=object), True),
    "object array: floats and None": (np.array([0.5, None, 2.0], dtype=object), True),
    "object: numbers and a string": (pd.Series([1.5, 2.0, "abc"], dtype=object), False),
    "object: numeric strings": (pd.Series(["1.5", "2.0", "3"], dtype=object), False),
    "str": (pd.Series(["1.5", "2.0", "3"]), False),
    "bool": (pd.Series([True, False, True]), False),
    "nullable boolean": (pd.Series([True, None, False], dtype="boolean"), False),
    "categorical of numbers": (pd.Series(pd.Categorical([1, 2, 1])), False),
    "complex": (np.array([1 + 1j, 2, 3]), False),
    "datetime": (pd.Series(pd.to_datetime(["2020-01-01", "2020-01-02", None])), False),
}


@pytest.mark.parametrize("column, numeric", NUMERIC_OR_NOT.values(), ids=NUMERIC_OR_NOT.keys())
def test_which_columns_are_numeric(column, numeric):
    assert _is_numeric(column) is numeric


@pytest.mark.parametrize("column", [
    pd.Series([np.nan] * 3), pd.Series([None] * 3, dtype=object),
    pd.Series([None] * 3, dtype="str"), pd.Series([None] * 3, dtype="Float64"),
    pd.Series(pd.Categorical([None] * 3, categories=["p", "q"]))])
@pytest.mark.parametrize("numeric", [True, False])
def test_a_column_with_every_value_missing_is_kept_with_a_warning(column, numeric):
    columns = [pd.Series(["p", "q", "p"]), column]
    with pytest.warns(UserWarning, match="column 'b' has every value missing"):
        features, matrix = fit_features(["a", "b"], columns, numeric=numeric)
    assert np.isnan(matrix[:, 1]).all() and not np.isnan(matrix[:, 0]).any()
    columns[1] = column.astype(object).where(np.arange(3) != 2, "p")  # one value known
    features, matrix = fit_features(["a", "b"], columns, numeric=numeric)
    assert np.isnan(matrix[:, 1]).tolist() == [True, True, False]


def test_mixed_numbers_and_strings_get_an_example_of_each():
    frame = pd.DataFrame({"x": pd.Series([None, 2, "abc", 1.5, "abc"], dtype=object)})
    with pytest.raises(TypeError, match="column 'x' mixes numbers and strings, e.g. 2 and 'abc'"):
        fit_features(*table_columns(frame)[:2])
    # other unorderable mixtures name their types
    frame = pd.DataFrame({"x": pd.Series([("a",), 2], dtype=object)})
    with pytest.raises(TypeError, match=r"column 'x' mixes values .* \['int', 'tuple'\]"):
        fit_features(*table_columns(frame)[:2])


def test_a_numeric_feature_refuses_text_at_predict_with_an_example():
    names, columns, _ = table_columns(pd.DataFrame({"x": [0.5, 1.0]}))
    features, _ = fit_features(names, columns)
    new = table_columns(pd.DataFrame({"x": pd.Series([None, 2.0, True, "z"], dtype=object)}))[1]
    with pytest.raises(TypeError, match=r"column 'x' was numeric .* e.g. True \(dtype object\)"):
        encode_columns(new, features)


def test_unseen_values_and_missing_values_at_predict():
    names, columns, _ = table_columns(pd.DataFrame({"c": ["p", "q", "p"]}))
    features, _ = fit_features(names, columns)
    new = table_columns(pd.DataFrame({"c": ["q", "r", None, "p"]}))[1]
    np.testing.assert_array_equal(encode_columns(new, features), [[1], [np.nan], [np.nan], [0]])


@pytest.mark.parametrize("categories", [["p", "q", "r"], ["r", "q", "p"], ["s", "r", "p", "q"]])
def test_a_categorical_column_is_read_through_its_categories(categories):
    # a pandas categorical column at predict is read by its categories, not its codes: in
    # another order than at fit (pandas finds the unordered dtypes equal), with a category
    # unseen at fit (missing, and counted), read a second time (a table made once) and in
    # turn with the other orders, every value gets its code at fit, the rank of its category
    # among the sorted values at fit, p 0, q 1, r 2
    names, columns, _ = table_columns(pd.DataFrame({"c": ["q", "p", "r", "p"]}))
    features, _ = fit_features(names, columns)
    assert features[0].categories == ("p", "q", "r")
    values = ["r", "p", None, "q", "s", "s"]
    code = {"p": 0, "q": 1, "r": 2}
    for order in (categories, categories, ["p", "q", "r"], categories[::-1]):
        kept = [v if v in order else None for v in values]
        new = pd.DataFrame({"c": pd.Categorical(kept, categories=order)})
        codes = new["c"].array.codes.copy()
        unseen: dict = {}
        matrix = encode_columns(table_columns(new)[1], features, new, unseen=unseen)
        expected = [[code.get(v, np.nan)] for v in kept]
        np.testing.assert_array_equal(matrix, expected)
        assert unseen == ({"c": (2, ["s"])} if "s" in order else {})
        np.testing.assert_array_equal(new["c"].array.codes, codes)  # the caller's, as it was


def test_categorical_columns_predict_as_their_values():
    # a categorical DataFrame predicts as the same values as strings do: categories in another
    # order, more categories than at fit (a category of more than 127 makes pandas' codes
    # int16), a missing value; and numbers where fit saw strings are refused each time
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.choice(list("uvwxyz"), 300), "b": rng.choice(list("pq"), 300),
                      "n": rng.normal(size=300)})
    y = np.where((X["a"] < "x") ^ (X["b"] == "p"), "yes", "no")
    new = X.iloc[::3].copy()
    new.loc[new.index[0], "a"] = None
    extra = [f"e{k}" for k in range(200)]
    for model in (ID3Classifier(missing="fractional"), C45Classifier(), CARTClassifier()):
        numeric = not isinstance(model, ID3Classifier)
        model.fit(X if numeric else X.drop(columns="n"), y)
        rows = new if numeric else new.drop(columns="n")
        expected = model.predict_proba(rows)
        for categories in (list("zyxwvu"), list("uvwxyz") + extra, list("xyzuvw")):
            as_categories = rows.astype({"a": pd.CategoricalDtype(categories),
                                         "b": pd.CategoricalDtype(["q", "p"])})
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # nothing unseen in these rows
                got = model.predict_proba(as_categories)
            np.testing.assert_array_equal(got, expected)
        numbers = rows.assign(b=pd.Categorical([1, 2] * (len(rows) // 2) + [1] * (len(rows) % 2)))
        for _ in range(2):
            with pytest.raises(TypeError, match="'b' held strings at fit .* but numbers now"):
                model.predict(numbers)


def test_addresses_cannot_be_written():
    # a write would corrupt the caller's array of objects
    assert not _addresses(np.array(["a", "b"], dtype=object)).flags.writeable


@pytest.mark.parametrize("make", [C45Classifier, CARTClassifier, CARTRegressor])
@pytest.mark.parametrize("form", ["csr_matrix", "csc_array", "coo_matrix"])
def test_sparse_x_is_the_dense_matrix_with_zeros(make, form):
    import scipy.sparse
    rng = np.random.default_rng(0)
    X = np.where(rng.random((200, 5)) < 0.6, 0.0, rng.normal(size=(200, 5)))
    X[3, 1] = np.nan  # stored explicitly: missing, as in a dense array
    y = (np.nan_to_num(X[:, 0]) + X[:, 2] > 0).astype(int)
    sparse = getattr(scipy.sparse, form)(X)
    assert sparse.nnz < X.size
    ours, dense = make().fit(sparse, y), make().fit(X, y)
    assert ours.n_features_in_ == 5
    np.testing.assert_array_equal(ours.predict(sparse), dense.predict(X))
    np.testing.assert_array_equal(ours.predict(X), dense.predict(X))


def test_decimal_and_fraction_columns_are_numbers():
    # issue 30: they became categories, one per value; now they split at a threshold, as floats
    from decimal import Decimal
    from fractions import Fraction

    from dtree import export_text

    numbers = np.arange(40) / 8
    y = (np.arange(40) % 9 > 3).astype(int)
    as_floats = pd.DataFrame({"d": numbers, "f": numbers[::-1]})
    as_objects = pd.DataFrame({"d": [Decimal(str(v)) for v in numbers],
                               "f": [Fraction(int(v * 8), 8) for v in numbers[::-1]]})
    as_objects.loc[3, "d"] = None  # a missing value among them
    as_floats.loc[3, "d"] = np.nan
    for make in (C45Classifier, CARTClassifier):
        ours, floats = make().fit(as_objects, y), make().fit(as_floats, y)
        assert export_text(ours) == export_text(floats)
        assert all(not f.is_categorical for f in ours._features)
        np.testing.assert_array_equal(ours.predict_proba(as_objects),
                                      floats.predict_proba(as_floats))


def test_unseen_categories_are_said_and_can_be_refused():
    # issue 30: a leading space on a category made rows missing without a word
    X = pd.DataFrame({"k": ["low", "high", "mid"] * 20, "m": ["p", "q"] * 30})
    y = ["a", "b", "c"] * 20
    new = pd.DataFrame({"k": ["low", " high", " high", "mid?"], "m": ["p", "q", "q", "p"]})
    for make in (C45Classifier, CARTClassifier):
        model = make().fit(X, y)
        with pytest.warns(UserWarning, match=r"unseen at fit, read as missing values \('k': 3 "
                                             r"rows, e\.g\. ' high', 'mid\?'\)"):
            predicted = model.predict(new)
        assert predicted[0] == "a"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model.predict(X)  # nothing unseen, nothing said
        model.set_params(handle_unknown="error")
        with pytest.raises(ValueError, match="'k': 3 rows.*handle_unknown='error'"):
            model.predict(new)
    with pytest.raises(ValueError, match="handle_unknown"):
        C45Classifier(handle_unknown="ignore").fit(X, y)


def test_a_column_of_numbers_where_fit_saw_strings_is_refused():
    # issue 30: this answered 'a' for all three rows
    model = C45Classifier().fit(pd.DataFrame({"k": ["1", "2", "3"] * 20}), ["a", "b", "c"] * 20)
    with pytest.raises(TypeError, match="'k' held strings at fit .* but numbers now"):
        model.predict(pd.DataFrame({"k": [1, 2, 3]}))
    assert model.predict(pd.DataFrame({"k": ["1", "2", "3"]})).tolist() == ["a", "b", "c"]

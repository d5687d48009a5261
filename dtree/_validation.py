"""Checking and encoding what callers pass in: parameters, labels, attribute columns, sample
weights, X.

Everything that reaches the grower is a float matrix: a categorical column holds category codes
0, 1, ... and a numeric column its values; NaN marks a missing value in both. Every check raises a
ValueError or TypeError that names what is wrong, and the caller's objects are never modified.
"""
from __future__ import annotations

import itertools
import warnings
from collections import Counter
from dataclasses import dataclass, replace
from numbers import Complex, Integral, Number, Real
from types import SimpleNamespace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

from .jit import compiled, kernel

__all__ = ["Feature", "as_array", "check_integer", "check_number", "Integer", "Interval",
           "OneOf", "FLAG", "AtFit", "Rows", "count_rows", "Features", "count_features",
           "TieBreak", "RandomState",
           "check_params", "encode_labels", "encode_attribute", "check_sample_weight",
           "refuse_sparse", "table_columns", "take_rows", "fit_features", "encode_columns"]


# --------------------------------------------------------------------------------------- parameters
def check_integer(value, name: str, minimum: int, allow_none: bool = False) -> int | None:
    """``value`` as an int >= minimum (or None if allowed); booleans are not integers here.

    A value of the wrong type is a TypeError, a number out of range a ValueError.
    """
    if value is None and allow_none:
        return None
    expected = f"{name} must be {'None or ' if allow_none else ''}an integer >= {minimum}"
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{expected}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{expected}, got {value!r}")
    return int(value)


def check_number(value, name: str, low: float, high: float = np.inf,
                 low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a float in [low, high] (an end ``low_open`` or ``high_open`` excluded); not
    a boolean, not NaN."""
    expected = (f"{name} must be a number in {'(' if low_open else '['}{low:g}, "
                f"{high:g}{')' if high_open else ']'}")
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{expected}, got {value!r}")
    if not ((low < value) if low_open else (low <= value)) or not (
            (value < high) if high_open else (value <= high)):
        raise ValueError(f"{expected}, got {value!r}")
    return float(value)


# Each estimator declares its parameters in one table, {name: rule} (as scikit-learn's
# ``_parameter_constraints``); a rule is called with the value and the name, and returns the
# value checked (a TypeError for a wrong type, a ValueError for a value out of range).
@dataclass(frozen=True)
class Integer:
    """An int >= ``minimum`` (or None, if ``none``); not a boolean."""
    minimum: int
    none: bool = False

    def __call__(self, value, name: str) -> int | None:
        return check_integer(value, name, self.minimum, allow_none=self.none)


@dataclass(frozen=True)
class Interval:
    """A real number in [low, high] (an end ``low_open``/``high_open`` excluded); not a
    boolean, not NaN."""
    low: float
    high: float = np.inf
    low_open: bool = False
    high_open: bool = False

    def __call__(self, value, name: str) -> float:
        return check_number(value, name, self.low, self.high, self.low_open, self.high_open)


@dataclass(frozen=True)
class OneOf:
    """One of ``options`` (compared by identity, or equality for strings: 1 is not True)."""
    options: tuple

    def __call__(self, value, name: str):
        if not any(value is option or (isinstance(value, str) and value == option)
                   for option in self.options):
            raise ValueError(f"{name} must be one of {self.options}, got {value!r}")
        return value


FLAG = OneOf((True, False))


@dataclass(frozen=True)
class Rows:
    """A number of rows: an int >= ``minimum``, or (scikit-learn's convention) a float in
    (0, 1] (in (0, 1) if ``below_one``), that fraction of the training rows, rounded up
    (:func:`count_rows`)."""
    minimum: int
    below_one: bool = False

    def __call__(self, value, name: str) -> int | float:
        if isinstance(value, Integral) and not isinstance(value, bool):
            return check_integer(value, name, self.minimum)
        expected = (f"{name} must be an integer >= {self.minimum} or a fraction in "
                    f"(0, 1{')' if self.below_one else ']'}, got {value!r}")
        if isinstance(value, bool) or not isinstance(value, Real):
            raise TypeError(expected)
        if not (0 < value < 1 or (value == 1 and not self.below_one)):
            raise ValueError(expected)
        return float(value)


def count_rows(value: int | float, n_rows: int) -> int:
    """A :class:`Rows` parameter as a number of rows: an int as it is, a fraction f of
    ``n_rows`` as ceil(f n_rows) (scikit-learn's rule)."""
    return value if isinstance(value, int) else int(np.ceil(value * n_rows))


@dataclass(frozen=True)
class Features:
    """A number of attributes (scikit-learn's ``max_features``): None (all), an int >= 1, a
    float in (0, 1] (that fraction of them), "sqrt" or "log2" (:func:`count_features`)."""

    def __call__(self, value, name: str) -> int | float | str | None:
        if value is None or (isinstance(value, str) and value in ("sqrt", "log2")):
            return value
        if isinstance(value, Integral) and not isinstance(value, bool):
            return check_integer(value, name, 1)
        expected = (f"{name} must be None, an integer >= 1, a fraction in (0, 1], 'sqrt' or "
                    f"'log2', got {value!r}")
        if isinstance(value, bool) or not isinstance(value, (Real, str)):
            raise TypeError(expected)
        if isinstance(value, str) or not 0 < value <= 1:
            raise ValueError(expected)
        return float(value)


def count_features(value: int | float | str | None, n_features: int) -> int | None:
    """A :class:`Features` parameter as a number of attributes, as scikit-learn counts it
    (None stays None, all of them): "sqrt" max(1, floor(sqrt n)), "log2"
    max(1, floor(log2 n)), a fraction f max(1, floor(f n)), an int as it is (at most n, else a
    ValueError)."""
    if value is None:
        return None
    if isinstance(value, str):
        take = np.sqrt if value == "sqrt" else np.log2
        return max(1, int(take(n_features)))
    if isinstance(value, float):
        return max(1, int(value * n_features))
    if value > n_features:
        raise ValueError(f"max_features must be at most the number of features, "
                         f"{n_features}, got {value}")
    return value


class AtFit:
    """Checked at fit, where what it must match is known (e.g. one entry per class)."""

    def __call__(self, value, name: str):
        return value


class TieBreak:
    """"first" or a list of feature names (checked against X's columns at fit)."""

    def __call__(self, value, name: str):
        expected = f"{name} must be 'first' or a list of feature names, got {value!r}"
        if isinstance(value, str) and value != "first":
            raise ValueError(expected)
        if not isinstance(value, (str, list, tuple, np.ndarray, pd.Index)):
            raise TypeError(expected)
        return value


class RandomState:
    """None, an int seed or a ``numpy.random.RandomState`` (scikit-learn's
    ``check_random_state``); the value itself is kept, so that each fit draws alike."""

    def __call__(self, value, name: str):
        try:
            check_random_state(value)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        return value


def check_params(estimator, rules: dict) -> SimpleNamespace:
    """Every parameter of ``estimator`` checked by its rule in ``rules``, in the table's
    order; the checked values by name."""
    return SimpleNamespace(**{name: rule(getattr(estimator, name), name)
                              for name, rule in rules.items()})


# ---------------------------------------------------------------------- labels and columns as codes
def as_array(values: ArrayLike) -> np.ndarray:
    """``np.asarray``, except that a list mixing strings with None/NaN stays an object array
    (numpy would turn NaN into the string 'nan' and hide the missing value), and a ragged list
    (a list among strings, rows of different lengths) is a 1-D object array of its items."""
    try:
        array = np.asarray(values)
    except ValueError:  # numpy refuses ragged nested sequences
        array = np.empty(len(values), dtype=object)
        for i, item in enumerate(values):
            array[i] = item
    if array.dtype.kind in "US" and not isinstance(values, np.ndarray):
        array = np.asarray(values, dtype=object)
    return array


def _one_dimensional(values: ArrayLike, name: str) -> np.ndarray:
    if isinstance(values, (pd.Series, pd.Index)):
        return values.to_numpy(dtype=object if values.dtype == "category" else None)
    array = as_array(values)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    return array


def _addresses(values: np.ndarray) -> np.ndarray:
    """The memory address of each object in a 1-D object array, as integers: a read-only view
    of the array's pointers, valid as long as ``values`` is."""
    face = values.__array_interface__
    face = {"data": (face["data"][0], True), "shape": face["shape"], "strides": face["strides"],
            "typestr": np.dtype(np.intp).str, "version": 3}  # True: read-only
    return np.asarray(SimpleNamespace(__array_interface__=face))


#: an object column holding at most this many distinct objects, or an eighth of its rows, takes
#: the fast path of `_hash`
FEW_OBJECTS = 256


@kernel
def _first_seen(keys: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Codes 0, 1, ... of the distinct integer keys in order of first appearance, the row where
    each first appears, and whether there are at most ``most`` of them (if not, it stops there).

    One pass with an open-addressing hash table (linear probing), kept at most half full.
    """
    size = 2
    while size < 2 * most:
        size *= 2
    slot_code = np.full(size, -1)
    first_row = np.empty(most, dtype=np.int64)
    codes = np.empty(len(keys), dtype=np.int64)
    n_distinct = 0
    for row in range(len(keys)):
        key = keys[row]
        slot = ((key >> 4) ^ (key >> 20)) & (size - 1)  # objects are 16-byte aligned
        while slot_code[slot] >= 0 and keys[first_row[slot_code[slot]]] != key:
            slot = (slot + 1) & (size - 1)
        if slot_code[slot] < 0:  # a key not seen before
            if n_distinct == most:
                return codes, first_row, False
            slot_code[slot] = n_distinct
            first_row[n_distinct] = row
            n_distinct += 1
        codes[row] = slot_code[slot]
    return codes, first_row[:n_distinct], True


def _number_objects(objects: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize`` of a few objects, in plain Python: codes in order of first appearance
    (-1 for None, NaN, NaT, pd.NA) and the distinct values."""
    code_of, first, codes = {}, [], []
    for i, (value, missing) in enumerate(zip(objects.tolist(), pd.isna(objects).tolist())):
        if not missing and value not in code_of:
            code_of[value] = len(first)
            first.append(i)
        codes.append(-1 if missing else code_of[value])
    return np.array(codes, dtype=np.intp), objects[first]


def _hash(values) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``pd.factorize(values)`` in two steps: value i has code ``table[index[i]]``.

    Fast path: a column of repeated strings, as pandas reads it from a CSV or makes it with
    ``astype(str)``, holds each distinct string as one shared object. The objects' addresses,
    integers, are numbered in a compiled loop, and only the distinct objects are hashed, if
    they are few (FEW_OBJECTS, or an eighth of the rows: labels copied one object per row of an
    original table are numbered at twice pandas' speed, in a fraction of its memory). The
    same object is always the same value, so the codes are those of pd.factorize.
    """
    if isinstance(values, np.ndarray) and values.dtype == object:
        most = max(FEW_OBJECTS, len(values) // 8)
        index, first_rows, few = compiled(_first_seen)(_addresses(values), most)
        if few:
            table, uniques = _number_objects(values[first_rows])
            return index, table, uniques
    codes, uniques = pd.factorize(values)
    return codes, np.arange(len(uniques)), uniques


def _table_codes(values, name: str, sort: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct values (None, NaN, NaT and pd.NA are missing), ascending if ``sort``, and
    their codes in two steps: row i has code ``table[index[i]]``, -1 where missing.

    pandas hashes the values in one pass; only the k distinct values are sorted. ``table`` ends
    with -1, so that ``index`` may be -1 for a missing value.
    """
    try:
        index, table, uniques = _hash(values)
    except TypeError as error:  # a list, dict or set in a cell
        raise TypeError(f"{name} holds a value that cannot be hashed ({error}); every entry must "
                        "be a single value such as a string or a number") from None
    table = np.append(table, -1)
    if sort:
        try:
            order = uniques.argsort(kind="stable")
        except TypeError:
            raise TypeError(_unorderable(uniques, name)) from None
        rank = np.empty(len(order) + 1, dtype=np.intp)
        rank[order], rank[-1] = np.arange(len(order)), -1
        table, uniques = rank[table], uniques.take(order)
    return index, table, uniques


def _unorderable(uniques, name: str) -> str:
    """Why the distinct values of ``name`` cannot be sorted: numbers mixed with strings (text in
    a numeric column, or numbers among categories), or else the types that clash."""
    number = next((v for v in uniques if _is_number(v)), None)
    text = next((v for v in uniques if isinstance(v, str)), None)
    if number is None or text is None:
        kinds = sorted({type(v).__name__ for v in uniques})
        return f"{name} mixes values that cannot be ordered: types {kinds}"
    return (f"{name} mixes numbers and strings, e.g. {number!r} and {text!r}: a column holds "
            "numbers (None or NaN where missing) or categories, not both. Convert it with "
            "pd.to_numeric if the strings stand for numbers, or make every value a string if "
            "it is categorical")


def _factorize(values, name: str, sort: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 of the distinct values (-1 where missing) and the values, as in
    `_table_codes`."""
    index, table, uniques = _table_codes(values, name, sort)
    return table[index], uniques


def encode_labels(y: ArrayLike, name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Class codes 0..K-1 and the sorted classes; missing labels are an error."""
    y = _one_dimensional(y, name)
    if len(y) == 0:
        raise ValueError(f"{name} is empty")
    codes, classes = _factorize(y, name)
    if (codes < 0).any():
        raise ValueError(f"{name} contains missing values (None or NaN); every row needs a label")
    return codes, classes


def encode_attribute(x: ArrayLike, name: str = "x") -> tuple[np.ndarray, np.ndarray]:
    """Codes of a categorical attribute (-1 where missing) and its sorted known values."""
    return _factorize(_one_dimensional(x, name), name)


def _is_real_number(value) -> bool:
    """A real number: a float, an int, a Fraction, a Decimal; not a complex number or a string."""
    return isinstance(value, Real) or (isinstance(value, Number) and not isinstance(value, Complex))


def _is_number(value) -> bool:
    """A real number that is a number in a table: not a bool (True is an int to Python)."""
    return _is_real_number(value) and not isinstance(value, bool)


#: weights whose largest lies in [2**-64, 2**64) are kept as given; others are rescaled
SANE_WEIGHT_EXPONENTS = (-64, 64)


def check_sample_weight(sample_weight: ArrayLike | None, n: int) -> np.ndarray:
    """A float copy of the weights (ones if None; a single number is every row's weight).

    Weights must be numbers (not strings), finite and non-negative, and at least one must be
    positive. Only their ratios matter to a score, a split or a prediction, but extreme weights
    overflow (a sum of ``[1e308] * 6``) or underflow (Gini's c_k^2 / W for 1e-200). So if the
    largest weight, m 2^e with 1 <= m < 2, lies outside [2^-64, 2^64), every weight is
    multiplied by 2^-e: the largest becomes m, and each ratio stays exact (a power of two only
    moves the exponent, unless it sends a weight below 2^-1022 times the largest, into the
    subnormals). Nothing else changes but the unit of the weighted counts: 2^e.
    """
    if sample_weight is None:
        return np.ones(n)
    array = np.asarray(sample_weight)
    if array.dtype.kind not in "biuf":  # strings, objects, complex numbers, dates
        bad = next((v for v in array.flat if not _is_real_number(v)), None)
        if bad is not None:
            bad = bad.item() if isinstance(bad, np.generic) else bad
            raise TypeError(f"sample_weight must contain real numbers, got {bad!r} "
                            f"({type(bad).__name__})")
    w = array.astype(float)
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.ndim != 1 or len(w) != n:
        raise ValueError(f"sample_weight has shape {w.shape}, expected ({n},): one weight per row")
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values")
    if (w < 0).any():
        raise ValueError("sample_weight contains negative values")
    largest = w.max()
    if largest == 0:
        raise ValueError("sample_weight sums to zero: at least one row needs a positive weight")
    exponent = int(np.frexp(largest)[1]) - 1  # largest = m 2^exponent, 1 <= m < 2
    low, high = SANE_WEIGHT_EXPONENTS
    if not low <= exponent < high:
        return np.ldexp(w, -exponent)
    return w  # astype made a copy


# ------------------------------------------------------------------------------------------------ X
def refuse_sparse(value, name: str, dense: str) -> None:
    """A TypeError naming the cause if ``value`` is a scipy sparse matrix or array (which
    ``np.asarray`` would wrap as a 0-d object array): the trees take dense data, ``dense``."""
    if hasattr(value, "toarray") or hasattr(value, "tocsr"):
        raise TypeError(f"{name} is a sparse matrix, and sparse matrices are not supported; "
                        f"pass {dense}")


@dataclass(frozen=True)
class Feature:
    """One input column as the tree sees it: its name and, if categorical, its categories;
    ``empty`` if every value was missing at fit, so that no split reads it (and predict
    checks nothing of what it holds)."""

    name: str
    categories: tuple | None = None  # None for a numeric column
    empty: bool = False

    @property
    def is_categorical(self) -> bool:
        return self.categories is not None


def table_columns(X: ArrayLike) -> tuple[list[str], list, pd.DataFrame | np.ndarray]:
    """Column names (the DataFrame's, else x0, x1, ...), the columns, and X as a DataFrame,
    2-D array or (a scipy sparse matrix or array, whose absent entries are zeros) CSC matrix."""
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns]
        repeated = sorted(n for n, count in Counter(names).items() if count > 1)
        if repeated:
            raise ValueError(f"X has repeated column names: {repeated}; each column needs its own")
        # each column's array, as pandas iterates them (DataFrame.to_dict does): a Series per
        # column would cost more than encoding a small table
        columns = list(X._iter_column_arrays())
    elif hasattr(X, "tocsc"):  # scipy sparse: read column by column; an absent entry is 0
        if len(X.shape) != 2:
            raise ValueError(f"Expected a 2-D X (rows, features), got shape {X.shape}")
        X = X.tocsc()
        if np.iscomplexobj(X.data):
            raise ValueError("Complex data not supported")
        names = [f"x{j}" for j in range(X.shape[1])]
        columns = [X[:, [j]].toarray().ravel().astype(float) for j in range(X.shape[1])]
    else:
        array = as_array(X)
        if array.ndim != 2:
            raise ValueError(
                f"Expected a 2-D X (rows, features), got an array of {array.ndim} dimension(s). "
                "Reshape your data with X.reshape(-1, 1) if it holds a single feature.")
        if np.iscomplexobj(array):
            raise ValueError("Complex data not supported")
        names, columns, X = [f"x{j}" for j in range(array.shape[1])], list(array.T), array
    n_rows = X.shape[0]
    if not names:
        raise ValueError(f"0 feature(s) (shape=({n_rows}, 0)) while a minimum of 1 is required.")
    if n_rows == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape=(0, {len(names)})) while a minimum "
                         "of 1 is required: X is empty.")
    return names, columns, X


def take_rows(columns: list, rows: np.ndarray) -> list:
    """The columns restricted to ``rows`` (a boolean mask); a pandas column keeps its dtype."""
    return [c.iloc[rows] if isinstance(c, pd.Series) else c[rows] for c in columns]


def _is_numeric(column) -> bool:
    """A column of numbers: a numeric dtype (not bool), or objects that are all real numbers
    (ints, floats, Decimals, Fractions; None and NaN aside), in an array or a pandas object
    column alike."""
    if column.dtype == object:
        kind = pd.api.types.infer_dtype(column, skipna=True)
        if kind in ("mixed", "mixed-integer"):  # Fractions, or numbers of several types
            values = np.asarray(column, dtype=object)
            return all(_is_number(v)
                       for v in values[~pd.isna(values)])
        return kind in ("integer", "floating", "mixed-integer-float", "decimal")
    return column.dtype.kind in "iuf"  # pandas' nullable Int64 and Float64 too


def _non_number(column):
    """The first value of a non-numeric column that is neither a number nor missing."""
    values = np.asarray(column, dtype=object)
    return next((v for v, missing in zip(values, pd.isna(values))
                 if not missing and not _is_number(v)), values[0])


def _as_float(column, name: str) -> np.ndarray:
    if column.dtype.kind in "iuf" and isinstance(column.dtype, np.dtype):  # not Int64 with NA
        values = np.asarray(column, dtype=float)  # plain numbers: no conversion to check
    elif column.dtype == object:  # numbers as objects (Decimal, Fraction, ...): float() each
        values = np.array([np.nan if pd.isna(v) else float(v) for v in column], dtype=float)
    else:
        values = np.asarray(pd.to_numeric(pd.Series(column), errors="raise"), dtype=float)
    if np.isinf(values).any():
        raise ValueError(f"X contains infinity in column {name!r}; infinity is neither a value nor "
                         "missing (use NaN for a missing value)")
    return values


def _category_codes(column, name: str, sort: bool) -> tuple[np.ndarray, np.ndarray, list]:
    """A column's codes as in `_table_codes` (``table[index]``, -1 where missing) and the values
    they stand for: a pandas categorical column's declared categories, else its distinct values
    (sorted if ``sort``)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        categories = column.dtype.categories.tolist()
        table = np.arange(len(categories) + 1)
        table[-1] = -1
        return _declared_positions(column), table, categories
    if not isinstance(column, np.ndarray) and pd.api.types.is_string_dtype(column.dtype):
        column = column.to_numpy()  # pandas factorizes an object array fastest
    index, table, values = _table_codes(column, f"column {name!r}", sort)
    return index, table, values.tolist()


def _declared_positions(column: pd.Series | pd.Categorical) -> np.ndarray:
    """A pandas categorical column's codes: each value's position among its categories, -1
    where missing."""
    return (column.array if isinstance(column, pd.Series) else column).codes


def _code_column(index: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The codes ``table[index]`` as floats, NaN where missing."""
    return np.where(table >= 0, table, np.nan).take(index)  # take: faster than [index]


def _lookup(table: np.ndarray) -> np.ndarray:
    """A table of codes as `_table_codes` gives it (ending with -1, for an index of -1) as the
    floats `_fill_rows` reads: entry k + 1 is index k's code, entry 0 index -1's; NaN where
    missing (-1)."""
    return np.where(table >= 0, table, np.nan)[np.arange(-1, len(table) - 1)]


@kernel
def _fill_rows(matrix, columns, index, lookups, start, numbers, values):
    """The C-ordered ``matrix`` filled: column ``columns[c]`` with ``lookup[index[c] + 1]``,
    ``lookup`` being ``lookups[start[c]:start[c + 1]]`` (`_lookup`: NaN for an index of -1),
    and column ``numbers[c]`` with ``values[c]``. Row by row: the writes run along the
    matrix (on 81,240 rows of 22 categories, half the time of filling blocks of rows column
    by column). The positions are unsigned, so numba reads them as they are (a signed
    position is first checked for a negative one, counted from the end)."""
    n_rows, width = matrix.shape
    cells = matrix.reshape(n_rows * width)  # a view: row i's column j is cell i * width + j
    for i in range(n_rows):
        row = i * width
        for c in range(len(columns)):
            cells[np.uint64(row + columns[c])] = lookups[np.uint64(start[c] + 1 + index[c, i])]
        for c in range(len(numbers)):
            cells[np.uint64(row + numbers[c])] = values[c, np.uint64(i)]


#: a numeric column with more distinct values than this is probably a mistake for ID3
MANY_NUMBERS = 10


def _is_datetime(column) -> bool:
    """Dates or times: a datetime64 or timedelta64 dtype (with a time zone or not), or objects
    that are all dates, datetimes or times (missing values aside)."""
    if column.dtype == object:
        return pd.api.types.infer_dtype(column, skipna=True) in (
            "datetime", "datetime64", "date", "time", "timedelta", "timedelta64", "period")
    return (column.dtype.kind in "mM" or isinstance(column.dtype, pd.PeriodDtype)
            or pd.api.types.is_datetime64_any_dtype(column.dtype))


def _refuse_other_type(feature: Feature, new: list) -> None:
    """A TypeError if the values ``new`` to a categorical column are all numbers where its
    categories at fit were all strings, or all strings where they were all numbers."""
    def kind(values) -> str | None:
        if all(isinstance(v, str) for v in values):
            return "strings"
        if all(_is_number(v) for v in values):
            return "numbers"
        return None

    was, now = kind(feature.categories), kind(new)
    if was and now and was != now:
        raise TypeError(f"column {feature.name!r} held {was} at fit ({feature.categories[0]!r}, "
                        f"...) but {now} now ({new[0]!r}, ...): convert it as at fit")


def fit_features(names: list[str], columns: list, numeric: bool = True,
                 table: np.ndarray | pd.DataFrame | None = None
                 ) -> tuple[list[Feature], np.ndarray]:
    """Learn each column's kind and categories; return them and the encoded matrix.

    ``table``, the 2-D array the columns come from, if any: with ``numeric``, a float64 array
    is the encoded matrix already and is returned as it is, not copied (the caller only reads
    it).

    With ``numeric=False`` every column is categorical (ID3 treats each distinct number as a value).
    A pandas categorical column keeps its declared category order; other columns use sorted values.
    Refused: infinity (it is neither a value nor missing) and numbers mixed with strings in one
    column. A UserWarning names a column that is probably a mistake: dates or times (each would
    be a category of its own), and, with ``numeric=False``, a numeric column with more than
    ``MANY_NUMBERS`` distinct values (ID3 would give each its own branch). A column with every
    value missing is kept (no split can use it, as in rpart, Weka and scikit-learn), with a
    UserWarning that names it.
    """
    shared = numeric and isinstance(table, np.ndarray) and table.dtype == np.float64
    features = []
    matrix = table if shared else np.empty((len(columns[0]), len(names)))
    for j, (name, column) in enumerate(zip(names, columns)):
        is_numeric = _is_numeric(column)
        if is_numeric:
            values = _as_float(column, name)
            if numeric:
                features.append(Feature(name))
                if not shared:
                    matrix[:, j] = values
        elif _is_datetime(column):
            warnings.warn(f"column {name!r} holds dates or times, and each distinct one becomes a "
                          "category of its own; convert it to numbers first (e.g. days since a "
                          "start date, or year and month columns)", UserWarning, stacklevel=4)
        if len(features) == j:
            index, table, categories = _category_codes(column, name, sort=True)
            features.append(Feature(name, tuple(categories)))
            matrix[:, j] = _code_column(index, table)
            if is_numeric and len(categories) > MANY_NUMBERS:
                warnings.warn(f"column {name!r} is numeric with {len(categories)} distinct "
                              "values, and ID3 gives each its own branch; C45Classifier or "
                              "CARTClassifier split numbers at a threshold instead",
                              UserWarning, stacklevel=4)
        if np.isnan(matrix[0, j]) and np.isnan(matrix[:, j]).all():
            features[j] = replace(features[j], empty=True)
            warnings.warn(f"column {name!r} has every value missing (None or NaN): no split "
                          "can use it, so the tree is grown as if it were absent",
                          UserWarning, stacklevel=4)
    return features, matrix


def encode_columns(columns: list, features: list[Feature],
                   table: np.ndarray | pd.DataFrame | None = None,
                   copy: bool = True, unseen: dict | None = None) -> np.ndarray:
    """The float matrix of codes and values of new rows, encoded as at fit.

    A category unseen at fit is encoded as missing, and ``unseen``, if given, gets for each
    such column its name -> (the number of rows, up to three of the values); infinity is
    rejected as at fit, and so is a column of numbers whose categories at fit were strings,
    or the other way round (a TypeError). ``table``, the 2-D array the columns come from, if
    any, lets an all-numeric array be taken at once: copied, or with ``copy=False`` used as it
    is if it is float64 already (for a caller that only reads it, such as prediction).
    """
    if (isinstance(table, np.ndarray) and table.dtype.kind in "iuf"
            and not any(f.is_categorical for f in features)):
        matrix = np.array(table, dtype=float, copy=copy or None)
        if not np.isfinite(matrix.sum()):  # a NaN or infinity somewhere (or an overflow)
            infinite = np.isinf(matrix).any(axis=0)
            if infinite.any():
                _as_float(columns[int(np.argmax(infinite))],
                          features[int(np.argmax(infinite))].name)
        return matrix
    n_rows = len(columns[0])
    coded, indexes, lookups = [], [], []  # the categorical columns
    numbers, values = [], []  # the numeric ones: all filled at once, at the end
    for j, (column, feature) in enumerate(zip(columns, features)):
        if feature.is_categorical:
            index, lookup = _codes_as_at_fit(column, feature, unseen)
            coded.append(j), indexes.append(index), lookups.append(lookup)
        elif not _is_numeric(column):
            raise TypeError(f"column {feature.name!r} was numeric at fit but now holds "
                            f"non-numbers, e.g. {_non_number(column)!r} (dtype {column.dtype})")
        else:
            numbers.append(j), values.append(_as_float(column, feature.name))
    stacked = np.empty((len(coded), n_rows), dtype=np.int32)  # 2**31 codes a column
    for c, index in enumerate(indexes):
        stacked[c] = index
    start = np.array([0, *itertools.accumulate(map(len, lookups))])  # of each lookup
    matrix = np.empty((n_rows, len(features)))
    compiled(_fill_rows)(matrix, np.array(coded, dtype=np.int64), stacked,
                         np.concatenate([np.empty(0), *lookups]), start,
                         np.array(numbers, dtype=np.int64),
                         np.array(values).reshape(len(numbers), n_rows))
    return matrix


def _codes_as_at_fit(column, feature: Feature, unseen: dict | None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """A categorical feature's column at predict as ``(index, lookup)``: row i's code at fit is
    ``lookup[index[i] + 1]`` (`_lookup`), NaN where missing or unseen at fit. A pandas
    categorical column reads its codes through a table made once for its categories
    (`_declared_codes`); another column is hashed (`_category_codes`) and its distinct values
    looked up. Values unseen at fit that the column holds are counted in ``unseen``, as
    `encode_columns` says."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        index = _declared_positions(column)
        lookup, new = _declared_codes(column.dtype, feature)
        if len(new) and unseen is not None:  # of the categories declared, those held
            rows = np.bincount(index + 1, minlength=len(lookup))[new + 1]
            if rows.any():
                held = column.dtype.categories[new[rows > 0][:3]].tolist()
                unseen[feature.name] = (int(rows.sum()), held)
        return index, lookup
    if _is_numeric(column):
        _as_float(column, feature.name)  # rejects infinity
    index, table, values = _category_codes(column, feature.name, sort=False)
    codes, new = _recoded(values, feature)
    if len(new) and unseen is not None:
        rows = int(np.isin(table[index], new).sum())  # table[index]: the position in values
        unseen[feature.name] = (rows, [values[k] for k in new[:3]])
    return index, _lookup(codes[table])


def _recoded(values: list, feature: Feature) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``values``' code at fit (-1 if unseen, and a last -1 for a missing value) and the
    positions of those unseen at fit (none for an ``empty`` feature, which no split reads). A
    TypeError if they are numbers where fit saw strings, or the other way round."""
    if values == list(feature.categories):  # each value's code is its code at fit
        return np.append(np.arange(len(values)), -1), np.empty(0, dtype=np.intp)
    position = {category: code for code, category in enumerate(feature.categories)}
    table = np.array([position.get(v, -1) for v in values] + [-1])
    new = np.flatnonzero(table[:-1] < 0)
    if feature.empty:
        return table, new[:0]
    if len(new):
        _refuse_other_type(feature, [values[k] for k in new])
    return table, new


#: the tables `_declared_codes` has made: (id of a categorical dtype's categories, id of a
#: feature's categories) -> (lookup, codes unseen at fit, and both sets of categories, kept
#: alive so that their ids name them)
_DECLARED: dict = {}
#: at most this many tables are kept; then the cache starts again
MOST_DECLARED = 256


def _declared_codes(dtype: pd.CategoricalDtype, feature: Feature
                    ) -> tuple[np.ndarray, np.ndarray]:
    """How the codes of a pandas categorical column of ``dtype`` read as ``feature``'s codes:
    its lookup (`_lookup`) and the codes of its categories unseen at fit (`_recoded`, which
    refuses numbers where fit saw strings, or the other way round). Made once per categories
    object (not per equal dtype: pandas finds unordered dtypes equal whatever their order) and
    feature, then found in a cache, so that a column read again costs no look-up per
    category."""
    key = (id(dtype.categories), id(feature.categories))
    made = _DECLARED.get(key)
    if made is None:
        table, new = _recoded(dtype.categories.tolist(), feature)
        lookup = _lookup(table)
        lookup.flags.writeable = False
        if len(_DECLARED) >= MOST_DECLARED:
            _DECLARED.clear()
        made = _DECLARED[key] = (lookup, new, dtype.categories, feature.categories)
    return made[:2]

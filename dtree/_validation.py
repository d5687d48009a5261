"""Checking and encoding what callers pass in: labels, attribute columns, sample weights, X.

Everything that reaches the grower is a float matrix: a categorical column holds category codes
0, 1, ... and a numeric column its values; NaN marks a missing value in both. The caller's objects
are never modified.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

__all__ = ["Feature", "as_array", "encode_labels", "encode_attribute", "check_sample_weight",
           "table_columns", "fit_features", "encode_columns"]


def as_array(values: ArrayLike) -> np.ndarray:
    """``np.asarray``, except that a list mixing strings with None/NaN stays an object array
    (numpy would turn NaN into the string 'nan' and hide the missing value)."""
    array = np.asarray(values)
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


def _sorted_unique(values: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        return np.unique(values, return_inverse=True)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in values})
        raise TypeError(f"{name} mixes values that cannot be ordered: types {kinds}") from None


def encode_labels(y: ArrayLike, name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Class codes 0..K-1 and the sorted classes; missing labels are an error."""
    y = _one_dimensional(y, name)
    if len(y) == 0:
        raise ValueError(f"{name} is empty")
    if pd.isna(y).any():
        raise ValueError(f"{name} contains missing values (None or NaN); every row needs a label")
    classes, codes = _sorted_unique(y, name)
    return codes.astype(np.intp), classes


def encode_attribute(x: ArrayLike, name: str = "x") -> tuple[np.ndarray, np.ndarray]:
    """Codes of a categorical attribute (-1 where missing) and its sorted known values."""
    x = _one_dimensional(x, name)
    missing = pd.isna(x)
    categories, known_codes = _sorted_unique(x[~missing], name)
    codes = np.full(len(x), -1, dtype=np.intp)
    codes[~missing] = known_codes
    return codes, categories


def check_sample_weight(sample_weight: ArrayLike | None, n: int) -> np.ndarray:
    """A float copy of the weights (ones if None), checked to be finite and non-negative."""
    if sample_weight is None:
        return np.ones(n)
    try:
        w = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("sample_weight must contain numbers") from None
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.ndim != 1 or len(w) != n:
        raise ValueError(f"sample_weight has shape {w.shape}, expected ({n},): one weight per row")
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values")
    if (w < 0).any():
        raise ValueError("sample_weight contains negative values")
    return w.copy()


@dataclass(frozen=True)
class Feature:
    """One input column as the tree sees it: its name and, if categorical, its categories."""

    name: str
    categories: tuple | None = None  # None for a numeric column

    @property
    def is_categorical(self) -> bool:
        return self.categories is not None


def table_columns(X: ArrayLike) -> tuple[list[str], list, pd.DataFrame | np.ndarray]:
    """Column names (the DataFrame's, else x0, x1, ...), the columns, and X as a DataFrame or
    2-D array."""
    if isinstance(X, pd.DataFrame):
        names, columns = [str(c) for c in X.columns], [X[c] for c in X.columns]
    else:
        if hasattr(X, "toarray") or hasattr(X, "tocsr"):
            raise TypeError("sparse matrices are not supported; pass a dense array or a DataFrame")
        array = as_array(X)
        if array.ndim != 2:
            raise ValueError(
                f"Expected a 2-D X (rows, features), got an array of {array.ndim} dimension(s). "
                "Reshape your data with X.reshape(-1, 1) if it holds a single feature.")
        if np.iscomplexobj(array):
            raise ValueError("Complex data not supported")
        names, columns, X = [f"x{j}" for j in range(array.shape[1])], list(array.T), array
    n_rows = len(X)
    if not names:
        raise ValueError(f"0 feature(s) (shape=({n_rows}, 0)) while a minimum of 1 is required.")
    if n_rows == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape=(0, {len(names)})) while a minimum "
                         "of 1 is required: X is empty.")
    return names, columns, X


def _is_numeric(column) -> bool:
    if isinstance(column, pd.Series):
        dtype = column.dtype
        return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
    if column.dtype.kind in "iuf":
        return True
    return column.dtype.kind == "O" and pd.api.types.infer_dtype(column, skipna=True) in (
        "integer", "floating", "mixed-integer-float")


def _as_float(column, name: str) -> np.ndarray:
    values = np.asarray(pd.to_numeric(pd.Series(column), errors="raise"), dtype=float)
    if np.isinf(values).any():
        raise ValueError(f"X contains infinity in column {name!r}")
    return values


def fit_features(names: list[str], columns: list, numeric: bool = True
                 ) -> tuple[list[Feature], np.ndarray]:
    """Learn each column's kind and categories; return them and the encoded matrix.

    With ``numeric=False`` every column is categorical (ID3 treats each distinct number as a value).
    A pandas categorical column keeps its declared category order; other columns use sorted values.
    """
    features = []
    for name, column in zip(names, columns):
        if _is_numeric(column):
            _as_float(column, name)  # rejects infinity
            if numeric:
                features.append(Feature(name))
                continue
        if isinstance(column, pd.Series) and isinstance(column.dtype, pd.CategoricalDtype):
            categories = tuple(column.cat.categories)
        else:
            values = np.asarray(column, dtype=object)
            categories = tuple(_sorted_unique(values[~pd.isna(values)], f"column {name!r}")[0])
        features.append(Feature(name, categories))
    return features, encode_columns(columns, features)


def encode_columns(columns: list, features: list[Feature]) -> np.ndarray:
    """The float matrix of codes and values; a category unseen at fit is encoded as missing."""
    matrix = np.empty((len(columns[0]), len(features)))
    for j, (column, feature) in enumerate(zip(columns, features)):
        if feature.is_categorical:
            codes = pd.Index(feature.categories, dtype=object).get_indexer(
                np.asarray(column, dtype=object))
            matrix[:, j] = np.where(codes >= 0, codes, np.nan)
        else:
            matrix[:, j] = _as_float(column, feature.name)
    return matrix

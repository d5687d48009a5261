"""The algorithms as scikit-learn estimators: each is a small configuration of the one grower.

==============  ================  ========================  ======================
estimator       criterion         numeric attributes        categorical attributes
==============  ================  ========================  ======================
ID3Classifier   information gain  each value is a category  multiway split
==============  ================  ========================  ======================
"""
from __future__ import annotations

import warnings
from numbers import Integral, Real
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import (Feature, as_array, check_sample_weight, encode_columns, encode_labels,
                          fit_features, table_columns)
from .grow import StoppingRules, grow
from .tree import Node, predict_values

__all__ = ["ID3Classifier"]


def _labels_1d(y) -> np.ndarray | object:
    """y as given, or its single column with a warning, as scikit-learn does."""
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    if isinstance(y, (pd.Series, pd.Index)):
        return y
    y = as_array(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected; using its "
                      "single column", DataConversionWarning, stacklevel=3)
        return y[:, 0]
    return y


class _TreeClassifier(ClassifierMixin, BaseEstimator):
    """What every classifier of the book shares; subclasses set the configuration below."""

    #: the split criterion (see dtree.impurity.SCORES)
    _criterion: str
    #: whether numeric columns are split by thresholds (else each value is a category)
    _numeric_thresholds: bool

    tree_: Node
    classes_: np.ndarray

    def _check_params(self) -> StoppingRules:
        if self.max_depth is not None and (not isinstance(self.max_depth, Integral)
                                           or isinstance(self.max_depth, bool)
                                           or self.max_depth < 0):
            raise ValueError(f"max_depth must be None or an integer >= 0, got {self.max_depth!r}")
        if not isinstance(self.min_samples_split, Integral) or self.min_samples_split < 2:
            raise ValueError(
                f"min_samples_split must be an integer >= 2, got {self.min_samples_split!r}")
        if not isinstance(self.min_impurity_decrease, Real) or not self.min_impurity_decrease >= 0:
            raise ValueError("min_impurity_decrease must be a number >= 0, "
                             f"got {self.min_impurity_decrease!r}")
        if not isinstance(self.purity_threshold, Real) or not 0 < self.purity_threshold <= 1:
            raise ValueError(
                f"purity_threshold must be in (0, 1], got {self.purity_threshold!r}")
        return StoppingRules(self.max_depth, self.min_samples_split,
                             float(self.min_impurity_decrease), float(self.purity_threshold))

    def _priority(self, features: list[Feature]) -> np.ndarray:
        """Rank of each feature when scores tie: column order, or the order of tie_break."""
        names = [f.name for f in features]
        if isinstance(self.tie_break, str):
            if self.tie_break != "first":
                raise ValueError(f"tie_break must be 'first' or a list of feature names, "
                                 f"got {self.tie_break!r}")
            return np.arange(len(names))
        order = list(self.tie_break)
        unknown = [name for name in order if name not in names]
        if unknown:
            raise ValueError(f"tie_break names features that X does not have: {unknown}")
        return np.array([order.index(n) if n in order else len(order) + j
                         for j, n in enumerate(names)])

    def _columns(self, X: ArrayLike, reset: bool) -> tuple[list[str], list]:
        """X's column names and columns; sets (at fit) or checks feature_names_in_ and
        n_features_in_ the scikit-learn way."""
        names, columns, table = table_columns(X)
        validate_data(self, table, reset=reset, skip_check_array=True)
        return names, columns

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Grow the tree on X (DataFrame or 2-D array) and labels y; missing X values allowed."""
        stopping = self._check_params()
        y = _labels_1d(y)
        names, columns = self._columns(X, reset=True)
        y_codes, classes = encode_labels(y, name="y")
        if len(y_codes) != len(columns[0]):
            raise ValueError(f"X has {len(columns[0])} rows but y has {len(y_codes)} labels")
        check_classification_targets(classes)
        w = check_sample_weight(sample_weight, len(y_codes))
        if w.sum() <= 0:
            raise ValueError("sample_weight sums to zero: at least one row needs a positive weight")
        self._features, matrix = fit_features(names, columns, numeric=self._numeric_thresholds)
        self.classes_ = classes
        self.tree_ = grow(matrix, self._features, np.eye(len(classes))[y_codes], w,
                          self._criterion, stopping, self._priority(self._features))
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities: the weighted class shares of the leaf (or leaves) a row reaches."""
        check_is_fitted(self, "tree_")
        _, columns = self._columns(X, reset=False)
        return predict_values(self.tree_, encode_columns(columns, self._features))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The most probable class of each row (the first in ``classes_`` on a tie)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def get_depth(self) -> int:
        """Depth of the tree: the number of tests on its longest path (a lone leaf has depth 0)."""
        check_is_fitted(self, "tree_")
        return self.tree_.height()

    def get_n_leaves(self) -> int:
        """Number of leaves, empty branches included."""
        check_is_fitted(self, "tree_")
        return len(self.tree_.leaves())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags


class ID3Classifier(_TreeClassifier):
    """ID3 (Quinlan 1986): multiway splits chosen by information gain.

    Every column is categorical, numbers included (each distinct value is a branch); an attribute
    is used at most once on any path. Missing values are handled as in C4.5 (Zhou 2016, sec. 4.4):
    the gain is computed on the known rows and scaled by their weight share, and rows are sent
    down every branch with fractional weights. A value unseen at fit is treated as missing.

    Parameters
    ----------
    max_depth
        Stop splitting at this depth (the root has depth 0); None for no limit.
    min_samples_split
        A node with fewer rows is a leaf.
    min_impurity_decrease
        A node whose best gain (in bits, at that node) is smaller is a leaf.
    purity_threshold
        A node whose majority class has at least this weight share is a leaf.
    tie_break
        How equal gains are decided: "first" (column order) or a list of feature names in
        order of preference.
    """

    _criterion = "info_gain"
    _numeric_thresholds = False

    def __init__(self, max_depth: int | None = None, min_samples_split: int = 2,
                 min_impurity_decrease: float = 0.0, purity_threshold: float = 1.0,
                 tie_break: str | Sequence[str] = "first"):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_impurity_decrease = min_impurity_decrease
        self.purity_threshold = purity_threshold
        self.tie_break = tie_break

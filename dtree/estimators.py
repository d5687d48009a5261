"""The algorithms as scikit-learn estimators: each is a small configuration of the one grower.

==============  ================  ========================  ======================
estimator       criterion         numeric attributes        categorical attributes
==============  ================  ========================  ======================
ID3Classifier   information gain  each value is a category  multiway split
C45Classifier   gain ratio        threshold split           multiway split
CARTClassifier  Gini decrease     threshold split           bipartition
CARTRegressor   variance decrease threshold split           bipartition
==============  ================  ========================  ======================
"""
from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import (FLAG, AtFit, Feature, Features, Integer, Interval, OneOf,
                          RandomState, Rows, TieBreak, as_array, check_params,
                          check_sample_weight, count_features, count_rows,
                          encode_columns, encode_labels, fit_features, refuse_sparse,
                          table_columns, take_rows)
from .grow import SplitRules, StoppingRules, grow
from .probability import PROBABILITY, smoothed_tree
from .pruning import (AT_FIT, PRUNERS, Grown, PruningPath, _prune_on_validation,
                      _prune_to_alpha, refuse_second_pruning, weakest_links)
from .report import cp_table
from .sktree import Tree, impurity_decreases, leaf_ids, node_indicator
from .tree import (PREDICT_MISSING, Node, _predict_routed, _compact, level_ties, most_probable,
                   predict_values)

__all__ = ["ID3Classifier", "C45Classifier", "CARTClassifier", "CARTRegressor"]

#: the book's API page, where each estimator's entry has the anchor ``#dtree.<name>``
API_PAGE = "https://dtree-book.github.io/dtree/book/api.html"


def _labels_1d(y) -> np.ndarray | object:
    """y as given, or its single column with a warning, as scikit-learn does."""
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    refuse_sparse(y, "y", "a dense 1-D array, e.g. y.toarray().ravel()")
    if isinstance(y, (pd.Series, pd.Index)):
        return y
    y = as_array(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected; using its "
                      "single column", DataConversionWarning, stacklevel=3)
        return y[:, 0]
    return y


class _Tree(BaseEstimator):
    """What every tree of the book shares; subclasses set the configuration below."""

    #: the split criterion (see dtree.impurity.SCORES)
    _criterion: str
    #: whether numeric columns are split by thresholds (else each value is a category)
    _numeric_thresholds: bool = True
    #: every parameter's rule (dtree._validation): a wrong type is a TypeError (booleans are
    #: not numbers here, as in scikit-learn), a value out of range a ValueError
    _parameters: dict = {
        "max_depth": Integer(0, none=True), "min_samples_split": Integer(2),
        "min_impurity_decrease": Interval(0), "purity_threshold": Interval(0, 1, low_open=True),
        "tie_break": TieBreak(), "predict_missing": OneOf(PREDICT_MISSING),
        "handle_unknown": OneOf(("missing", "error"))}

    tree_: Node | Tree

    # the "?" link of the HTML repr (scikit-learn's ``_get_doc_link``): the API page's entry
    _doc_link_module = "dtree"
    _doc_link_template = API_PAGE + "#dtree.{estimator_name}"

    def _stopping_rules(self, p) -> StoppingRules:
        """When a node stops splitting, from the checked parameters ``p``."""
        return StoppingRules(p.max_depth, p.min_samples_split, p.min_impurity_decrease,
                             p.purity_threshold)

    def _split_rules(self, p) -> SplitRules:
        """How nodes are split, from the checked parameters ``p``."""
        return SplitRules(self._criterion)

    def _targets(self, y) -> tuple[np.ndarray, int, np.ndarray | None]:
        """y as the grower takes it: class codes and the classes, or the target values."""
        raise NotImplementedError

    def _check_missing(self, matrix: np.ndarray, features: list[Feature], columns: list) -> None:
        """Refuse a missing value (and, at predict, a value unseen at fit) if
        ``missing="error"`` (only ID3Classifier offers it); ``matrix`` holds NaN exactly there."""
        if self.missing != "error" or not np.isnan(matrix).any():
            return
        missing = [j for j, column in enumerate(columns) if pd.isna(column).any()]
        if missing:  # reported first: a missing value is the commoner mistake
            j, problem = missing[0], "a missing value (None or NaN)"
        else:
            j = np.flatnonzero(np.isnan(matrix).any(axis=0))[0]
            unseen = np.asarray(columns[j], dtype=object)[np.isnan(matrix[:, j])][0]
            problem = f"the value {unseen!r}, unseen at fit,"
        raise ValueError(
            f"X has {problem} in column {features[j].name!r}; ID3, as Quinlan defined it "
            f"(missing={self.missing!r}), has no rule for missing or unseen values. Use "
            "C45Classifier, or ID3Classifier(missing='fractional') to send such rows down "
            "every branch with fractional weights (Zhou 2016, sec. 4.4.2).")

    def _priority(self, features: list[Feature]) -> np.ndarray:
        """Rank of each feature when scores tie: column order, or the order of tie_break."""
        names = [f.name for f in features]
        if isinstance(self.tie_break, str):
            return np.arange(len(names))
        order = list(self.tie_break)
        unknown = [name for name in order if name not in names]
        if unknown:
            raise ValueError(f"tie_break names features that X does not have: {unknown}")
        return np.array([order.index(n) if n in order else len(order) + j
                         for j, n in enumerate(names)])

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None,
            validation_data: tuple | None = None):
        """Grow the tree on X (DataFrame or 2-D array) and targets y.

        Everything is checked and the new tree is grown before any fitted attribute is replaced,
        so a fit that fails leaves the model exactly as it was (unfitted, or the previous fit).
        A parameter of the wrong type is a TypeError (booleans are not numbers here, as in
        scikit-learn), a parameter out of range a ValueError.

        Parameters
        ----------
        X : pandas.DataFrame, array-like or sparse matrix of shape (n_samples, n_features)
            One column per attribute: a DataFrame, a 2-D array, or a scipy sparse matrix or
            array (read column by column; an absent entry is 0, a stored NaN is missing). A
            pandas categorical column's branches are its declared categories, in their order;
            any other column's are its distinct values, sorted.
            None and NaN are missing values (refused if ``missing="error"``); infinity is
            refused, here and at predict (it is neither a value nor missing). Every cell must be
            hashable (not a list). A column is numeric if it holds only numbers (a numeric
            dtype, or objects that are all ints and floats, None and NaN aside), else
            categorical: strings are categories even if they look like numbers, and a column
            mixing numbers and strings is refused (TypeError). A column with every value missing
            (in the rows of positive weight) is kept, with a UserWarning naming it: no split can
            use it, so the tree is the one grown without it (as in scikit-learn, Weka, rpart).
        y : array-like of shape (n_samples,)
            The class labels (a classifier; ``classes_`` holds every label of y, sorted) or the
            numeric targets (a regressor); none missing.
        sample_weight : array-like of shape (n_samples,), float or None, default=None
            Non-negative finite numbers (not strings), one per row or one for all, not all
            zero. Only their ratios matter. If the largest weight lies in [2^-64, 2^64) (as
            for weights of 1), they are used as given, and the tree's weighted counts
            (``weighted_n_samples``, a classifier's ``value``) are in their units. Otherwise,
            so that sums do not overflow nor squares underflow, every weight is multiplied by
            2^-e, where the largest weight is m 2^e with 1 <= m < 2: a power of two, so every
            ratio is kept exactly and the tree is that of the weights as given, but its
            weighted counts are in units of 2^e (the largest weight counts m), as are those
            that J48's rules and the pruners compare with fixed numbers. A row of weight 0 is
            as if absent: it counts toward no rule (``min_samples_split``) and its values make
            no branch; its label stays in ``classes_``.
        validation_data : tuple (X_val, y_val) or None, default=None
            ``(X_val, y_val)`` (a classifier only): validation-based pre-pruning (Zhou 2016, sec.
            4.3.1): a node is split only if that strictly raises the whole tree's accuracy on
            these rows (of the classes ``predict`` would return). ``pruning_log_`` then lists
            the nodes examined, with the two accuracies and the decision.

        Returns
        -------
        self
            The fitted estimator.
        """
        tree, features, table, classes, training = self._grow(X, y, sample_weight)
        log = self._post_prune(tree, classes, *training)
        training = None  # the encoded rows are freed before the tree is laid out
        if validation_data is not None:
            if log is not None:
                refuse_second_pruning("validation_data", f"pruning={self.pruning!r}")
            log = self._prune_on_validation(tree, features, classes, validation_data)
        # only now replace the fitted attributes; validate_data(reset=True) sets n_features_in_
        # and feature_names_in_ (it can fail, on column names of mixed types, before setting any)
        validate_data(self, table, reset=True, skip_check_array=True)
        if classes is not None:
            self.classes_, self.n_classes_ = classes, len(classes)
        self._features, self.tree_ = features, self._fitted(_compact(tree))  # pruned: kept nodes
        for earlier in ("pruning_log_", "pruned_by_"):  # from an earlier fit or pruner
            self.__dict__.pop(earlier, None)
        if log is not None:
            self.pruning_log_ = log
        return self

    def _fitted(self, root: Node) -> Node | Tree:
        """What ``tree_`` holds: the root (a multiway tree), or CART's :class:`Tree`."""
        return root

    @property
    def _root(self) -> Node:
        """The fitted tree's root: ``tree_``, or CART's ``tree_.root``."""
        return self.tree_.root if isinstance(self.tree_, Tree) else self.tree_

    def _post_prune(self, tree: Node, classes, matrix: np.ndarray, targets: np.ndarray,
                    w: np.ndarray, holdout: np.ndarray | None) -> pd.DataFrame | None:
        """Prune the grown tree in place as the algorithm's parameters say (``pruning``,
        CART's ``ccp_alpha``); returns the log, or None (no pruning, or none logged)."""
        return None

    def _holdout(self, targets: np.ndarray) -> np.ndarray | None:
        """The training rows held out of growing, for ``pruning="reduced_error"`` (or None)."""
        return None

    def _class_weighted(self, y, w: np.ndarray) -> np.ndarray:
        """The checked sample weights ``w`` times each row's class weight (a classifier's
        ``class_weight``); here as they are."""
        return w

    def _grown_weights(self, targets: np.ndarray, n_classes: int, w: np.ndarray) -> np.ndarray:
        """The weights the tree is grown on (CART's priors alter them); here the rows'."""
        return w

    def _prune_on_validation(self, tree: Node, features: list[Feature], classes,
                             validation_data) -> pd.DataFrame:
        raise ValueError("validation_data prunes by accuracy: it needs a classifier")

    def _grow(self, X, y, sample_weight):
        """Check everything and grow the tree; returns it, the features, X's table (for
        validate_data), the classes (None for a regressor) and the encoded training rows, their
        targets (a classifier's class codes as floats), weights and the rows held out of
        growing (or None). Nothing is stored."""
        p = check_params(self, self._parameters)
        y = _labels_1d(y)
        names, columns, table = table_columns(X)
        targets, n_classes, classes = self._targets(y)
        targets = np.asarray(targets, dtype=float)  # as the grower reads them: no copy there
        if len(targets) != len(columns[0]):
            raise ValueError(f"X has {len(columns[0])} rows but y has {len(targets)} targets")
        w = self._class_weighted(y, check_sample_weight(sample_weight, len(targets)))
        whole = bool((w > 0).all())  # a row of weight 0 is as if absent
        if not whole:
            kept = w > 0
            columns, targets, w = take_rows(columns, kept), targets[kept], w[kept]
        features, matrix = fit_features(  # X itself if it is float64 (and whole): only read
            names, columns, numeric=self._numeric_thresholds, table=table if whole else None)
        self._check_missing(matrix, features, columns)
        holdout = self._holdout(targets)
        tree = self._grown(p, features, matrix, targets, n_classes, w, holdout)
        return tree, features, table, classes, (matrix, targets, w, holdout)

    def _grown(self, p, features: list[Feature], matrix: np.ndarray, targets: np.ndarray,
               n_classes: int, w: np.ndarray, holdout: np.ndarray | None = None) -> Node:
        """The tree grown on encoded rows, all of positive weight (``holdout``: those left out
        of growing, or None), by the checked parameters ``p``, whose fractions of rows count
        these rows and fractions of columns the columns (``p`` itself is not changed)."""
        p = SimpleNamespace(**vars(p))
        for name in ("min_samples_split", "min_samples_leaf"):  # a fraction: of these rows
            if hasattr(p, name):
                setattr(p, name, count_rows(getattr(p, name), len(targets)))
        if hasattr(p, "max_features"):  # a name or a fraction: of the columns
            p.max_features = count_features(p.max_features, len(features))
        stopping, rules = self._stopping_rules(p), self._split_rules(p)
        priority = self._priority(features)
        grown = self._grown_weights(targets, n_classes, w)
        if holdout is not None:
            grown = np.where(holdout, 0.0, grown)  # weight 0: left out
        return grow(matrix, features, targets, n_classes, grown, rules, stopping, priority)

    def _encoded(self, X: ArrayLike) -> np.ndarray:
        """X as the fitted tree reads it (see ``encode``), after checking it as at fit."""
        check_is_fitted(self, "tree_")
        _, columns, table = table_columns(X)
        if not self._columns_as_at_fit(table):  # else validate_data would find nothing amiss
            validate_data(self, table, reset=False, skip_check_array=True)
        unseen: dict = {}
        matrix = encode_columns(columns, self._features, table, copy=False,  # only read
                                unseen=unseen)
        self._check_missing(matrix, self._features, columns)
        if unseen:
            self._unseen_categories(unseen)
        return matrix

    def _unseen_categories(self, unseen: dict) -> None:
        """Say which columns hold categories unseen at fit (column -> rows, a few values): a
        UserWarning, as they are read as missing values (C4.5's rule; Quinlan 1993, ch. 3),
        or with ``handle_unknown="error"`` a ValueError."""
        found = "; ".join(f"{name!r}: {rows} row{'s' * (rows != 1)}, e.g. "
                          + ", ".join(map(repr, values)) for name, (rows, values) in unseen.items())
        if self.handle_unknown == "error":
            raise ValueError(f"X has categories unseen at fit ({found}); handle_unknown='error' "
                             "refuses them")
        warnings.warn(f"X has categories unseen at fit, read as missing values ({found}); a "
                      "typo or a stray space? handle_unknown='error' refuses them",
                      UserWarning, stacklevel=_caller_level())

    def _columns_as_at_fit(self, table: np.ndarray | pd.DataFrame) -> bool:
        """Whether ``table`` has the columns of fit, so that scikit-learn's ``validate_data``
        (as called in ``_encoded``) would neither warn nor raise: as many, and the same names in
        the same order (strings), or no names at either."""
        if table.shape[1] != self.n_features_in_:
            return False
        names = getattr(self, "feature_names_in_", None)
        if isinstance(table, pd.DataFrame):
            columns = table.columns.tolist()
            return (names is not None and all(type(name) is str for name in columns)
                    and columns == names.tolist())
        return names is None and isinstance(table, np.ndarray)

    def apply(self, X: ArrayLike) -> np.ndarray:
        """The id of the node where each row ends: its leaf. Node ids number the nodes in
        pre-order, parents before children and branches in order (for a binary tree, as
        scikit-learn's ``apply``). A row that a missing value sends down several branches ends
        in several leaves: the one holding the largest share of it (the first on a tie); a CART
        row that no surrogate places, at a node whose children hold as many training rows,
        ends at that internal node, as its prediction does."""
        matrix = self._encoded(X)  # NotFittedError first
        return leaf_ids(self._root, matrix, self.predict_missing)

    def decision_path(self, X: ArrayLike):
        """A sparse indicator matrix (CSR), one row per row of X and one column per node (ids
        as in ``apply``): 1 where the row reaches the node, by any share. A row that a missing
        value sends down several branches marks every node it visits."""
        matrix = self._encoded(X)  # NotFittedError first
        return node_indicator(self._root, matrix, self.predict_missing)

    def _predict_values(self, X: ArrayLike) -> np.ndarray:
        """Each row's class probabilities or mean: the leaf (or leaves) it reaches.

        X is read as at fit (same columns; infinity and unhashable cells refused); a category
        unseen at fit counts as missing (both are refused if ``missing="error"``).
        """
        matrix = self._encoded(X)  # first: NotFittedError before the tree is looked up
        return predict_values(self._root, matrix, self.predict_missing)

    def __repr__(self, N_CHAR_MAX: int = 700) -> str:
        """The parameters, as scikit-learn shows them, and for a pruner's result the pruning
        that they do not describe (``pruned_by_``), which ``clone()`` does not keep."""
        text = super().__repr__(N_CHAR_MAX)
        if hasattr(self, "pruned_by_"):
            text += f"  # pruned by {self.pruned_by_}: a fitted result, not a configuration"
        return text

    def get_depth(self) -> int:
        """Depth of the tree: the number of tests on its longest path (a lone leaf has depth 0)."""
        check_is_fitted(self, "tree_")
        return self._root.height()

    def get_n_leaves(self) -> int:
        """Number of leaves, empty branches included."""
        check_is_fitted(self, "tree_")
        return self._root.n_leaves()

    @property
    def feature_importances_(self) -> np.ndarray:
        """Each feature's share of the tree's total impurity decrease (scikit-learn's "Gini
        importance"; Breiman et al. 1984, sec. 5.3.4): over the internal nodes t that test it,
        the sum of W_t I(t) - sum_c W_c I(c), over all of t's children c (every branch of a
        multiway split), normalised to sum to 1 (all zeros for a tree that is one leaf). I is
        the tree's impurity: entropy in bits for ID3 and C4.5, Gini for CART, the squared or
        absolute error for CARTRegressor; W the training weight at a node. A row that a
        missing value sends down several branches counts in each child with the share of its
        weight that went there (C4.5), and a CART row that stays at its node counts in no
        child."""
        check_is_fitted(self, "tree_")
        decrease = impurity_decreases(self._root, self.n_features_in_)
        total = decrease.sum()
        return decrease / total if total > 0 else decrease

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.missing != "error"
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.input_tags.sparse = True
        return tags


#: every classifier's probability estimate and its m (:mod:`dtree.probability`)
_ESTIMATES = {"probability": OneOf(PROBABILITY), "m": Interval(0)}


class _TreeClassifier(ClassifierMixin, _Tree):
    """A tree whose leaves hold class distributions."""

    classes_: np.ndarray
    _parameters = {**_Tree._parameters, **_ESTIMATES}

    def _probabilities(self, X: ArrayLike) -> np.ndarray:
        """Each row's class probabilities as ``probability`` estimates them from the leaves'
        class weights (:mod:`dtree.probability`); the frequencies are the tree's own."""
        if self.probability == "frequency":
            return self._predict_values(X)
        check = self._parameters  # both may change after fit
        probability = check["probability"](self.probability, "probability")
        m = check["m"](self.m, "m")
        matrix, root = self._encoded(X), self._root
        routing = root._table.routing(root._row)  # the same object until the tree is edited
        made = self.__dict__.get("_smoothed")  # (for which routing, estimate, m, its smoothing)
        if made is None or made[0] is not routing or made[1:3] != (probability, m):
            smoothed = smoothed_tree(root, probability, m)
            made = self._smoothed = (routing, probability, m,
                                     smoothed._table.routing(smoothed._row))
        return _predict_routed(made[3], matrix, self.predict_missing)

    def __getstate__(self) -> dict:
        """The state to pickle, without the smoothed tree of the last ``predict_proba``
        (made again when needed)."""
        state = super().__getstate__()
        state.pop("_smoothed", None)
        return state

    def _targets(self, y) -> tuple[np.ndarray, int, np.ndarray]:
        y_codes, classes = encode_labels(y, name="y")
        # type_of_target on the codes gives y's binary/multiclass answer and its "too many
        # classes" warning without sorting y's labels again; a float y is checked as given, so
        # that a continuous target is refused as in scikit-learn
        check_classification_targets(y if y.dtype.kind in "fc" else y_codes)
        return y_codes, len(classes), classes

    def _class_weighted(self, y, w: np.ndarray) -> np.ndarray:
        """The checked sample weights ``w`` times each row's class weight (``class_weight``:
        None, "balanced" or a dict), as scikit-learn's ``compute_sample_weight`` gives it; the
        product must pass the rules of sample weights (``check_sample_weight``): class weights
        that leave no positive weight are refused, and extreme ones rescaled."""
        if self.class_weight is None:
            return w
        return check_sample_weight(w * compute_sample_weight(self.class_weight, y), len(w))

    def _prune_as_named(self, tree: Node, classes: np.ndarray, matrix: np.ndarray,
                        targets: np.ndarray, w: np.ndarray, holdout: np.ndarray | None
                        ) -> pd.DataFrame:
        """Prune the grown tree in place with the pruner ``pruning`` names
        (:data:`dtree.pruning.AT_FIT`); returns the log."""
        return AT_FIT[self.pruning](tree, Grown(self, len(classes), matrix,
                                                targets.astype(np.int64), w, holdout))

    def _prune_on_validation(self, tree: Node, features: list[Feature], classes: np.ndarray,
                             validation_data) -> pd.DataFrame:
        """Pre-prune the grown tree in place on ``(X_val, y_val)``; returns the log."""
        if not (isinstance(validation_data, (tuple, list)) and len(validation_data) == 2):
            raise ValueError("validation_data must be a pair (X_val, y_val)")
        X_val, y_val = self._encode(*validation_data, features, classes)
        return _prune_on_validation(tree, X_val, y_val, len(classes), self.predict_missing,
                                    self._decision_loss(len(classes)))

    def _decision_loss(self, n_classes: int) -> np.ndarray | None:
        """The loss matrix by which the model names a class (:func:`dtree.tree.most_probable`),
        or None: the most probable class."""
        return None

    def _holdout(self, targets: np.ndarray) -> np.ndarray | None:
        """For the pruners that judge on held-out rows (``pruning="reduced_error"`` or
        ``"validation"``), ``validation_fraction`` of each class's rows, drawn with
        ``random_state`` (a stratified split, as Weka's J48 ``-R``)."""
        if self.pruning not in ("reduced_error", "validation"):
            return None
        rng, holdout = check_random_state(self.random_state), np.zeros(len(targets), bool)
        for code in np.unique(targets):
            rows = rng.permutation(np.flatnonzero(targets == code))
            holdout[rows[:round(len(rows) * self.validation_fraction)]] = True
        if holdout.all():
            raise ValueError(f"validation_fraction={self.validation_fraction} holds out every "
                             "row: none is left to grow the tree on")
        return holdout

    def encode(self, X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Rows as the fitted tree reads them, for a pruner (:mod:`dtree.pruning`): X as a
        matrix, one column per feature (numbers as they are, a category as its code, NaN where
        a value is missing or a category unseen at fit), and y as class codes (the position in
        ``classes_``, -1 for a class unseen at fit)."""
        check_is_fitted(self, "tree_")
        return self._encode(X, y, self._features, self.classes_)

    def _encode(self, X_val, y_val, features: list[Feature],
                classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``encode`` with the given features and classes (also inside fit, before the fitted
        attributes exist)."""
        names, columns, table = table_columns(X_val)
        expected = [f.name for f in features]
        if names != expected and not (isinstance(table, np.ndarray) and len(names) ==
                                      len(expected)):
            raise ValueError(f"X has columns {names}, not those the model was fitted on: "
                             f"{expected}")
        matrix = encode_columns(columns, features, table)
        self._check_missing(matrix, features, columns)
        labels = as_array(_labels_1d(y_val))
        if len(labels) != len(matrix):
            raise ValueError(f"X has {len(matrix)} rows but y has {len(labels)} labels")
        position = {label: code for code, label in enumerate(classes.tolist())}
        return matrix, np.array([position.get(label, -1) for label in labels.tolist()])

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities: the weighted class shares of the leaf (or leaves) a row reaches.
        A probability within round-off of its row's largest is returned equal to it
        (:func:`dtree.tree.level_ties`), so that ``predict`` is ``classes_[argmax]`` of these
        very numbers, the first class on a tie. With ``probability`` "laplace" or "m-estimate"
        each leaf's shares are smoothed first (:mod:`dtree.probability`). X is read as at
        fit; see ``fit``."""
        return level_ties(self._probabilities(X))

    def predict_log_proba(self, X: ArrayLike) -> np.ndarray:
        """The natural logarithm of ``predict_proba`` (-inf for a probability of 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The most probable class of each row, ``classes_[np.argmax(predict_proba(X))]``: the
        first in ``classes_`` on a tie, up to round-off (:func:`dtree.tree.most_probable`)."""
        values = self._probabilities(X)  # first: NotFittedError before classes_ is looked up
        return self.classes_[most_probable(values)]  # levels the ties as predict_proba does


class _Pruned(_TreeClassifier):
    """A classifier whose ``pruning`` parameter prunes the tree at the end of ``fit``, so that
    ``clone()``, cross-validation and grid search keep the pruning (ID3 and C4.5; CART has
    ``ccp_alpha``). The parameters are documented in :class:`C45Classifier`."""

    _parameters = {
        **_TreeClassifier._parameters, "pruning": OneOf((None, *PRUNERS)),
        "confidence": Interval(0, 0.5, low_open=True), "subtree_raising": FLAG, "z": Interval(0),
        "validation_fraction": Interval(0, 1, low_open=True, high_open=True),
        "prune_on_tie": FLAG, "random_state": RandomState(),
        "class_weight": AtFit()}  # checked by scikit-learn's compute_sample_weight

    def _post_prune(self, tree: Node, classes, matrix: np.ndarray, targets: np.ndarray,
                    w: np.ndarray, holdout: np.ndarray | None) -> pd.DataFrame | None:
        if self.pruning is None:
            return None
        return self._prune_as_named(tree, classes, matrix, targets, w, holdout)


class ID3Classifier(_Pruned):
    """ID3 (Quinlan 1986): multiway splits chosen by information gain.

    Every column is categorical, numbers included (each distinct value is a branch); an attribute
    is used at most once on any path. Like Quinlan's ID3 it handles no missing values unless
    told to (``missing``).

    ``pruning``, ``confidence``, ``subtree_raising``, ``z``, ``validation_fraction``,
    ``prune_on_tie`` and ``random_state`` prune the tree at the end of ``fit``, and
    ``class_weight`` weighs the classes, as in :class:`C45Classifier`, with the same defaults.

    Parameters
    ----------
    max_depth : int or None, default=None
        Stop splitting at this depth (the root has depth 0); None for no limit.
    min_samples_split : int, default=2
        A node with fewer rows is a leaf (a row of weight 0 is not a row; see ``fit``).
    min_impurity_decrease : float, default=0.0
        A node whose best gain (in bits, at that node) is smaller is a leaf.
    purity_threshold : float in (0, 1], default=1.0
        A node whose majority class has at least this weight share is a leaf.
    tie_break : "first" or list of str, default="first"
        How equal gains are decided: "first" (column order) or a list of feature names in
        order of preference.
    missing : {"error", "fractional"}, default="error"
        "error" (ID3 as Quinlan defined it): a missing value (None or NaN) in X, at fit or at
        predict, or at predict a value unseen at fit, is a ValueError naming its column.
        "fractional": missing values as in C4.5 (Zhou 2016, sec. 4.4.2): the gain is computed
        on the known rows and multiplied by their weight share, and a row whose tested value is
        missing enters every branch with its weight times the branch's share of the known
        weight. At predict a missing or unseen value is routed by ``predict_missing``.
    predict_missing : {"distribute", "most_frequent", "stop"}, default="distribute"
        With ``missing="fractional"``, what a row does at predict time at a node whose tested
        value it lacks (missing, or unseen at fit): "distribute" (C4.5; Quinlan 1993, ch. 3)
        follows every branch, weighted by the branch's training fraction, and sums the leaves'
        class distributions; "most_frequent" takes the branch that held the most training
        weight at the node (the most frequent value among its rows; the first on a tie);
        "stop" answers with the node's own class distribution. It may be changed after fit.
    handle_unknown : {"missing", "error"}, default="missing"
        A category unseen at fit, at predict: read as a missing value (C4.5's rule), with a
        UserWarning naming the column, the number of rows and a few of the values (a typo or
        a stray space reads so); "error" refuses it (ValueError). A column of numbers where
        fit saw strings, or the other way round, is always refused (TypeError).
    probability : {"frequency", "laplace", "m-estimate"}, default="frequency"
        The estimate of ``predict_proba`` (and so of ``predict``), as in
        :class:`C45Classifier`.
    m : float, default=2.0
        The m-estimate's weight, as in :class:`C45Classifier`.

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (n_classes,)
        The class labels of y, sorted.
    n_classes_ : int
        Their number.
    tree_ : dtree.Node
        The root of the fitted tree; every node holds its weighted class counts (``value``).
    n_features_in_ : int
        The number of columns of X at fit.
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names, if X was a DataFrame with string names.
    feature_importances_ : numpy.ndarray of shape (n_features,)
        Each feature's share of the tree's total entropy decrease (a property).
    pruning_log_ : pandas.DataFrame
        The nodes a pruning examined, with its decision; only after ``pruning`` or
        ``validation_data`` pruned the tree.

    See Also
    --------
    C45Classifier : gain ratio, thresholds on numbers, fractional missing values.
    CARTClassifier : binary splits by the Gini index.

    Notes
    -----
    A node's rows D, with class shares p_k, are split on the attribute a of largest
    information gain (Quinlan 1986; Zhou 2016, eqs. 4.1-4.2), D^v being the rows with value v::

        Gain(D, a) = Ent(D) - sum_v |D^v| / |D| Ent(D^v),   Ent(D) = -sum_k p_k log2 p_k.

    With sample weights every count is a weight.

    Examples
    --------
    At the root Ent(D) = 0.971 bits (2 "yes" of 5). Splitting on outlook leaves only "rain"
    impure (1 bit over 2 rows): a gain of 0.971 - 2/5 = 0.571, against 0.420 for windy.

    >>> import pandas as pd
    >>> from dtree import ID3Classifier, export_text
    >>> X = pd.DataFrame({"outlook": ["sunny", "sunny", "rain", "rain", "overcast"],
    ...                   "windy": ["no", "yes", "no", "yes", "no"]})
    >>> y = ["no", "no", "yes", "no", "yes"]
    >>> model = ID3Classifier().fit(X, y)
    >>> print(export_text(model))
    |--- outlook = overcast
    |   |--- class: yes (no 0, yes 1)
    |--- outlook = rain
    |   |--- windy = no
    |   |   |--- class: yes (no 0, yes 1)
    |   |--- windy = yes
    |   |   |--- class: no (no 1, yes 0)
    |--- outlook = sunny
    |   |--- class: no (no 2, yes 0)
    >>> model.predict(pd.DataFrame({"outlook": ["rain"], "windy": ["no"]})).tolist()
    ['yes']
    """

    _criterion = "info_gain"
    _numeric_thresholds = False
    _parameters = {**_Pruned._parameters, "missing": OneOf(("error", "fractional"))}

    def __init__(self, max_depth: int | None = None, min_samples_split: int = 2,
                 min_impurity_decrease: float = 0.0, purity_threshold: float = 1.0,
                 tie_break: str | Sequence[str] = "first", missing: str = "error",
                 predict_missing: str = "distribute", pruning: str | None = None,
                 confidence: float = 0.25, subtree_raising: bool = True, z: float = 1.0,
                 validation_fraction: float = 1 / 3, prune_on_tie: bool = False,
                 random_state: int | np.random.RandomState | None = None,
                 class_weight: dict | str | None = None, handle_unknown: str = "missing",
                 probability: str = "frequency", m: float = 2.0):
        self.handle_unknown = handle_unknown
        self.probability = probability
        self.m = m
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_impurity_decrease = min_impurity_decrease
        self.purity_threshold = purity_threshold
        self.tie_break = tie_break
        self.missing = missing
        self.predict_missing = predict_missing
        self.pruning = pruning
        self.confidence = confidence
        self.subtree_raising = subtree_raising
        self.z = z
        self.validation_fraction = validation_fraction
        self.prune_on_tie = prune_on_tie
        self.random_state = random_state
        self.class_weight = class_weight


class C45Classifier(_Pruned):
    """C4.5 (Quinlan 1993) as Zhou (2016, sec. 4.3-4.4) teaches it: gain ratio, thresholds on
    numeric attributes, fractional weights for missing values.

    A categorical attribute splits multiway and is then used up on that path. A numeric one
    splits at a threshold, ``value <= t`` going left, t being the midpoint of two adjacent
    distinct values with the highest information gain (Zhou eq. 4.8); it stays available below
    its own split. The attributes are compared by gain ratio, Gain / IV (Zhou eq. 4.3), where
    IV counts the rows with a missing value as one more group (two branches and that group for
    a threshold). Every attribute that can split a node has IV > 0. With
    ``gain_filter="average"`` only the attributes whose gain is at least the average gain of the
    node's candidates compete (a gain equal to the average, up to round-off, passes): the
    heuristic that keeps the gain ratio from favouring a split with a tiny IV.

    Missing values (``missing="fractional"``, Zhou sec. 4.4.2): the gain is computed on the rows
    whose value is known and multiplied by their weight share rho; a row whose tested value is
    missing enters every branch with its weight times the branch's share of the known weight.
    At predict time such a row follows every branch, weighted by the training fractions (the
    default ``predict_missing``). Every count in the tree is a weighted count. A value unseen at
    fit is treated as missing.

    Parameters
    ----------
    max_depth : int or None, default=None
        Stop splitting at this depth (the root has depth 0); None for no limit.
    min_samples_split : int, default=2
        A node with fewer rows is a leaf (a row of weight 0 is not a row; see ``fit``).
    min_samples_leaf : int, default=1
        A split is allowed only if every branch that receives rows receives at least this many
        rows (not weights, as ``min_samples_split``; a row whose tested value is missing counts
        in every branch). Only the cuts that satisfy it are candidate thresholds. A node with no
        allowed split is a leaf.
    min_impurity_decrease : float, default=0.0
        A node whose chosen split has a smaller gain (in bits, at that node) is a leaf.
    purity_threshold : float in (0, 1], default=1.0
        A node whose majority class has at least this weight share is a leaf.
    tie_break : "first" or list of str, default="first"
        How equal gain ratios are decided: "first" (column order) or a list of feature names in
        order of preference. A threshold tie goes to the smallest threshold.
    variant : {"textbook", "j48"}, default="textbook"
        "textbook": C4.5 as Zhou and the book's sources teach it. "j48": C4.5 Release 8 as
        Weka's J48 builds it unpruned (``J48 -U``; ``min_samples_leaf`` is its ``-M``): a
        threshold's gain pays log2(number of candidate cuts)/W (Quinlan 1996) and the
        threshold moves down to the largest training value not above the midpoint; a split
        needs ``min_samples_leaf`` weight in at least two branches, and a cut at least
        ``min(max(0.1 W~ / n_classes, min_samples_leaf), 25)`` known weight on each side;
        attributes with at least 0.3 x (training rows) categories are left out of the average
        gain; the winner needs a positive gain ratio; a subtree that does not lower the
        training error is collapsed into a leaf (stop reason "collapsed"). Trees equal J48's,
        except that a leaf whose top classes tie shows the first in ``classes_`` (sorted), J48
        the first in its header's order.
    gain_filter : "average" or None, default="average"
        "average" (the heuristic above) or None (every candidate competes on gain ratio alone).
    missing : {"fractional", "branch"}, default="fractional"
        "fractional": missing values as described above. "branch": a missing value is a value
        of its own (Quinlan 1989's third option): a node whose training rows include some with
        the tested value missing gets one more branch, the last (``Node.missing_branch``), and
        those rows go there with their whole weight; the gain is computed on all rows, with
        the missing ones as one more group, and not discounted. A numeric attribute still
        needs a cut between two known values.
    predict_missing : {"distribute", "most_frequent", "stop"}, default="distribute"
        What a row does at predict time at a node whose tested value it lacks (missing, or a
        category unseen at fit): "distribute" (C4.5; Quinlan 1993, ch. 3) follows every branch,
        weighted by the branch's training fraction, and sums the leaves' class distributions;
        "most_frequent" takes the branch that held the most training weight at the node (the
        most frequent value among its rows; the first on a tie); "stop" answers with the node's
        own class distribution. A node with a missing-value branch (``Node.missing_branch``)
        sends the row there whatever this says. It may be changed after fit.
    criterion : {"gain_ratio", "info_gain"}, default="gain_ratio"
        "gain_ratio" (C4.5) ranks the attributes by gain ratio; "info_gain" by information
        gain, with the same thresholds: the tree of Zhou (2016), sec. 4.4.1, fig. 4.8.
    pruning : {"error_based", "pessimistic", "reduced_error", "validation"} or None, default=None
        How ``fit`` prunes the grown tree (:mod:`dtree.pruning`; ``pruning_log_`` then lists
        the nodes examined). None: not at all. "error_based": C4.5's pruning, with
        ``confidence`` (J48's ``-C``) and ``subtree_raising`` (J48's default; ``-S`` turns it
        off). "pessimistic": Quinlan's (1987), top-down, a node pruned if e(t) + 1/2 <= E +
        ``z`` SE. "reduced_error": the tree is grown on the rest of the training rows and
        pruned on ``validation_fraction`` of each class's rows, drawn with ``random_state``
        (as J48 ``-R``), a node pruned if that raises the accuracy there (``prune_on_tie``:
        if it does not lower it). "validation": pre-pruning on a validation set (Zhou 2016,
        sec. 4.3.1), the rows held out as for "reduced_error": a node is split only if that
        strictly raises the accuracy on them (as ``fit(..., validation_data=...)``). Being
        parameters, these survive ``clone()``: cross-validation and grid search measure the
        pruned tree. :meth:`j48` gives Weka's default J48.
    confidence : float in (0, 0.5], default=0.25
        "error_based": the confidence level of the upper error limit (J48's ``-C``).
    subtree_raising : bool, default=True
        "error_based": whether a node's largest branch may replace it.
    z : float, default=1.0
        "pessimistic": the standard errors a subtree may exceed its leaf by.
    validation_fraction : float in (0, 1), default=1/3
        "reduced_error" and "validation": the share of each class's rows held out to prune on.
    prune_on_tie : bool, default=False
        "reduced_error": prune a node when that keeps the validation accuracy equal.
    random_state : int, numpy.random.RandomState or None, default=None
        "reduced_error" and "validation": the draw of the held-out rows.
    class_weight : dict, "balanced" or None, default=None
        Each row's sample weight is multiplied by its class's weight, as in
        :class:`CARTClassifier` and scikit-learn ("balanced": n / (K n_j) for the n_j rows of
        class j of n, K classes). The tree's counts (``value``), the gains and every rule
        that counts weight see the product; ``dtree.pruning.prune_error_based`` then needs
        the product as its ``sample_weight``.
    handle_unknown : {"missing", "error"}, default="missing"
        A category unseen at fit, at predict: read as a missing value (C4.5's rule), with a
        UserWarning naming the column, the number of rows and a few of the values (a typo or
        a stray space reads so); "error" refuses it (ValueError). A column of numbers where
        fit saw strings, or the other way round, is always refused (TypeError).
    probability : {"frequency", "laplace", "m-estimate"}, default="frequency"
        How ``predict_proba`` estimates a leaf's class probabilities from its class weights
        n_k (N their sum, K classes; :func:`dtree.probability.class_probabilities`): n_k / N,
        (n_k + 1) / (N + K), or (n_k + m b_k) / (N + m), b_k the classes' shares at the root.
        ``predict`` is the argmax of these numbers, so the m-estimate, which pulls a small leaf
        towards the frequent classes, can change a leaf's class (the printouts name the class
        of the frequencies). It may be changed after fit.
    m : float, default=2.0
        The m-estimate's weight of the base rates, at least 0 (``probability="m-estimate"``).

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (n_classes,)
        The class labels of y, sorted.
    n_classes_ : int
        Their number.
    tree_ : dtree.Node
        The root of the fitted tree; every node holds its weighted class counts (``value``).
    n_features_in_ : int
        The number of columns of X at fit.
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names, if X was a DataFrame with string names.
    feature_importances_ : numpy.ndarray of shape (n_features,)
        Each feature's share of the tree's total entropy decrease (a property).
    pruning_log_ : pandas.DataFrame
        The nodes the pruning examined, with its decision; only after ``pruning`` or
        ``validation_data`` pruned the tree.

    See Also
    --------
    ID3Classifier : information gain, every column categorical.
    dtree.pruning.prune_error_based : the same pruning applied to a fitted model.

    Notes
    -----
    The gain ratio of attribute a, with branches D^v of the rows D (Quinlan 1993; Zhou 2016,
    eqs. 4.3-4.4)::

        Gain_ratio(D, a) = Gain(D, a) / IV(a),   IV(a) = -sum_v |D^v| / |D| log2(|D^v| / |D|).

    Examples
    --------
    Temperature's best cut, 69.5, leaves a "no" among the four rows on its left: a gain of
    1 - (4/6) 0.811 = 0.459 bits. Windy separates the classes: a gain of 1 bit, IV = 1.

    >>> import pandas as pd
    >>> from dtree import C45Classifier, export_text
    >>> X = pd.DataFrame({"temperature": [64, 65, 68, 69, 70, 71],
    ...                   "windy": ["no", "yes", "no", "no", "yes", "yes"]})
    >>> y = ["yes", "no", "yes", "yes", "no", "no"]
    >>> model = C45Classifier().fit(X, y)
    >>> print(export_text(model))
    |--- windy = no
    |   |--- class: yes (no 0, yes 3)
    |--- windy = yes
    |   |--- class: no (no 3, yes 0)
    >>> C45Classifier.j48().get_params()["confidence"]
    0.25
    """

    _numeric_thresholds = True
    _parameters = {
        **_Pruned._parameters, "missing": OneOf(("fractional", "branch")),
        "min_samples_leaf": Integer(1), "variant": OneOf(("textbook", "j48")),
        "gain_filter": OneOf(("average", None)), "criterion": OneOf(("gain_ratio", "info_gain"))}

    def __init__(self, max_depth: int | None = None, min_samples_split: int = 2,
                 min_samples_leaf: int = 1, min_impurity_decrease: float = 0.0,
                 purity_threshold: float = 1.0, tie_break: str | Sequence[str] = "first",
                 variant: str = "textbook", gain_filter: str | None = "average",
                 missing: str = "fractional", predict_missing: str = "distribute",
                 criterion: str = "gain_ratio", pruning: str | None = None,
                 confidence: float = 0.25, subtree_raising: bool = True, z: float = 1.0,
                 validation_fraction: float = 1 / 3, prune_on_tie: bool = False,
                 random_state: int | np.random.RandomState | None = None,
                 class_weight: dict | str | None = None, handle_unknown: str = "missing",
                 probability: str = "frequency", m: float = 2.0):
        self.handle_unknown = handle_unknown
        self.probability = probability
        self.m = m
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.purity_threshold = purity_threshold
        self.tie_break = tie_break
        self.variant = variant
        self.gain_filter = gain_filter
        self.missing = missing
        self.predict_missing = predict_missing
        self.criterion = criterion
        self.pruning = pruning
        self.confidence = confidence
        self.subtree_raising = subtree_raising
        self.z = z
        self.validation_fraction = validation_fraction
        self.prune_on_tie = prune_on_tie
        self.random_state = random_state
        self.class_weight = class_weight

    @classmethod
    def j48(cls, **changes) -> C45Classifier:
        """Weka's J48 with its defaults, ``J48 -C 0.25 -M 2``: the J48 variant, at least two
        rows in two branches, error-based pruning at confidence 0.25 with subtree raising.
        ``changes`` overrides any parameter, e.g. ``C45Classifier.j48(confidence=0.1)`` for
        ``-C 0.1``."""
        return cls(**{"variant": "j48", "min_samples_leaf": 2, "pruning": "error_based",
                      "confidence": 0.25, "subtree_raising": True, **changes})

    def _split_rules(self, p) -> SplitRules:
        return SplitRules(p.criterion, p.gain_filter, p.min_samples_leaf,
                          j48=p.variant == "j48", missing_branch=p.missing == "branch")


class _TreeRegressor(RegressorMixin, _Tree):
    """A tree whose leaves hold the mean target of their rows."""

    def _targets(self, y) -> tuple[np.ndarray, int, None]:
        try:
            values = np.asarray(y, dtype=float)
        except (TypeError, ValueError):
            raise ValueError("y must be numbers for a regressor") from None
        if values.ndim != 1:
            raise ValueError(f"y must be one-dimensional, got shape {values.shape}")
        if not np.isfinite(values).all():
            raise ValueError("y contains NaN or infinity; every row needs a finite target")
        with np.errstate(over="ignore"):  # the squared error sums w y^2 (past ~1e154: inf)
            overflows = not np.isfinite(np.dot(values, values))
        if overflows and getattr(self, "criterion", None) != "absolute_error":
            raise ValueError(
                f"y is too large for the squared error: the sum of its squares overflows "
                f"float64 (|y| up to {np.abs(values).max():.3g}); divide y by a constant, "
                f"such as 1e150, and multiply the predictions back")
        return values, 0, None

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The mean target of the leaf (or the weighted mix of the leaves) each row reaches.
        X is read as at fit; see ``fit``."""
        return self._predict_values(X)[:, 0]


def _caller_level() -> int:
    """The ``stacklevel`` of a warning that names the first caller outside dtree: predict,
    predict_proba, apply and the pruners reach the same check through different depths."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


_PACKAGE = str(Path(__file__).parent)

#: the rules by which CART's ``ccp_alpha`` is chosen by cross-validation (rpart's cptable)
CCP_RULES = ("1se", "min")


class _Alpha:
    """``ccp_alpha``: a number >= 0, or one of ``CCP_RULES``."""

    def __call__(self, value, name: str) -> float | str:
        if isinstance(value, str):
            return OneOf(CCP_RULES)(value, name)
        return Interval(0)(value, name)


class _CART(_Tree):
    """CART (Breiman et al. 1984): binary splits. What the classifier and the regressor share.

    Not parameters, fixed for CART: no purity rule. With ``missing="surrogate"`` (the
    default) missing values are handled by surrogate splits. A row that no surrogate can place
    goes the majority way; where the primary split sent equal weight both ways there is none,
    and the row stays at the node, as in rpart (``src/nodesplit.c``, ``src/pred_rpart.c``):
    it takes part in no child while growing, and at predict it gets the node's prediction
    (``predict_missing = "stop"``). ``missing="learn"`` is scikit-learn's rule instead (see
    ``CARTClassifier``).
    """

    purity_threshold = 1.0
    predict_missing = "stop"
    _parameters = {
        **{name: rule for name, rule in _Tree._parameters.items()
           if name not in ("purity_threshold", "predict_missing")},  # fixed for CART
        "min_samples_split": Rows(2), "min_samples_leaf": Rows(1, below_one=True),
        "min_weight_fraction_leaf": Interval(0, 0.5), "ccp_alpha": _Alpha(), "cv": AtFit(),
        "max_surrogates": Integer(0), "missing_penalty": FLAG,
        "missing": OneOf(("surrogate", "learn")),
        "max_features": Features(), "max_leaf_nodes": Integer(2, none=True),
        "random_state": RandomState()}

    def _stopping_rules(self, p) -> StoppingRules:
        # no purity rule; min_impurity_decrease as in scikit-learn: weighted by W_t / W
        return StoppingRules(p.max_depth, p.min_samples_split, p.min_impurity_decrease,
                             weighted_decrease=True, max_leaf_nodes=p.max_leaf_nodes)

    def _split_rules(self, p) -> SplitRules:
        learn = p.missing == "learn"
        if learn and p.criterion == "absolute_error":
            raise ValueError("missing='learn' needs criterion='squared_error': the absolute "
                             "error's cut search has no missing side")
        # as scikit-learn: one seed drawn per fit, so an int random_state repeats the tree
        seed = (None if p.max_features is None else
                check_random_state(p.random_state).randint(np.iinfo(np.int32).max))
        return SplitRules(p.criterion, None, p.min_samples_leaf, binary=True,
                          max_surrogates=None if learn else p.max_surrogates,
                          discount_missing=p.missing_penalty, learn_missing=learn,
                          max_features=p.max_features, seed=seed,
                          min_weight_fraction_leaf=p.min_weight_fraction_leaf)

    def _fitted(self, root: Node) -> Tree:
        return Tree(root, self.n_features_in_, getattr(self, "n_classes_", 1))

    def _post_prune(self, tree: Node, *training) -> None:
        """Prune to ``ccp_alpha``: the smallest subtree minimising C_alpha."""
        if self.ccp_alpha > 0:
            _prune_to_alpha(tree, self.ccp_alpha)

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None,
            validation_data: tuple | None = None):
        if not isinstance(self.ccp_alpha, str):
            super().fit(X, y, sample_weight, validation_data)
            for chosen in ("ccp_alpha_", "cp_table_"):  # from an earlier fit by a rule
                self.__dict__.pop(chosen, None)
            return self
        rule = check_params(self, self._parameters).ccp_alpha
        if validation_data is not None or getattr(self, "pruning", None) is not None:
            refuse_second_pruning("validation", f"ccp_alpha={rule!r}")
        if getattr(self, "priors", None) is not None or getattr(self, "loss", None) is not None:
            raise ValueError(f"ccp_alpha={rule!r} cross-validates the misclassification rate; "
                             "with priors or a loss use cost-complexity pruning by the risk: "
                             "dtree.pruning.prune_cost_complexity(model, alpha, cost='error')")
        if getattr(self, "criterion", None) == "absolute_error":
            raise ValueError(f"ccp_alpha={rule!r} cross-validates the squared error (rpart's "
                             "anova): it needs criterion='squared_error'")
        grown = clone(self).set_params(ccp_alpha=0.0).fit(X, y, sample_weight)
        table = cp_table(grown, X, y, sample_weight, folds=self.cv,
                         random_state=self.random_state)
        best = int(np.argmin(table["xerror"]))  # the first (smallest tree) of the least
        row = best if rule == "min" else int(np.argmax(
            table["xerror"] <= table["xerror"][best] + table["xstd"][best]))
        cost = "error" if hasattr(grown, "classes_") else "impurity"  # as cp_table's
        root_risk = weakest_links(grown._root, cost)[0].impurities[-1]
        alpha = float(table["CP"][row] * root_risk)
        _prune_to_alpha(grown._root, alpha, cost)  # the edits make predict lay it out again
        params = self.get_params()
        for earlier in ("pruning_log_", "pruned_by_"):
            self.__dict__.pop(earlier, None)
        self.__dict__.update({name: value for name, value in vars(grown).items()
                              if name not in params})
        self.ccp_alpha_, self.cp_table_ = alpha, table
        return self

    fit.__doc__ = _Tree.fit.__doc__

    def cost_complexity_pruning_path(self, X: ArrayLike, y: ArrayLike,
                                     sample_weight: ArrayLike | None = None) -> PruningPath:
        """The weakest-link sequence of the tree grown on X, y (``ccp_alpha`` ignored), as
        scikit-learn computes it: ``ccp_alphas`` (0 first), ``impurities`` (R(T) of each
        subtree) and ``n_leaves`` (see :mod:`dtree.pruning`). The estimator is not changed."""
        tree = self._grow(X, y, sample_weight)[0]
        return weakest_links(tree)[0]


def _number_array(value, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as a float array of the given shape: a TypeError unless it holds numbers only
    (not booleans), a ValueError if its shape differs or a number is not finite."""
    array = as_array(value)
    if array.dtype.kind not in "iuf" or any(isinstance(v, (bool, np.bool_))
                                            for v in np.asarray(value, dtype=object).ravel()):
        raise TypeError(f"{name} must be numbers, got {value!r}")
    if array.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (one entry per class of classes_, "
                         f"sorted), got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must be finite numbers, got {value!r}")
    return array.astype(float)


def _per_weight(priors: np.ndarray, class_weight: np.ndarray) -> np.ndarray:
    """pi_j / W_j, what a unit of class j's weight counts in p(j|t) (0 for a class of no
    weight)."""
    seen = class_weight > 0
    return np.where(seen, priors / np.where(seen, class_weight, 1), 0.0)


class CARTClassifier(_CART, _TreeClassifier):
    """CART classification trees (Breiman et al. 1984) with the Gini index (or the entropy).

    Every split is binary. A numeric attribute splits at a threshold, the midpoint of two
    adjacent distinct values, ``value <= t`` going left; a categorical one by the best
    bipartition of its categories present at the node: for two classes, the best cut along
    their order by the share of the second class (Breiman et al.'s theorem 4.5), exact; for
    more, the best of all bipartitions, up to ``dtree.kernels.MAX_EXHAUSTIVE_CATEGORIES``
    categories, and beyond that the best cut along their order by the share of the node's
    majority class (a heuristic). An attribute stays available below its own split. The split
    with the largest decrease of Gini impurity wins; on data without ties the tree is
    scikit-learn's ``DecisionTreeClassifier``'s (on data without missing values: scikit-learn
    sends them down one side instead of using surrogates).

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        "gini", or "entropy" (or its scikit-learn synonym "log_loss"): the decrease of entropy,
        the information gain in bits (scikit-learn's "entropy"; rpart's
        ``parms = list(split = "information")``, in nats, ranks the splits alike).
    max_depth : int or None, default=None
        Stop splitting at this depth (the root has depth 0); None for no limit.
    min_samples_split : int or float, default=2
        A node with fewer rows is a leaf. A float in (0, 1] is a fraction of the training rows
        (of positive weight), rounded up, as in scikit-learn.
    min_samples_leaf : int or float, default=1
        Each side of a split needs at least this many rows with a known value of the tested
        attribute (rpart's ``minbucket``, which counts them only); the rows that surrogates
        then send to a side come on top. A float in (0, 1) is a fraction of the training rows,
        rounded up.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        Each side of a split needs at least this fraction of the total training weight (the
        sample weights times ``class_weight``; with ``priors`` or a ``loss``, the weights the
        tree is grown on), as in scikit-learn; counted like ``min_samples_leaf``, over the
        rows with a known value (``missing="learn"``: the missing rows in their side).
    min_impurity_decrease : float, default=0.0
        A node is split only if (W_t / W) times the impurity decrease reaches this
        (scikit-learn's definition).
    ccp_alpha : float, "1se" or "min", default=0.0
        Cost-complexity pruning after growing: the smallest subtree minimising
        R(T) + ccp_alpha n(T), n(T) its number of leaves (see ``dtree.pruning``); 0 keeps the
        full tree.
    cv : int or array-like of shape (n_samples,), default=10
        With ``ccp_alpha="1se"`` or ``"min"``, ``fit`` chooses alpha by rpart's
        cross-validation (``dtree.cp_table``), for the cost rpart prunes by (the misclassified
        share of the weight; a regressor's squared error): "min" the tree of least xerror,
        "1se" the smallest tree whose xerror is at most that least xerror plus its xstd
        (Breiman et al. 1984, sec. 3.4.3); refused with priors, a loss, validation pruning or
        ``criterion="absolute_error"``. ``cv`` is the number of folds, rows drawn at random
        with ``random_state`` into groups of nearly equal size, not stratified (rpart's
        ``xval``), or each training row's fold id (e.g. R's). Ignored for a numeric
        ``ccp_alpha``.
    max_surrogates : int, default=5
        How many surrogate splits each node keeps (R's rpart's ``maxsurrogate``). A split is
        chosen on the rows that have the tested value; its decrease counts their weight only,
        W~/W times the decrease among them (rpart's, and seed 004's "penalty"). A row whose
        tested value is missing goes, at fit and at predict, by the first surrogate that can
        place it, else to the side that most known rows took (:mod:`dtree.surrogates`).
    missing_penalty : bool, default=True
        True (rpart; seed 004's "penalty"): a split's decrease counts only the rows whose
        value is known, so it is W~/W times the decrease among them. False: the decrease among
        them, undiscounted (CART's first versions, in seed 004's account).
    missing : {"surrogate", "learn"}, default="surrogate"
        "surrogate" (rpart, as above) or "learn" (scikit-learn >= 1.3's rule,
        ``sklearn/tree/_splitter.pyx``): a numeric split is chosen on all the node's rows,
        those whose tested value is missing sent together to the side where they decrease
        the impurity more; the node keeps that side (``Node.missing_side``, scikit-learn's
        ``missing_go_to_left``) and a missing value takes it at predict. Where the node had
        no missing value at fit, the side is the child with more rows (right on a tie).
        ``min_samples_leaf`` then counts the missing rows in their side, no surrogates are
        kept (``max_surrogates`` is ignored) and ``missing_penalty`` has no effect. A
        categorical column with a missing value is refused at fit (ValueError): the
        bipartition search has no side for it; a category unseen at fit goes at predict to
        the child with more rows (none on a tie). On data without ties the tree is
        scikit-learn's, missing values included.
    tie_break : "first" or list of str, default="first"
        How equal decreases are decided: "first" (column order) or a list of feature names.
    priors : array-like of shape (n_classes,) or None, default=None
        None (the classes' shares of the training weight) or one positive number per class of
        ``classes_`` (sorted), summing to 1: the class probabilities pi_j (Breiman et al. 1984,
        sec. 4.3; rpart's ``parms = list(prior = ...)``). A node's class proportions are then
        p(j|t) = pi_j W_j(t)/W_j / sum_k pi_k W_k(t)/W_k, W_j(t) being class j's weight at t
        and W_j its weight in all (``predict_proba``; rpart's yprob): as if each row of class j
        weighed pi_j W / W_j.
    loss : array-like of shape (n_classes, n_classes) or None, default=None
        None (0-1 loss) or a K x K matrix of non-negative numbers, zero on the diagonal, no row
        all zero: ``loss[j, i]`` is the cost of calling a row of true class j class i (rpart's
        ``parms = list(loss = ...)``, rows true classes). A node's class is the one of least
        expected loss, sum_j L(j, i) p(j|t), the first on a tie (``predict``); with 0-1 loss,
        the most probable class. Its risk R(t) = min_i sum_j L(j, i) pi_j W_j(t)/W_j (Breiman
        et al., sec. 4.4) is the cost ``dtree.pruning`` uses with ``cost="error"``.

        Splits are chosen, as in rpart (``src/gini.c``), with the *altered priors*
        pi'_j = pi_j L_j / sum_k pi_k L_k, L_j = sum_i L(j, i) (Breiman et al., sec. 4.4): the
        tree is grown with each row's weight times pi'_j W / W_j (so the Gini index is that of
        the altered proportions, which is ``Node.impurity``), then each node's ``value`` is
        set back to its class weights and its ``prediction`` to p(j|t). ``min_samples_leaf``
        still counts rows. Surrogate splits and the side a row that no surrogate places takes
        are decided on those altered weights (rpart: on the case weights alone), so with
        missing values and priors or a loss the surrogates may differ from rpart's. With
        priors or a loss, ``ccp_alpha`` (which prunes by impurity) is refused: prune by the
        risk with ``dtree.pruning.prune_cost_complexity(model, alpha, cost="error")``.

    class_weight : dict, "balanced" or None, default=None
        None, "balanced" or a dict {class label: weight}: each row's sample weight is
        multiplied by its class's weight, as in scikit-learn ("balanced": n / (K n_j), from the
        counts of rows, not their weights). Unlike ``priors``, it changes the class counts
        the tree shows (``value``) and every rule that counts weight.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        How many attributes each node scores, drawn at random without replacement (as
        scikit-learn's, Breiman 2001's random forests): None all of them, an int, a fraction f
        of the n attributes (max(1, floor(f n))), "sqrt" (max(1, floor(sqrt n))) or "log2".
        If none of the drawn ones can split the node, the others are scored one at a time,
        in the drawn order, until one can (scikit-learn goes on only past constant ones).
        Surrogate splits still look at every attribute.
    max_leaf_nodes : int or None, default=None
        None, or grow best-first (scikit-learn's ``BestFirstTreeBuilder``) until the tree has
        this many leaves: of the nodes that could be split, the one whose split has the
        largest (W_t / W) times its impurity decrease is split first (the earliest one on a
        tie); the nodes left then are leaves (``stop_reason`` "max_leaf_nodes"). If the tree
        has fewer leaves anyway, it is the tree grown without it.
    random_state : int, numpy.random.RandomState or None, default=None
        None, an int or a ``numpy.random.RandomState``: the draws of ``max_features`` and of
        the rows ``pruning="validation"`` holds out. An int gives the same tree every fit; the
        draws differ from scikit-learn's.
    pruning : {"validation"} or None, default=None
        None: ``ccp_alpha`` alone prunes. "validation": pre-pruning on a validation set (Zhou
        2016, sec. 4.3.1), as in :class:`C45Classifier`: the tree is grown on the rest of the
        training rows, and a node is split only if that strictly raises the accuracy on
        ``validation_fraction`` of each class's rows, drawn with ``random_state`` (as
        ``fit(..., validation_data=...)``, which it excludes, as it excludes ``ccp_alpha``).
        Being a parameter, it survives ``clone()``: cross-validation measures the pruned tree.
    validation_fraction : float in (0, 1), default=1/3
        "validation": the share of each class's rows held out to prune on.
    handle_unknown : {"missing", "error"}, default="missing"
        A category unseen at fit, at predict: read as a missing value (C4.5's rule), with a
        UserWarning naming the column, the number of rows and a few of the values (a typo or
        a stray space reads so); "error" refuses it (ValueError). A column of numbers where
        fit saw strings, or the other way round, is always refused (TypeError).
    probability : {"frequency", "laplace", "m-estimate"}, default="frequency"
        The estimate of ``predict_proba`` (and so of ``predict``), as in
        :class:`C45Classifier`.
    m : float, default=2.0
        The m-estimate's weight, as in :class:`C45Classifier`.

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (n_classes,)
        The class labels of y, sorted.
    n_classes_ : int
        Their number.
    tree_ : dtree.sktree.Tree
        The fitted tree, answering scikit-learn's ``Tree`` interface (``children_left``,
        ``feature``, ``value`` as class shares, ``apply``, ...); ``tree_.root`` is its root
        :class:`dtree.Node`, every node holding its weighted class counts (``value``), and the
        root's other attributes (``walk``, ``children``, ...) are ``tree_``'s too.
    n_features_in_ : int
        The number of columns of X at fit.
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names, if X was a DataFrame with string names.
    feature_importances_ : numpy.ndarray of shape (n_features,)
        Each feature's share of the tree's total Gini (or entropy) decrease (a property).
    loss_ : numpy.ndarray of shape (n_classes, n_classes)
        The K x K loss matrix used (0-1 if ``loss`` is None).
    costs_ : numpy.ndarray of shape (n_classes, n_classes) or None
        None without priors and loss; else ``costs_[j, i] = pi_j L(j, i) / W_j``, so that a
        node's risk is min_i sum_j W_j(t) costs_[j, i] (read by :mod:`dtree.pruning`).
    pruning_log_ : pandas.DataFrame
        The nodes the validation pruning examined (``pruning="validation"`` or
        ``validation_data``); only after it.
    ccp_alpha_ : float
        The alpha the rule of ``ccp_alpha`` chose, CP R(root) for the cost rpart prunes by
        (``cost="error"`` in ``dtree.pruning``; a regressor's, the impurity); only after it.
    cp_table_ : pandas.DataFrame
        The cross-validated table it chose from (``dtree.cp_table``); only after it.

    See Also
    --------
    CARTRegressor : the same splits for a numeric target.
    dtree.rpart_text : the fitted tree as R's rpart prints it.
    dtree.pruning.prune_cost_complexity : a copy pruned to a given alpha.

    Notes
    -----
    A node t is split by the test s of largest weighted Gini decrease (Breiman et al. 1984,
    ch. 4; Zhou 2016, eq. 4.5), p_k being class k's share of the weight W::

        Delta(s, t) = W_t Gini(t) - W_L Gini(t_L) - W_R Gini(t_R),   Gini(t) = 1 - sum_k p_k^2.

    Examples
    --------
    The cut between 1 and 2 separates the classes: the root's Gini index 1/2 falls to 0.

    >>> from dtree import CARTClassifier
    >>> model = CARTClassifier().fit([[0], [1], [2], [3]], [0, 0, 1, 1])
    >>> model.tree_.threshold.tolist()  # scikit-learn's layout: -2 for a leaf
    [1.5, -2.0, -2.0]
    >>> model.predict([[0.5], [2.5]]).tolist()
    [0, 1]
    >>> model.feature_importances_.tolist()
    [1.0]
    """

    _parameters = {**_CART._parameters, **_ESTIMATES,
                   "criterion": OneOf(("gini", "entropy", "log_loss")),
                   "priors": AtFit(), "loss": AtFit(),  # their shapes: one per class
                   "class_weight": AtFit(),  # checked by scikit-learn's compute_sample_weight
                   "pruning": OneOf((None, "validation")),
                   "validation_fraction": Interval(0, 1, low_open=True, high_open=True)}

    def __init__(self, criterion: str = "gini", max_depth: int | None = None,
                 min_samples_split: int = 2, min_samples_leaf: int = 1,
                 min_weight_fraction_leaf: float = 0.0,
                 min_impurity_decrease: float = 0.0, ccp_alpha: float | str = 0.0,
                 cv: int | ArrayLike = 10, max_surrogates: int = 5,
                 tie_break: str | Sequence[str] = "first",
                 missing_penalty: bool = True, priors: ArrayLike | None = None,
                 loss: ArrayLike | None = None, class_weight: dict | str | None = None,
                 missing: str = "surrogate",
                 max_features: int | float | str | None = None,
                 max_leaf_nodes: int | None = None,
                 random_state: int | np.random.RandomState | None = None,
                 pruning: str | None = None, validation_fraction: float = 1 / 3,
                 handle_unknown: str = "missing", probability: str = "frequency",
                 m: float = 2.0):
        self.handle_unknown = handle_unknown
        self.probability = probability
        self.m = m
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.cv = cv
        self.max_surrogates = max_surrogates
        self.tie_break = tie_break
        self.missing_penalty = missing_penalty
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state
        self.priors = priors
        self.loss = loss
        self.class_weight = class_weight
        self.missing = missing
        self.pruning = pruning
        self.validation_fraction = validation_fraction

    def _split_rules(self, p) -> SplitRules:
        rules = super()._split_rules(p)  # the entropy decrease is the information gain
        return (replace(rules, criterion="info_gain") if p.criterion in ("entropy", "log_loss")
                else rules)

    def _post_prune(self, tree: Node, classes, matrix: np.ndarray, targets: np.ndarray,
                    w: np.ndarray, holdout: np.ndarray | None) -> pd.DataFrame | None:
        """Pre-prune on the held-out rows (``pruning="validation"``), else prune to
        ``ccp_alpha``."""
        if self.pruning != "validation":
            return super()._post_prune(tree)
        if self.ccp_alpha > 0:
            refuse_second_pruning("pruning='validation'", f"ccp_alpha={self.ccp_alpha}")
        return self._prune_as_named(tree, classes, matrix, targets, w, holdout)

    def _decision_loss(self, n_classes: int) -> np.ndarray | None:
        """With priors or a loss, the loss matrix (``loss_`` once fitted), else None."""
        if self.priors is None and self.loss is None:
            return None
        return self._priors_and_loss(np.ones(n_classes))[1]

    def _priors_and_loss(self, class_weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """pi (the given priors, or the classes' shares of ``class_weight``) and L (the given
        loss, or 0-1), after checking them as rpart does (``R/rpart.class.R``)."""
        k = len(class_weight)
        priors = class_weight / class_weight.sum()
        if self.priors is not None:
            priors = _number_array(self.priors, "priors", (k,))
            if (priors <= 0).any() or abs(priors.sum() - 1) > 1e-9:
                raise ValueError(f"priors must be {k} positive numbers (one per class of "
                                 f"classes_, sorted) summing to 1, got {self.priors!r}")
        loss = 1.0 - np.eye(k)
        if self.loss is not None:
            loss = _number_array(self.loss, "loss", (k, k))
            if (np.diag(loss) != 0).any() or (loss < 0).any() or (loss.sum(axis=1) == 0).any():
                raise ValueError("loss must have zeros on its diagonal, no negative entry and "
                                 f"no row of zeros, got {self.loss!r}")
        if (self.priors is not None or self.loss is not None) and self.ccp_alpha > 0:
            raise ValueError("ccp_alpha prunes by impurity; with priors or loss prune by the "
                             "risk: dtree.pruning.prune_cost_complexity(model, alpha, "
                             "cost='error')")
        return priors, loss

    def _altered_priors(self, targets: np.ndarray, n_classes: int, w: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each class's weight W_j among the rows (class codes ``targets``, weights ``w``),
        the priors pi and the factor that alters them: a unit of class j's weight counts
        pi'_j / W_j, pi'_j = pi_j sum_i L(j, i) (Breiman et al. 1984, sec. 4.4), scaled so that
        the largest is 1."""
        class_weight = np.bincount(targets, weights=w, minlength=n_classes)
        priors, loss = self._priors_and_loss(class_weight)
        factor = _per_weight(priors * loss.sum(axis=1), class_weight)
        return class_weight, priors, np.where(factor > 0, factor, 1.0) / factor.max()

    def _grown_weights(self, targets: np.ndarray, n_classes: int, w: np.ndarray) -> np.ndarray:
        """With priors or a loss, the rows' weights times their class's altered-prior factor
        (:meth:`_altered_priors`); else the rows' weights."""
        if self.priors is None and self.loss is None:
            return w
        codes = targets.astype(np.intp)  # the grower's class codes are floats
        return w * self._altered_priors(codes, n_classes, w)[2][codes]

    def _grow(self, X, y, sample_weight):
        """Without priors and loss, the grower's tree; with them, the tree grown on the
        altered-prior weights (:meth:`_grown_weights`), its nodes' values and predictions set
        as the class says. A ``class_weight`` multiplies the sample weights first, as in
        scikit-learn."""
        grown = super()._grow(X, y, sample_weight)
        if self.priors is None and self.loss is None:
            return grown
        _, targets, w, _ = grown[4]
        class_weight, priors, factor = self._altered_priors(targets.astype(np.intp),
                                                            len(grown[3]), w)
        for node in grown[0].walk():
            node.value = node.value / factor
            node.weighted_n_samples = float(node.value.sum())
            share = node.value * _per_weight(priors, class_weight)
            node.prediction = share / share.sum()
        return grown

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None,
            validation_data: tuple | None = None):
        super().fit(X, y, sample_weight, validation_data)
        class_weight = self._root.value
        priors, self.loss_ = self._priors_and_loss(class_weight)
        self.costs_ = None
        if self.priors is not None or self.loss is not None:
            self.costs_ = _per_weight(priors, class_weight)[:, None] * self.loss_
        return self

    fit.__doc__ = _Tree.fit.__doc__

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of least expected loss, sum_j loss_[j, i] p(j|t), of each row, p being
        ``predict_proba`` (the first in ``classes_`` on a tie, up to round-off:
        :func:`dtree.tree.most_probable`); without priors and loss, the most probable class,
        ``classes_[np.argmax(predict_proba(X))]``. With priors or a loss it is not always the
        most probable class (rpart's rule). X is read as at fit; see ``fit``."""
        check_is_fitted(self, "tree_")
        if self.costs_ is None:
            return super().predict(X)
        return self.classes_[most_probable(self.predict_proba(X), self.loss_)]


class CARTRegressor(_CART, _TreeRegressor):
    """CART regression trees (Breiman et al. 1984, ch. 8): binary splits that most decrease
    the weighted variance (squared error) of the target, a leaf predicting its rows' mean; or,
    with ``criterion="absolute_error"``, the weighted absolute deviation from the median, a
    leaf predicting its rows' (weighted) median.
    Splits, parameters and pruning as :class:`CARTClassifier`; on data without ties the tree is
    scikit-learn's ``DecisionTreeRegressor``'s. A categorical attribute's bipartition is, for
    the squared error, the best cut along the categories' order by mean target (exact, as for
    two classes); for the absolute error, for which no order is exact, the best of all
    bipartitions up to ``dtree.kernels.MAX_EXHAUSTIVE_CATEGORIES`` categories, and beyond that
    the best cut along their order by weighted median target (a heuristic).

    The parameters other than ``criterion`` (``max_depth``, ``min_samples_split``,
    ``min_samples_leaf``, ``min_weight_fraction_leaf``, ``min_impurity_decrease``,
    ``ccp_alpha``, ``cv``, ``max_surrogates``, ``tie_break``, ``missing_penalty``,
    ``missing``, ``max_features``, ``max_leaf_nodes`` and ``random_state``) are those of
    :class:`CARTClassifier`, with the same defaults; ``missing="learn"`` needs
    ``"squared_error"`` and ``max_leaf_nodes`` ranks splits by (W_t / W) times the decrease
    of the criterion. Its fitted attributes ``ccp_alpha_`` and ``cp_table_`` are those of
    :class:`CARTClassifier` too.

    Parameters
    ----------
    criterion : {"squared_error", "absolute_error", "friedman_mse"}, default="squared_error"
        The impurity: the weighted variance, or the absolute deviation from the median.
        "friedman_mse" (Friedman 2001's improvement, n_L n_R (ybar_L - ybar_R)^2, which ranks
        the thresholds of a node as the squared error's decrease does) is "squared_error",
        with a FutureWarning at fit, as scikit-learn 1.9 maps it (deprecated there). There is
        no "poisson": a ValueError.
    handle_unknown : {"missing", "error"}, default="missing"
        A category unseen at fit, at predict: read as a missing value (C4.5's rule), with a
        UserWarning naming the column, the number of rows and a few of the values (a typo or
        a stray space reads so); "error" refuses it (ValueError). A column of numbers where
        fit saw strings, or the other way round, is always refused (TypeError).

    Attributes
    ----------
    tree_ : dtree.sktree.Tree
        The fitted tree, answering scikit-learn's ``Tree`` interface (``value`` the mean);
        ``tree_.root`` is its root :class:`dtree.Node`, as for :class:`CARTClassifier`.
    n_features_in_ : int
        The number of columns of X at fit.
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names, if X was a DataFrame with string names.
    feature_importances_ : numpy.ndarray of shape (n_features,)
        Each feature's share of the tree's total decrease of the criterion (a property).

    See Also
    --------
    CARTClassifier : the same splits for classes.

    Notes
    -----
    A node t is split by the test of largest decrease of the weighted squared error (Breiman
    et al. 1984, ch. 8), ybar_t being the weighted mean of its targets::

        Delta = R(t) - R(t_L) - R(t_R),   R(t) = sum_{i in t} w_i (y_i - ybar_t)^2.

    Examples
    --------
    The cut at 1.5 leaves the first two rows with no error (R = 0, down from 11); the right
    pair (3 and 5) is cut again at 2.5.

    >>> from dtree import CARTRegressor
    >>> model = CARTRegressor().fit([[0], [1], [2], [3]], [1.0, 1.0, 3.0, 5.0])
    >>> model.tree_.threshold.tolist(), model.get_n_leaves()  # -2 for a leaf
    ([1.5, -2.0, 2.5, -2.0, -2.0], 3)
    >>> model.predict([[0.5], [2.5], [9.0]]).tolist()
    [1.0, 3.0, 5.0]
    """

    _parameters = {**_CART._parameters, "criterion": OneOf(
        ("squared_error", "absolute_error", "friedman_mse"))}

    def __init__(self, criterion: str = "squared_error", max_depth: int | None = None,
                 min_samples_split: int = 2, min_samples_leaf: int = 1,
                 min_weight_fraction_leaf: float = 0.0,
                 min_impurity_decrease: float = 0.0, ccp_alpha: float | str = 0.0,
                 cv: int | ArrayLike = 10, max_surrogates: int = 5,
                 tie_break: str | Sequence[str] = "first",
                 missing_penalty: bool = True, missing: str = "surrogate",
                 max_features: int | float | str | None = None,
                 max_leaf_nodes: int | None = None,
                 random_state: int | np.random.RandomState | None = None,
                 handle_unknown: str = "missing"):
        self.handle_unknown = handle_unknown
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.cv = cv
        self.max_surrogates = max_surrogates
        self.tie_break = tie_break
        self.missing_penalty = missing_penalty
        self.missing = missing
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state

    def _split_rules(self, p) -> SplitRules:
        if p.criterion == "friedman_mse":
            warnings.warn("criterion='friedman_mse' is 'squared_error' (their splits are the "
                          "same; scikit-learn 1.9 deprecates it): use "
                          "criterion='squared_error'", FutureWarning, stacklevel=4)
            p.criterion = "squared_error"
        return super()._split_rules(p)

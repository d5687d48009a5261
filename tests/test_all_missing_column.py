"""A column with every value missing is accepted, as scikit-learn, Weka and rpart accept it: no
split can use it, so every estimator and every pruner gives the tree it gives without the column,
and the fit warns, naming the column. Cross-validation on sparse data meets such a column in some
folds only; the last test runs one through GridSearchCV.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.model_selection import GridSearchCV, KFold

from dtree import (C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier, export_text,
                   prune_cost_complexity, prune_error_based, prune_pessimistic,
                   prune_reduced_error)
from dtree.datasets import load_watermelon

X3, Y3 = load_watermelon("3.0", return_X_y=True)
XA, YA = load_watermelon("2.0alpha", return_X_y=True)
# watermelon 3.0 with a few values missing, so that every missing-value rule is at work
X3M = X3.copy()
X3M.loc[X3M.index[[0, 5, 9]], "colour"] = np.nan
X3M.loc[X3M.index[[2, 7]], "density"] = np.nan
SUGAR = X3["sugar"].to_numpy()  # a regression target

#: (estimator, X, y): every estimator and every missing-value rule
MODELS = {
    "ID3 fractional": (ID3Classifier(missing="fractional"), XA, YA),
    "C4.5": (C45Classifier(), X3M, Y3),
    "C4.5 no gain filter": (C45Classifier(gain_filter=None), X3M, Y3),
    "C4.5 missing branch": (C45Classifier(missing="branch"), X3M, Y3),
    "J48": (C45Classifier.j48(), X3M, Y3),
    "C4.5 pessimistic": (C45Classifier(pruning="pessimistic"), X3M, Y3),
    "C4.5 reduced error": (C45Classifier(pruning="reduced_error", random_state=0), X3M, Y3),
    "CART": (CARTClassifier(min_samples_leaf=1), X3M, Y3),
    "CART regressor": (CARTRegressor(min_samples_leaf=1), X3M.drop(columns="sugar"), SUGAR),
}
#: an all-missing column in each form a caller may pass
EMPTY = {
    "float": np.full(17, np.nan),
    "object of None": pd.Series([None] * 17, dtype=object),
    "categorical": pd.Categorical([None] * 17, categories=["p", "q"]),
}


def with_empty(X: pd.DataFrame, values, position: int, name: str = "empty") -> pd.DataFrame:
    """``X`` with the column ``name`` inserted at ``position`` (0: first, where ties favour it)."""
    X = X.copy()
    X.insert(position, name, pd.Series(values, index=X.index))
    return X


def fit_quietly(model, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return model.fit(X, y, **kw)


def predictions(model, X) -> np.ndarray:
    return model.predict(X) if isinstance(model, CARTRegressor) else model.predict_proba(X)


@pytest.mark.parametrize("first", [True, False], ids=["first", "last"])
@pytest.mark.parametrize("kind", EMPTY)
@pytest.mark.parametrize("name", MODELS)
def test_the_tree_is_the_tree_without_the_column(name, kind, first):
    estimator, X, y = MODELS[name]
    without = fit_quietly(estimator.__sklearn_clone__(), X, y)
    X_empty = with_empty(X, EMPTY[kind], 0 if first else X.shape[1])
    with pytest.warns(UserWarning, match="column 'empty' has every value missing"):
        model = estimator.__sklearn_clone__().fit(X_empty, y)
    assert export_text(model) == export_text(without)
    assert_array_equal(predictions(model, X_empty), predictions(without, X))
    # at predict the column may hold values: none is ever read
    X_known = X_empty.assign(empty=pd.Series(np.arange(17.0), index=X.index).astype(
        "category" if kind == "categorical" else float))
    assert_array_equal(predictions(model, X_known), predictions(without, X))


PRUNERS = {
    "cost complexity": lambda model, X, y: prune_cost_complexity(model, alpha=0.02),
    "reduced error": lambda model, X, y: prune_reduced_error(model, X.iloc[::2], y[::2]),
    "pessimistic": lambda model, X, y: prune_pessimistic(model),
    "error based": lambda model, X, y: prune_error_based(model, X, y),
}


@pytest.mark.parametrize("pruner", PRUNERS)
@pytest.mark.parametrize("estimator", [C45Classifier(), CARTClassifier(min_samples_leaf=1)],
                         ids=["C4.5", "CART"])
def test_every_pruner_prunes_as_without_the_column(estimator, pruner):
    prune, X_empty = PRUNERS[pruner], with_empty(X3M, EMPTY["float"], 0)
    without = prune(fit_quietly(estimator.__sklearn_clone__(), X3M, Y3), X3M, Y3)
    pruned = prune(fit_quietly(estimator.__sklearn_clone__(), X_empty, Y3), X_empty, Y3)
    assert export_text(pruned) == export_text(without)
    assert_array_equal(pruned.predict_proba(X_empty), without.predict_proba(X3M))


def test_a_column_known_only_in_rows_of_weight_zero_is_empty():
    weights = np.ones(17)
    weights[0] = 0.0
    X_empty = with_empty(X3M, [0.5] + [np.nan] * 16, 8, name="note")
    with pytest.warns(UserWarning, match="column 'note' has every value missing"):
        model = C45Classifier().fit(X_empty, Y3, sample_weight=weights)
    without = C45Classifier().fit(X3M, Y3, sample_weight=weights)
    assert export_text(model) == export_text(without)


def test_one_row_with_a_missing_value_is_a_leaf():
    X = pd.DataFrame({"a": [np.nan], "b": ["p"]})
    with pytest.warns(UserWarning, match="column 'a' has every value missing"):
        model = C45Classifier().fit(X, ["yes"])
    assert model.get_n_leaves() == 1 and model.predict(X).tolist() == ["yes"]


GRIDS = {
    "ID3 fractional": (ID3Classifier(missing="fractional"), XA, YA, {"max_depth": [1, None]}),
    "C4.5": (C45Classifier(), X3M, Y3, {"max_depth": [1, None]}),
    "CART": (CARTClassifier(), X3M, Y3, {"min_samples_leaf": [1, 3]}),
    "CART regressor": (CARTRegressor(), X3M.drop(columns="sugar"), SUGAR,
                       {"min_samples_leaf": [1, 3]}),
}


@pytest.mark.parametrize("name", GRIDS)
def test_cross_validation_where_one_fold_sees_an_empty_column(name):
    """The column "note" is known only in rows 0-5, the test rows of the first of three folds:
    that fold's training rows have it all missing. Its scores equal those without the column;
    the other folds may use the column."""
    estimator, X, y, grid = GRIDS[name]
    note = np.where(np.arange(17) < 6, np.arange(17.0), np.nan)
    X_note = with_empty(X, note, 0, name="note")
    folds = KFold(n_splits=3)
    assert np.isnan(note[next(folds.split(X))[0]]).all()  # fold 0 trains on rows 6-16
    search = GridSearchCV(estimator, grid, cv=folds, error_score="raise")
    with pytest.warns(UserWarning, match="column 'note' has every value missing"):
        search.fit(X_note, y)
    plain = GridSearchCV(estimator, grid, cv=folds, error_score="raise").fit(X, y)
    assert_array_equal(search.cv_results_["split0_test_score"],
                       plain.cv_results_["split0_test_score"])
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()

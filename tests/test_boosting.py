"""dtree.boosting: AdaBoost (SAMME) by hand and against scikit-learn, gradient boosting against
scikit-learn, bad input, and scikit-learn's estimator checks.

scikit-learn's trees break a tie between two equally good splits by a random order of the
features, dtree's by the first feature, so the ensembles are compared on data where no two
splits tie (real measurements; or random sample weights, which make every split's score
distinct). Its trees also read X as float32: on these data that changes no training row's side
of a split, so the predictions on the training rows are compared.
"""
from __future__ import annotations

import math
import pickle

import numpy as np
import pandas as pd
import pytest
import sklearn.ensemble as skl
from sklearn.datasets import (load_breast_cancer, load_diabetes, load_digits, load_iris,
                              load_wine)
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from dtree import (AdaBoostClassifier, C45Classifier, CARTClassifier, CARTRegressor,
                   GradientBoostingClassifier, GradientBoostingRegressor)
from dtree.boosting import _tree_importance

TOL = 1e-9


def _data(loader):
    X, y = loader(return_X_y=True)
    return X, y


# ----------------------------------------------------------------------------- by hand
# Li Hang (2012), example 8.1: ten points on a line, three rounds of stumps.
LI_X = np.arange(10.0)[:, None]
LI_Y = np.array([1, 1, 1, -1, -1, -1, 1, 1, 1, -1])


def test_three_rounds_by_hand():
    """Round 1: weights 1/10; the stump x < 2.5 -> 1 misses x = 6, 7, 8: err = 3/10,
    alpha = log(7/3); the three misses' weights times 7/3, then all divided by 14/10: 1/14 for
    the hits, 1/6 for the misses. Round 2: x < 8.5 -> 1 misses x = 3, 4, 5 (1/14 each):
    err = 3/14, alpha = log(11/3); weights 1/22 (x = 0, 1, 2, 9), 1/6 (3, 4, 5), 7/66 (6, 7, 8).
    Round 3: x > 5.5 -> 1 misses x = 0, 1, 2, 9: err = 4/22 = 2/11, alpha = log(9/2)."""
    model = AdaBoostClassifier(n_estimators=3).fit(LI_X, LI_Y)
    assert [t.tree_.threshold[0] for t in model.estimators_] == [2.5, 8.5, 5.5]
    np.testing.assert_allclose(model.estimator_errors_, [3 / 10, 3 / 14, 2 / 11], rtol=1e-12)
    np.testing.assert_allclose(model.estimator_weights_,
                               [math.log(7 / 3), math.log(11 / 3), math.log(9 / 2)], rtol=1e-12)
    a1, a2, a3 = model.estimator_weights_
    # x = 0: rounds 1 and 2 vote 1, round 3 votes -1; f = 2 (a1 + a2 - a3) / (a1 + a2 + a3)
    f = model.decision_function(LI_X)
    assert f[0] == pytest.approx(2 * (a1 + a2 - a3) / (a1 + a2 + a3), rel=1e-12)
    assert (model.predict(LI_X) == LI_Y).all()
    # after two rounds x = 3, 4, 5 are wrong (rounds 1 and 2 disagree, a2 > a1)
    staged = list(model.staged_predict(LI_X))
    assert (staged[1] != LI_Y).sum() == 3 and (staged[2] == LI_Y).all()


def test_weights_of_round_three_by_hand():
    """The weights round 3 is fitted with (see above), read from the stump's weighted
    counts, in which they are multiplied by n = 10: its root holds weight 10, its left child
    x < 5.5 (x = 0..5) 10 (3/22 + 3/6)."""
    model = AdaBoostClassifier(n_estimators=3).fit(LI_X, LI_Y)
    stump = model.estimators_[2].tree_
    assert stump.weighted_n_node_samples[0] == pytest.approx(10.0, rel=1e-12)
    assert stump.weighted_n_node_samples[1] == pytest.approx(10 * (3 / 22 + 3 / 6), rel=1e-12)


# ----------------------------------------------------------------------------- parity
def _same_trees(ours, theirs) -> bool:
    """Whether every tree tests the same features in the same places."""
    return all(np.array_equal(a.tree_.feature, b.tree_.feature)
               for a, b in zip(np.ravel(ours.estimators_), np.ravel(theirs.estimators_)))


ADA_CASES = [(load_breast_cancer, 1, 50, 1.0), (load_iris, 1, 30, 1.0),
             (load_wine, 2, 40, 0.5), (load_digits, 3, 30, 0.3)]


@pytest.mark.parametrize("loader,depth,rounds,rate", ADA_CASES)
def test_adaboost_equals_scikit_learn(loader, depth, rounds, rate):
    X, y = _data(loader)
    ours = AdaBoostClassifier(CARTClassifier(max_depth=depth), n_estimators=rounds,
                              learning_rate=rate).fit(X, y)
    theirs = skl.AdaBoostClassifier(DecisionTreeClassifier(max_depth=depth),
                                    n_estimators=rounds, learning_rate=rate,
                                    random_state=0).fit(X, y)
    assert len(ours.estimators_) == len(theirs.estimators_)
    np.testing.assert_allclose(ours.estimator_weights_, theirs.estimator_weights_, atol=TOL)
    np.testing.assert_allclose(ours.estimator_errors_, theirs.estimator_errors_, atol=TOL)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=TOL)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=TOL)
    assert (ours.predict(X) == theirs.predict(X)).all()
    for a, b in zip(ours.staged_predict_proba(X), theirs.staged_predict_proba(X)):
        np.testing.assert_allclose(a, b, atol=TOL)
    if _same_trees(ours, theirs):  # else a tie between features (same predictions)
        np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                                   atol=TOL)


@pytest.mark.parametrize("depth,rounds,rate", [(3, 100, 0.1), (1, 50, 0.5), (5, 20, 1.0)])
def test_gradient_boosting_regressor_equals_scikit_learn(depth, rounds, rate):
    X, y = _data(load_diabetes)
    ours = GradientBoostingRegressor(CARTRegressor(max_depth=depth), n_estimators=rounds,
                                     learning_rate=rate).fit(X, y)
    theirs = skl.GradientBoostingRegressor(max_depth=depth, n_estimators=rounds,
                                           learning_rate=rate, random_state=0).fit(X, y)
    assert ours.init_ == pytest.approx(theirs.init_.constant_[0, 0], abs=TOL)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=TOL, rtol=0)
    for a, b in zip(ours.staged_predict(X), theirs.staged_predict(X)):
        np.testing.assert_allclose(a, b, atol=TOL, rtol=0)
    if _same_trees(ours, theirs):  # else a tie between features (same predictions)
        np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                                   atol=TOL)


GBC_CASES = [(load_breast_cancer, 3, 100, 0.1, False), (load_iris, 3, 50, 0.1, False),
             (load_wine, 2, 30, 0.3, True), (load_breast_cancer, 2, 40, 0.5, True)]


@pytest.mark.parametrize("loader,depth,rounds,rate,weighted", GBC_CASES)
def test_gradient_boosting_classifier_equals_scikit_learn(loader, depth, rounds, rate,
                                                          weighted):
    X, y = _data(loader)
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y)) if weighted else None
    ours = GradientBoostingClassifier(CARTRegressor(max_depth=depth), n_estimators=rounds,
                                      learning_rate=rate).fit(X, y, w)
    theirs = skl.GradientBoostingClassifier(max_depth=depth, n_estimators=rounds,
                                            learning_rate=rate, random_state=0
                                            ).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=TOL, rtol=0)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=TOL,
                               rtol=0)
    assert (ours.predict(X) == theirs.predict(X)).all()
    for a, b in zip(ours.staged_predict_proba(X), theirs.staged_predict_proba(X)):
        np.testing.assert_allclose(a, b, atol=TOL, rtol=0)
    if _same_trees(ours, theirs):
        np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                                   atol=TOL)


def test_newton_leaf_value_by_hand():
    """One round, one stump on four rows: F_0 = log(2/2) = 0, p = 1/2, r = y - 1/2, so a leaf
    holding y = (1, 1, 0) gets (1/2 + 1/2 - 1/2) / (3 / 4) = 2/3, and one holding y = (1)
    gets (1/2) / (1/4) = 2."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1, 1, 0, 1])
    model = GradientBoostingClassifier(CARTRegressor(max_depth=1), n_estimators=1,
                                       learning_rate=1.0).fit(X, y)
    assert model.init_[0] == pytest.approx(math.log(3))  # three of four rows are 1
    # with F_0 = log 3, p = 3/4: leaves {0, 1} (r = 1/4, 1/4), {2, 3} (r = -3/4, 1/4)
    p = 3 / 4
    left = (2 * (1 - p)) / (2 * p * (1 - p))
    right = ((0 - p) + (1 - p)) / (2 * p * (1 - p))
    stump = model.estimators_[0, 0]
    assert stump.tree_.threshold[0] == 1.5
    np.testing.assert_allclose(model.decision_function(X),
                               math.log(3) + np.array([left, left, right, right]), rtol=1e-12)


def test_tree_importance_is_scikit_learns_unnormalised():
    X, y = _data(load_diabetes)
    ours, theirs = CARTRegressor(max_depth=3).fit(X, y), DecisionTreeRegressor(
        max_depth=3, random_state=0).fit(X, y)
    np.testing.assert_allclose(_tree_importance(ours),
                               theirs.tree_.compute_feature_importances(normalize=False),
                               rtol=1e-9)


# ----------------------------------------------------------------------------- behaviour
def test_categories_and_missing_values_reach_the_trees():
    X = pd.DataFrame({"colour": pd.Categorical(list("rgbrgbrgbr") * 3),
                      "size": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0, 7.0, np.nan, 9.0, 10.0] * 3})
    y = np.where((X["colour"] == "r").to_numpy() | (X["size"] > 6).to_numpy(), "yes", "no")
    for model in (AdaBoostClassifier(n_estimators=5), GradientBoostingClassifier(n_estimators=5),
                  AdaBoostClassifier(C45Classifier(max_depth=2), n_estimators=3)):
        model.fit(X, y)
        assert model.predict(X).shape == (30,)
        assert set(model.feature_names_in_) == {"colour", "size"}


def test_subsample_draws_repeat_with_a_seed():
    X, y = _data(load_breast_cancer)
    a = GradientBoostingClassifier(n_estimators=10, subsample=0.5, random_state=1).fit(X, y)
    b = GradientBoostingClassifier(n_estimators=10, subsample=0.5, random_state=1).fit(X, y)
    c = GradientBoostingClassifier(n_estimators=10).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert not np.allclose(a.predict_proba(X), c.predict_proba(X))
    # each tree saw half of the rows (284 of 569) by weight
    assert a.estimators_[0, 0].tree_.n_node_samples[0] == 284
    ada = AdaBoostClassifier(n_estimators=5, subsample=0.5, random_state=1).fit(X, y)
    assert ada.estimators_[0].tree_.n_node_samples[0] == 284


def test_staged_ends_at_predict_and_data_untouched():
    X, y = _data(load_wine)
    X0, y0 = X.copy(), y.copy()
    for model in (AdaBoostClassifier(n_estimators=10), GradientBoostingClassifier(n_estimators=10),
                  GradientBoostingRegressor(n_estimators=10)):
        model.fit(X, y)
        *_, last = model.staged_predict(X)
        np.testing.assert_array_equal(last, model.predict(X))
        assert len(list(model.staged_predict(X))) == len(model.estimators_)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_pickles():
    X, y = _data(load_iris)
    model = GradientBoostingClassifier(n_estimators=5).fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))


# ----------------------------------------------------------------------------- bad input
BAD = [(dict(n_estimators=0), ValueError, "n_estimators"),
       (dict(n_estimators=2.5), TypeError, "n_estimators"),
       (dict(learning_rate=0.0), ValueError, "learning_rate"),
       (dict(learning_rate="fast"), TypeError, "learning_rate"),
       (dict(subsample=1.5), ValueError, "subsample"),
       (dict(subsample=0.0), ValueError, "subsample"),
       (dict(random_state="seed"), ValueError, "random_state")]


@pytest.mark.parametrize("cls", [AdaBoostClassifier, GradientBoostingClassifier,
                                 GradientBoostingRegressor])
@pytest.mark.parametrize("params,error,name", BAD)
def test_bad_parameters(cls, params, error, name):
    X, y = _data(load_iris)
    with pytest.raises(error, match=name):
        cls(**params).fit(X, y)


def test_bad_estimators_and_targets():
    X, y = _data(load_iris)
    with pytest.raises(TypeError, match="regressor"):
        GradientBoostingClassifier(CARTClassifier()).fit(X, y)
    with pytest.raises(TypeError, match="estimator"):
        AdaBoostClassifier("stump").fit(X, y)
    with pytest.raises(ValueError, match="1 class"):
        AdaBoostClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="1 class"):
        GradientBoostingClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        AdaBoostClassifier().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="numbers"):
        GradientBoostingRegressor().fit(X, np.array(["a"] * len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        AdaBoostClassifier().fit(X, y, sample_weight=-np.ones(len(y)))


def test_no_sample_weight_is_refused():
    from sklearn.neighbors import KNeighborsClassifier
    X, y = _data(load_iris)
    with pytest.raises(ValueError, match="sample_weight"):
        AdaBoostClassifier(KNeighborsClassifier()).fit(X, y)


def test_unfitted_and_failed_fit():
    X, y = _data(load_iris)
    for model in (AdaBoostClassifier(), GradientBoostingClassifier(),
                  GradientBoostingRegressor()):
        with pytest.raises(NotFittedError):
            model.predict(X)
    model = AdaBoostClassifier(n_estimators=3).fit(X, y)
    before = model.predict_proba(X)
    with pytest.raises(ValueError):
        model.set_params(learning_rate=-1).fit(X[:, :2], y)
    assert model.n_features_in_ == 4
    np.testing.assert_array_equal(model.predict_proba(X), before)
    weak = AdaBoostClassifier(DummyClassifier(), n_estimators=3)  # one class: err = 1/2
    with pytest.raises(ValueError, match="no better than chance"):
        weak.fit(X[:100], y[:100])
    assert not hasattr(weak, "estimators_")


# ----------------------------------------------------------------------------- scikit-learn
@parametrize_with_checks([AdaBoostClassifier(n_estimators=5),
                          GradientBoostingClassifier(n_estimators=5),
                          GradientBoostingRegressor(n_estimators=10, learning_rate=0.5)])
def test_sklearn_estimator_checks(estimator, check):
    from unittest import SkipTest
    try:
        check(estimator)
    except SkipTest as skip:
        assert "SCIPY_ARRAY_API" in str(skip), skip  # array API: not claimed
        pytest.skip(str(skip))

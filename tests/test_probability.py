"""The classifiers' probability estimates (``probability``): frequencies, Laplace and the
m-estimate, by hand on Quinlan's weather data; predict stays their argmax; scikit-learn's
calibration and ranking metrics take them."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.metrics import roc_auc_score

from dtree import C45Classifier, CARTClassifier, ID3Classifier
from dtree.datasets import load_arff, load_watermelon
from dtree.probability import class_probabilities

WEATHER = load_arff("weather.nominal", return_X_y=True)
ROWS = pd.DataFrame({"outlook": ["sunny", "overcast", "rainy"],
                     "temperature": ["hot", "hot", "mild"], "humidity": ["high", "high", "high"],
                     "windy": ["FALSE", "FALSE", "TRUE"]})


def test_the_estimates_by_hand():
    """ID3's weather tree: the leaves reached are (no 3, yes 0), (no 0, yes 4), (no 2, yes 0);
    the base rates are no 5/14, yes 9/14."""
    X, y = WEATHER
    expected = {
        "frequency": [[1, 0], [0, 1], [1, 0]],
        "laplace": [[4 / 5, 1 / 5], [1 / 6, 5 / 6], [3 / 4, 1 / 4]],
        # m = 2: (n_k + 2 b_k) / (N + 2)
        "m-estimate": [[(3 + 10 / 14) / 5, (18 / 14) / 5], [(10 / 14) / 6, (4 + 18 / 14) / 6],
                       [(2 + 10 / 14) / 4, (18 / 14) / 4]]}
    for probability, proba in expected.items():
        model = ID3Classifier(probability=probability).fit(X, y)
        np.testing.assert_allclose(model.predict_proba(ROWS), proba)
        assert model.predict(ROWS).tolist() == ["no", "yes", "no"]
    assert class_probabilities([3, 0], "m-estimate", m=2).tolist() == \
        class_probabilities([3, 0], "laplace").tolist()  # m = K, uniform base rates


def test_a_row_sent_down_every_branch_mixes_the_smoothed_leaves():
    """outlook missing: 5/14 of the row to sunny (then humidity high: no 3), 4/14 to overcast
    (yes 4), 5/14 to rainy (then windy TRUE: no 2)."""
    X, y = WEATHER
    model = ID3Classifier(missing="fractional", probability="laplace").fit(X, y)
    row = ROWS.iloc[[2]].assign(outlook=[None])
    expected = (5 / 14 * np.array([4 / 5, 1 / 5]) + 4 / 14 * np.array([1 / 6, 5 / 6])
                + 5 / 14 * np.array([3 / 4, 1 / 4]))
    np.testing.assert_allclose(model.predict_proba(row)[0], expected)


def test_the_m_estimate_can_change_a_leafs_class_and_predict_follows():
    # x = 0: one row of a; x = 1: nine of b. With m = 10 and base rates (0.1, 0.9) the leaf
    # x = 0 says a: (1 + 1) / 11 = 2/11, b: (0 + 9) / 11 = 9/11
    X, y = [[0]] + [[1]] * 9, ["a"] + ["b"] * 9
    model = C45Classifier(min_samples_leaf=1, probability="m-estimate", m=10).fit(X, y)
    np.testing.assert_allclose(model.predict_proba([[0]]), [[2 / 11, 9 / 11]])
    assert model.predict([[0]]).tolist() == ["b"]
    assert model.set_params(probability="frequency").predict([[0]]).tolist() == ["a"]


def test_an_empty_branch_takes_its_parents_estimate_and_the_tree_is_unchanged():
    X, y = load_watermelon(return_X_y=True)  # ID3's tree has an empty branch (colour light)
    model = ID3Classifier(probability="laplace").fit(X, y)
    before = [node.prediction.copy() for node in model.tree_.walk()]
    empty = next(node for node in model.tree_.walk() if node.weighted_n_samples == 0)
    parent = next(node for node in model.tree_.walk() if empty in node.children)
    row = X.iloc[[0]].assign(texture="clear", root="slightly curly", colour="light")
    assert model.apply(row)[0] == list(model.tree_.walk()).index(empty)
    n = parent.value  # the parent's class weights, Laplace-smoothed
    np.testing.assert_allclose(model.predict_proba(row)[0], (n + 1) / (n.sum() + 2))
    assert all((a == node.prediction).all() for a, node in zip(before, model.tree_.walk()))


@pytest.mark.parametrize("make", [ID3Classifier, C45Classifier, CARTClassifier])
def test_bad_values_and_clone(make):
    X, y = WEATHER
    with pytest.raises(ValueError, match="probability"):
        make(probability="Laplace").fit(X, y)
    with pytest.raises(ValueError, match="m must"):
        make(probability="m-estimate", m=-1).fit(X, y)
    model = make(probability="laplace").fit(X, y)
    with pytest.raises(ValueError, match="probability"):
        model.set_params(probability="lapalce").predict_proba(X)
    assert clone(make(probability="m-estimate", m=5)).get_params()["m"] == 5


def test_scikit_learns_calibration_and_auc_take_them():
    X, y = load_arff("vote", return_X_y=True)
    y = (np.asarray(y) == "republican").astype(int)
    model = C45Classifier(probability="laplace").fit(X, y)
    proba = model.predict_proba(X)[:, 1]
    assert roc_auc_score(y, proba) > 0.95
    assert np.array_equal(model.predict(X), (proba > 0.5).astype(int))  # argmax of two
    calibrated = CalibratedClassifierCV(C45Classifier(probability="laplace"), cv=3,
                                        method="isotonic").fit(X, y)
    assert calibrated.predict_proba(X).shape == (len(y), 2)
    assert roc_auc_score(y, calibrated.predict_proba(X)[:, 1]) > 0.95


def test_the_smoothed_tree_follows_the_parameters_and_the_tree():
    """predict_proba keeps the smoothed tree between calls, but a changed ``probability`` or
    ``m``, or a tree edited in place, is smoothed again; a pickle does not carry it."""
    import pickle

    from dtree.tree import make_leaf

    X, y = WEATHER
    model = ID3Classifier(probability="laplace").fit(X, y)
    assert model.predict_proba(ROWS)[0].tolist() == [4 / 5, 1 / 5]
    model.set_params(probability="m-estimate", m=2.0)  # (3 + 2 5/14) / 5, (0 + 2 9/14) / 5
    assert model.predict_proba(ROWS)[0] == pytest.approx([(3 + 10 / 14) / 5, (18 / 14) / 5])
    model.set_params(m=14.0)  # (3 + 5) / 17, (0 + 9) / 17
    assert model.predict_proba(ROWS)[0] == pytest.approx([8 / 17, 9 / 17])
    copy = pickle.loads(pickle.dumps(model))
    assert "_smoothed" not in copy.__dict__
    assert copy.predict_proba(ROWS).tolist() == model.predict_proba(ROWS).tolist()
    model.set_params(probability="laplace")
    make_leaf(model.tree_, "edited")  # the root, (no 5, yes 9): (5 + 1) / 16, (9 + 1) / 16
    assert model.predict_proba(ROWS).tolist() == [[6 / 16, 10 / 16]] * 3

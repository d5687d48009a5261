"""Cost-complexity pruning of any of the library's trees (dtree.pruning): the weakest-link path
against scikit-learn's and rpart's, pruned copies against ccp_alpha, and the pruning log."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from references import load_kyphosis, requires_rpart, rpart
from sklearn import datasets as skdata
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier

from dtree import CARTClassifier, CARTRegressor, ID3Classifier
from dtree.datasets import load_watermelon
from dtree.pruning import cost_complexity_path, prune_cost_complexity


@pytest.fixture(scope="module")
def wine():
    X, y = skdata.load_wine(return_X_y=True)
    return np.asarray(X, dtype=np.float32).astype(float), y


def test_path_of_a_fitted_cart_is_scikit_learns(wine):
    X, y = wine
    model = CARTClassifier(min_samples_leaf=2).fit(X, y)
    ours = cost_complexity_path(model)
    theirs = DecisionTreeClassifier(min_samples_leaf=2, random_state=0) \
        .cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, atol=1e-9)
    np.testing.assert_allclose(ours.impurities, theirs.impurities, atol=1e-9)


def test_pruned_copy_equals_ccp_alpha_and_leaves_the_input_alone(wine):
    X, y = wine
    model = CARTClassifier(min_samples_leaf=2).fit(X, y)
    before = pickle.dumps(model.tree_)
    alphas = cost_complexity_path(model).ccp_alphas
    for alpha in (alphas[1:] + alphas[:-1])[::2] / 2:
        pruned = prune_cost_complexity(model, alpha)
        assert pruned.get_n_leaves() == CARTClassifier(min_samples_leaf=2, ccp_alpha=alpha) \
            .fit(X, y).get_n_leaves()
        log = pruned.pruning_log_
        removed = log.loc[log["decision"] == "cut", "leaves removed"].sum()
        assert removed == model.get_n_leaves() - pruned.get_n_leaves()
        np.testing.assert_array_equal(pruned.predict(X), CARTClassifier(
            min_samples_leaf=2, ccp_alpha=alpha).fit(X, y).predict(X))
    assert pickle.dumps(model.tree_) == before


def test_pruning_log_by_hand():
    # x = 1..4, y = a a b a (see test_cart's path by hand): full tree, 3 leaves, R(T) = 0. The
    # root's g = (0.375 - 0) / (3 - 1) = 0.1875 is smaller than its right child's 0.25: the
    # root is the weakest link. At alpha = 0.2 it is cut (two leaves removed); at 0.1 it is kept.
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array(list("aaba"))
    model = CARTClassifier().fit(X, y)
    cut = prune_cost_complexity(model, 0.2)
    assert cut.get_n_leaves() == 1 and cut.tree_.stop_reason == "ccp_alpha"
    assert cut.pruning_log_.to_dict("records") == [
        {"node": 0, "test": "x0", "depth": 0, "g(t)": 0.1875, "leaves removed": 2,
         "decision": "cut"}]
    kept = prune_cost_complexity(model, 0.1)
    assert kept.get_n_leaves() == 3
    assert kept.pruning_log_["decision"].tolist() == ["kept: g(t) > alpha"]


def test_multiway_tree_with_the_error_cost():
    # ID3 on watermelon 2.0 (9 leaves, all pure): with cost="error" the full tree costs 0 and
    # the path ends at the root alone, whose 8 unripe melons of 17 are called ripe: R = 8/17
    X, y = load_watermelon(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    path = cost_complexity_path(model, cost="error")
    assert path.n_leaves[0] == 9 and path.n_leaves[-1] == 1
    assert path.impurities[0] == 0 and path.impurities[-1] == pytest.approx(8 / 17)
    assert np.all(np.diff(path.ccp_alphas) >= 0)


@requires_rpart
def test_error_cost_path_is_rparts_cptable():
    data = load_kyphosis()
    X, y = data[["Age", "Number", "Start"]], data["Kyphosis"]
    model = CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(X, y)
    fit = rpart("Kyphosis ~ Age + Number + Start", data, control={"cp": 0, "xval": 0})
    path = cost_complexity_path(model, cost="error")
    np.testing.assert_allclose(path.ccp_alphas[::-1] / (17 / 81), fit.cptable["CP"], atol=1e-6)


def test_bad_calls():
    X, y = np.array([[1.0], [2.0], [3.0]]), np.array([1.0, 2.0, 4.0])
    with pytest.raises(NotFittedError):
        cost_complexity_path(CARTClassifier())
    with pytest.raises(ValueError, match='cost="error" counts misclassified rows'):
        cost_complexity_path(CARTRegressor().fit(X, y), cost="error")
    with pytest.raises(ValueError, match="cost must be one of"):
        prune_cost_complexity(CARTRegressor().fit(X, y), 0.1, cost="gini")
    with pytest.raises(ValueError, match="alpha"):
        prune_cost_complexity(CARTRegressor().fit(X, y), -1.0)

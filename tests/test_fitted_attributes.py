"""What scikit-learn users read off a fitted tree: feature_importances_, apply, decision_path,
predict_log_proba and n_classes_; against scikit-learn where the trees coincide, and against
hand computations (of W_t I(t) - sum_c W_c I(c), and of where a row goes)."""
from __future__ import annotations

from math import log2

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from dtree.datasets import load_arff
from dtree.export import tree_arrays


#: a C4.5 tree with a fractional row: x (the last row lacks it) at the root, z below x = a
FRACTIONAL = (pd.DataFrame({"x": ["a", "a", "a", "b", "b", None],
                           "z": ["p", "q", "q", "p", "p", "q"]}), [0, 0, 1, 1, 1, 1])


def H(*counts: float) -> float:
    """Entropy in bits of a class distribution given by weights."""
    total = sum(counts)
    return -sum(c / total * log2(c / total) for c in counts if c > 0)


def same_structure(ours, theirs) -> bool:
    """Whether a dtree CART tree and a scikit-learn tree test the same features at the same
    thresholds (scikit-learn's cut between float32 copies of the values), node by node in
    pre-order."""
    t = theirs.tree_
    stack, sklearn_nodes = [0], []
    while stack:
        i = stack.pop()
        sklearn_nodes.append((t.feature[i], t.threshold[i]) if t.children_left[i] >= 0 else None)
        if t.children_left[i] >= 0:
            stack.extend([t.children_right[i], t.children_left[i]])
    dtree_nodes = [(n.feature_index, n.threshold) if n.children else None
                   for n in ours.tree_.walk()]
    return len(dtree_nodes) == len(sklearn_nodes) and all(
        (a is None and b is None) or (a is not None and b is not None and a[0] == b[0]
                                      and a[1] == pytest.approx(b[1], rel=1e-6, abs=1e-6))
        for a, b in zip(dtree_nodes, sklearn_nodes))


@pytest.mark.parametrize("params", [{"min_samples_leaf": 20},
                                    {"min_samples_leaf": 20, "ccp_alpha": 0.002}])
def test_cart_classifier_importances_equal_scikit_learns(params):
    # random weights: no two splits tie, so the two libraries grow the same tree
    X, y = make_classification(2000, 8, n_informative=5, n_classes=3, random_state=1)
    w = np.random.default_rng(0).uniform(0.5, 2, len(y))
    ours = CARTClassifier(**params).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(**params, random_state=0).fit(X, y, sample_weight=w)
    assert same_structure(ours, theirs)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X),
                               rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
    assert (ours.decision_path(X) != theirs.decision_path(X)).nnz == 0
    assert ours.n_classes_ == theirs.n_classes_ == 3


@pytest.mark.parametrize("criterion, seed, depth", [("squared_error", 0, 5),
                                                    ("absolute_error", 2, 4)])
def test_cart_regressor_importances_equal_scikit_learns(criterion, seed, depth):
    # data on which the two grow the same tree (equal medians tie often: not every seed)
    X, y = make_regression(1000, 6, noise=5, random_state=seed)
    ours = CARTRegressor(criterion=criterion, max_depth=depth).fit(X, y)
    theirs = DecisionTreeRegressor(criterion=criterion, max_depth=depth,
                                   random_state=0).fit(X, y)
    assert same_structure(ours, theirs)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier])
def test_multiway_importances_by_hand_on_the_weather(estimator):
    # outlook at the root (5 sunny: 2 yes 3 no; 4 overcast, all yes; 5 rainy: 3 yes 2 no),
    # humidity below sunny and windy below rainy, each splitting its 5 rows into pure leaves
    X, y = load_arff("weather.nominal", return_X_y=True)
    outlook = 14 * H(9, 5) - 5 * H(2, 3) - 4 * H(4) - 5 * H(3, 2)
    humidity = windy = 5 * H(2, 3)
    total = outlook + humidity + windy
    expected = [outlook / total, 0.0, humidity / total, windy / total]
    model = estimator().fit(X, y)
    assert list(X.columns) == ["outlook", "temperature", "humidity", "windy"]
    np.testing.assert_allclose(model.feature_importances_, expected, rtol=0, atol=1e-12)
    assert model.feature_importances_[0] == pytest.approx(0.2624, abs=5e-5)


def test_a_fractional_row_counts_in_each_child_with_its_share():
    # the row with x missing (class 1, z = q) enters x = a with 3/5 of its weight (3 of the
    # 5 known rows are a) and x = b with 2/5; below a, z splits [1, 0] from [1, 1 + 0.6]
    model = C45Classifier().fit(*FRACTIONAL)
    assert model.tree_.root.feature == "x" and model.tree_.children[0].feature == "z"
    x = 6 * H(2, 4) - 3.6 * H(2, 1.6) - 2.4 * H(0, 2.4)
    z = 3.6 * H(2, 1.6) - 1 * H(1, 0) - 2.6 * H(1, 1.6)
    np.testing.assert_allclose(model.feature_importances_, [x / (x + z), z / (x + z)],
                               rtol=0, atol=1e-12)


def test_a_single_leaf_has_no_importance():
    X, y = pd.DataFrame({"a": [1.0, 2.0, 3.0]}), ["k", "k", "k"]
    model = CARTClassifier().fit(X, y)
    assert model.feature_importances_.tolist() == [0.0]
    assert model.predict_log_proba(X).tolist() == [[0.0]] * 3


def test_a_zero_probability_has_log_minus_infinity():
    X, y = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]}), [0, 0, 1, 1]
    log_proba = CARTClassifier().fit(X, y).predict_log_proba(pd.DataFrame({"a": [1.0]}))
    assert log_proba.tolist() == [[0.0, -np.inf]]


def test_apply_and_decision_path_by_hand():
    # node ids in pre-order: 0 the root (x), 1 x = a (tests z), 2 z = p, 3 z = q, 4 x = b;
    # the last row lacks x: 3/5 of it goes to x = a, then z = q (node 3), 2/5 to node 4
    model = C45Classifier().fit(*FRACTIONAL)
    assert model.apply(FRACTIONAL[0]).tolist() == [2, 3, 3, 4, 4, 3]
    assert model.decision_path(FRACTIONAL[0]).toarray().tolist() == [
        [1, 1, 1, 0, 0], [1, 1, 0, 1, 0], [1, 1, 0, 1, 0], [1, 0, 0, 0, 1], [1, 0, 0, 0, 1],
        [1, 1, 0, 1, 1]]


def test_a_row_that_stops_ends_at_the_internal_node():
    model = C45Classifier(predict_missing="stop").fit(*FRACTIONAL)
    assert model.apply(FRACTIONAL[0]).tolist() == [2, 3, 3, 4, 4, 0]
    assert model.decision_path(FRACTIONAL[0]).toarray()[5].tolist() == [1, 0, 0, 0, 0]


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier, CARTClassifier,
                                       CARTRegressor])
def test_before_fit_they_raise_not_fitted(estimator):
    X = pd.DataFrame({"a": [1.0]})
    with pytest.raises(NotFittedError):
        estimator().feature_importances_
    for method in ("apply", "decision_path") + (
            ("predict_log_proba",) if estimator is not CARTRegressor else ()):
        with pytest.raises(NotFittedError):
            getattr(estimator(), method)(X)


@pytest.mark.parametrize("params, as_rows", [
    ({"min_samples_leaf": 0.01}, {"min_samples_leaf": 20}),  # ceil(0.01 x 2000)
    ({"min_samples_split": 0.0501}, {"min_samples_split": 101}),  # ceil(100.2)
])  # (with smaller nodes, scikit-learn splits a pure node whose Gini rounds to 7e-16)
def test_fractional_row_counts_as_in_scikit_learn(params, as_rows):
    X, y = make_classification(2000, 8, n_informative=5, n_classes=3, random_state=1)
    w = np.random.default_rng(0).uniform(0.5, 2, len(y))
    ours = CARTClassifier(**params).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(**params, random_state=0).fit(X, y, sample_weight=w)
    assert same_structure(ours, theirs)
    assert same_structure(CARTClassifier(**as_rows).fit(X, y, sample_weight=w), theirs)


@pytest.mark.parametrize("name, value, error", [
    ("min_samples_leaf", 1.0, ValueError), ("min_samples_leaf", 0.0, ValueError),
    ("min_samples_split", 1.5, ValueError), ("min_samples_split", 1, ValueError),
    ("min_samples_split", "half", TypeError), ("min_samples_leaf", True, TypeError)])
def test_bad_row_counts_are_refused(name, value, error):
    with pytest.raises(error, match=name):
        CARTRegressor(**{name: value}).fit(np.arange(4.0)[:, None], np.arange(4.0))


def test_tree_arrays_equal_scikit_learns_tree():
    X, y = make_classification(2000, 8, n_informative=5, n_classes=3, random_state=1)
    w = np.random.default_rng(0).uniform(0.5, 2, len(y))
    ours = tree_arrays(CARTClassifier(min_samples_leaf=20).fit(X, y, sample_weight=w))
    theirs = DecisionTreeClassifier(min_samples_leaf=20, random_state=0).fit(
        X, y, sample_weight=w).tree_
    assert ours.node_count == theirs.node_count and ours.n_leaves == theirs.n_leaves
    for name in ("children_left", "children_right", "feature", "n_node_samples"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    # scikit-learn cuts between float32 copies of the values
    np.testing.assert_allclose(ours.threshold, theirs.threshold, rtol=1e-6, atol=1e-6)
    for name in ("value", "impurity", "weighted_n_node_samples"):
        np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-12,
                                   atol=1e-12, err_msg=name)


def test_tree_arrays_refuse_a_multiway_split():
    with pytest.raises(ValueError, match="'x' is not a threshold split"):
        tree_arrays(C45Classifier().fit(*FRACTIONAL))


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1.0, 1: 3.0, 2: 0.5}])
def test_class_weight_as_in_scikit_learn(class_weight):
    # data on which the trees coincide: with smaller nodes, several attributes often tie
    # (scikit-learn then draws one at random) or scikit-learn splits a pure node whose Gini
    # rounds to 5e-16
    X, y = make_classification(2000, 8, n_informative=5, n_classes=3, weights=[0.6, 0.3, 0.1],
                               random_state=2)
    w = np.random.default_rng(0).uniform(0.5, 2, len(y))
    ours = CARTClassifier(max_depth=4, class_weight=class_weight).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(max_depth=4, class_weight=class_weight,
                                    random_state=0).fit(X, y, sample_weight=w)
    assert same_structure(ours, theirs)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    # "balanced": each class weighs n / (K n_j) per row; by hand for the root's class weights
    if class_weight == "balanced":
        counts = np.bincount(y)
        expected = [w[y == k].sum() * len(y) / (3 * counts[k]) for k in range(3)]
        np.testing.assert_allclose(ours.tree_.root.value, expected, rtol=1e-12)


def test_a_bad_class_weight_is_refused():
    with pytest.raises(ValueError, match="class_weight"):
        CARTClassifier(class_weight="even").fit(np.arange(4.0)[:, None], [0, 1, 0, 1])

"""CART's ``tree_`` answers scikit-learn's ``Tree`` interface (``dtree.sktree.Tree``): compared
with scikit-learn's own tree on the same data, and read by the tools written for it
(``permutation_importance``, ``partial_dependence``, shap's ``TreeExplainer``)."""
import pickle

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.inspection import partial_dependence, permutation_importance
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtree import C45Classifier, CARTClassifier, CARTRegressor, prune_cost_complexity
from dtree.sktree import Tree, shap_tree

ARRAYS = ("children_left", "children_right", "feature", "threshold", "value", "impurity",
          "n_node_samples", "weighted_n_node_samples", "missing_go_to_left")


def _gappy(seed: int, n: int = 300, missing: float = 0.1):
    """Random numbers with a tenth of them missing and a noisy target: no ties, so the
    trees are scikit-learn's node for node (which reads X as float32)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)).astype(np.float32).astype(float)
    target = X[:, 0] - X[:, 1] ** 2 + rng.normal(scale=0.5, size=n)
    X[rng.random(X.shape) < missing] = np.nan
    return X, target


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ours, theirs, classify", [
    # shallow: a small node may have two features that part its rows alike, an exact tie
    # decided by column order here and at random in scikit-learn
    (CARTClassifier(missing="learn", max_depth=2, min_samples_leaf=20),
     DecisionTreeClassifier(max_depth=2, min_samples_leaf=20, random_state=0), True),
    (CARTRegressor(missing="learn", max_depth=3, min_samples_leaf=20),
     DecisionTreeRegressor(max_depth=3, min_samples_leaf=20, random_state=0), False),
    (CARTRegressor(criterion="friedman_mse", missing="learn", max_depth=3,
                   min_samples_leaf=20),
     DecisionTreeRegressor(criterion="squared_error", max_depth=3, min_samples_leaf=20,
                           random_state=0), False)])
def test_tree_is_scikit_learns_node_for_node(ours, theirs, classify, seed):
    X, target = _gappy(seed, missing=0.0)  # (missing values: tests/test_missing_learn.py)
    y = (target > 0).astype(int) if classify else target
    with pytest.warns(FutureWarning) if ours.criterion == "friedman_mse" else _nothing():
        ours.fit(X, y)
    theirs.fit(X, y)
    a, b = ours.tree_, theirs.tree_
    for name in ("node_count", "capacity", "max_depth", "n_leaves", "n_outputs",
                 "max_n_classes"):
        assert getattr(a, name) == getattr(b, name), name
    for name in ARRAYS + ("n_classes",):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-10, atol=1e-12,
                                   err_msg=name)
    np.testing.assert_array_equal(a.apply(X), b.apply(X.astype(np.float32)))
    assert (a.decision_path(X) != b.decision_path(X.astype(np.float32))).nnz == 0
    # scikit-learn's formula (its _tree.pyx), on the arrays
    inner = a.children_left >= 0
    w, imp, left, right = (a.weighted_n_node_samples, a.impurity, a.children_left[inner],
                           a.children_right[inner])
    drop = w[inner] * imp[inner] - w[left] * imp[left] - w[right] * imp[right]
    raw = np.bincount(a.feature[inner], drop, minlength=X.shape[1]) / w[0]
    np.testing.assert_allclose(a.compute_feature_importances(False), raw, rtol=1e-10)
    np.testing.assert_allclose(a.compute_feature_importances(), raw / raw.sum(), rtol=1e-10)
    np.testing.assert_allclose(a.predict(X), b.predict(X.astype(np.float32)), rtol=1e-12)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_node_api_stays_and_the_root_is_the_tree():
    model = CARTClassifier(max_depth=2).fit(*load_iris(return_X_y=True))
    root = model.tree_.root
    assert [n for n in model.tree_.walk()] == list(root.walk())
    assert model.tree_.children == root.children and model.tree_.n_samples == 150
    # the root's own test and counts, and scikit-learn's arrays, shape (nodes, 1, classes)
    assert (root.feature, root.threshold) == ("x2", 2.45)
    assert model.tree_.feature[0] == 2 and model.tree_.threshold[0] == 2.45
    assert model.tree_.value.shape == (model.tree_.node_count, 1, 3)
    np.testing.assert_allclose(model.tree_.value[0, 0], [1 / 3, 1 / 3, 1 / 3])
    with pytest.raises(AttributeError, match="no attribute 'splitter'"):
        model.tree_.splitter


def test_arrays_follow_an_edit_and_are_not_pickled():
    X, y = load_iris(return_X_y=True)
    model = CARTClassifier().fit(X, y)
    before = model.tree_.node_count
    pruned = prune_cost_complexity(model, alpha=0.02)
    assert pruned.tree_.node_count == 2 * pruned.get_n_leaves() - 1 < before
    assert model.tree_.node_count == before  # the copy was pruned
    size = len(pickle.dumps(model))
    model.tree_.children_left  # the arrays made ...
    assert len(pickle.dumps(model)) == size
    restored = pickle.loads(pickle.dumps(model))
    assert not restored.tree_.root._table.derived  # ... and not pickled
    np.testing.assert_array_equal(restored.tree_.threshold, model.tree_.threshold)


def test_a_multiway_tree_keeps_its_node_and_a_category_split_has_no_arrays():
    X = [["a"], ["b"], ["c"], ["a"]]
    assert not isinstance(C45Classifier().fit(X, [0, 1, 2, 0]).tree_, Tree)
    model = CARTClassifier().fit(X, [0, 1, 1, 0])
    with pytest.raises(ValueError, match="not a threshold split"):
        model.tree_.feature
    with pytest.raises(TypeError, match="CARTClassifier or CARTRegressor"):
        shap_tree(C45Classifier().fit(X, [0, 1, 2, 0]))


def test_permutation_importance_and_partial_dependence_run_on_cart():
    X, y = _gappy(2, missing=0.0)
    ours = CARTRegressor(max_depth=4).fit(X, y)
    theirs = DecisionTreeRegressor(max_depth=4, random_state=0).fit(X, y)
    a = permutation_importance(ours, X, y, n_repeats=3, random_state=0)
    b = permutation_importance(theirs, X, y, n_repeats=3, random_state=0)
    np.testing.assert_allclose(a.importances, b.importances, rtol=1e-10)
    for features in ([0], [0, 1]):
        a = partial_dependence(ours, X, features, method="brute", grid_resolution=10)
        b = partial_dependence(theirs, X, features, method="brute", grid_resolution=10)
        np.testing.assert_allclose(a["average"], b["average"], rtol=1e-10)


@pytest.mark.parametrize("model", [CARTClassifier(max_depth=4, missing="learn"),
                                   CARTRegressor(max_depth=4, missing="learn")])
def test_shap_values_add_up_to_the_prediction(model):
    shap = pytest.importorskip("shap")
    X, target = _gappy(1)
    classify = isinstance(model, CARTClassifier)
    model.fit(X, (target > 0).astype(int) if classify else target)
    explainer = shap.TreeExplainer({"trees": [shap_tree(model)]})
    values = np.asarray(explainer.shap_values(X))
    predicted = model.predict_proba(X) if classify else model.predict(X)[:, None]
    expected = np.reshape(explainer.expected_value, -1)
    values = values.reshape(len(X), X.shape[1], -1)  # rows, features, outputs
    np.testing.assert_allclose(values.sum(axis=1), predicted - expected, atol=1e-9)

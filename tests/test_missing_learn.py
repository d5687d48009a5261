"""CART's ``missing="learn"``: scikit-learn's rule for missing values (>= 1.3), where a split
sends the rows whose value is missing to the side that decreases the impurity more and the
node remembers that side (``Node.missing_side``, scikit-learn's ``missing_go_to_left``).

Expected values come from hand calculation and from scikit-learn's trees; the rows carry
random weights so that no two cuts tie, and X holds float32 values (scikit-learn cuts between
float32 values, so thresholds are compared with rel 1e-6)."""
from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_friedman1
from sklearn.model_selection import KFold, cross_val_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtree import CARTClassifier, CARTRegressor
from dtree.tree import reach
from jit import run_script


def gappy_data(seed: int, n: int = 200, regression: bool = False):
    """Three numeric columns (float32 values) with 25% missing, a target that depends on the
    values and on the gaps of column 2, and random weights."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)).astype(np.float32).astype(float)
    signal = X[:, 0] + X[:, 1]
    X[rng.random(X.shape) < 0.25] = np.nan
    gap = np.isnan(X[:, 2])
    if regression:
        y = np.where(gap, 2.0, signal) + rng.normal(scale=0.3, size=n)
    else:
        y = np.where(gap, rng.random(n) < 0.8, signal > 0).astype(int)
    return X, y, rng.uniform(0.5, 2.0, n)


def assert_same_tree(node, tree, i: int = 0) -> list[str]:
    """``node``'s subtree is scikit-learn's ``tree`` from node i: the same tests, thresholds,
    missing sides, weights and leaves. Returns the kinds of split met ("cut" or "is
    missing", threshold +inf). A node whose class counts are pure is a leaf here;
    scikit-learn may still split it when its Gini index, rounded, is a few ulp above zero (it
    stops at <= 2.2e-16), into children that predict the same; such a subtree counts as that
    leaf."""
    if node.is_leaf and node.stop_reason == "pure" and tree.impurity[i] < 1e-12:
        return []
    assert node.weighted_n_samples == pytest.approx(tree.weighted_n_node_samples[i], rel=1e-9)
    assert node.n_samples == tree.n_node_samples[i]
    if tree.children_left[i] < 0:
        assert node.is_leaf
        return []
    assert node.feature_index == tree.feature[i]
    t = tree.threshold[i]
    kinds = ["is missing" if np.isinf(t) else "cut"]
    if np.isinf(t):
        assert node.threshold == t
    else:
        assert node.threshold == pytest.approx(t, rel=1e-6)
    assert node.missing_side == (0 if tree.missing_go_to_left[i] else 1)
    for child, j in zip(node.children, (tree.children_left[i], tree.children_right[i])):
        kinds += assert_same_tree(child, tree, j)
    return kinds


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_classifier_equals_scikit_learn_node_for_node(seed, criterion):
    X, y, w = gappy_data(seed)
    # min_samples_leaf=5: in a node of a few rows several columns part the classes alike,
    # a tie that scikit-learn breaks at random
    ours = CARTClassifier(criterion=criterion, missing="learn", min_samples_leaf=5).fit(
        X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(criterion=criterion, min_samples_leaf=5,
                                    random_state=0).fit(X, y, sample_weight=w)
    assert_same_tree(ours.tree_.root, theirs.tree_)
    X_new = gappy_data(seed + 100)[0]
    np.testing.assert_allclose(ours.predict_proba(X_new), theirs.predict_proba(X_new),
                               atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("min_samples_leaf", [5, 10])
def test_regressor_equals_scikit_learn_node_for_node(seed, min_samples_leaf):
    X, y, w = gappy_data(seed, regression=True)
    ours = CARTRegressor(missing="learn", min_samples_leaf=min_samples_leaf).fit(
        X, y, sample_weight=w)
    theirs = DecisionTreeRegressor(min_samples_leaf=min_samples_leaf, random_state=0).fit(
        X, y, sample_weight=w)
    assert_same_tree(ours.tree_.root, theirs.tree_)
    X_new = gappy_data(seed + 100)[0]
    np.testing.assert_allclose(ours.predict(X_new), theirs.predict(X_new), rtol=1e-9)


def test_the_comparison_meets_every_kind_of_split():
    # the trees above hold cuts, "is missing" splits (threshold +inf) and nodes whose rows had
    # no gap in the tested column (side: the child with more rows)
    kinds, no_gap = [], 0
    for seed in range(6):
        X, y, w = gappy_data(seed)
        model = CARTClassifier(missing="learn", min_samples_leaf=5).fit(X, y, sample_weight=w)
        kinds += assert_same_tree(model.tree_.root, DecisionTreeClassifier(
            min_samples_leaf=5, random_state=0).fit(X, y, sample_weight=w).tree_)
        for node, rows, _, _ in reach(model.tree_.root, X, "stop"):
            if node.children and not np.isnan(X[rows, node.feature_index]).any():
                no_gap += 1
    assert {"cut", "is missing"} <= set(kinds)
    assert no_gap > 0


def test_missing_side_by_hand():
    # x = 1 2 3 4 ? ?, y = 0 0 1 1 c c. The cut x <= 2.5 with the gaps beside the class c
    # leaves two pure sides: decrease 1/2 - 0 in Gini per row, the largest possible
    x = np.array([[1.0], [2.0], [3.0], [4.0], [np.nan], [np.nan]])
    for c, side in [(1, 1), (0, 0)]:
        y = np.array([0, 0, 1, 1, c, c])
        model = CARTClassifier(missing="learn").fit(x, y)
        root = model.tree_.root
        assert (root.threshold, root.missing_side) == (2.5, side)
        assert root.children[side].weighted_n_samples == 4
        assert model.predict([[np.nan]])[0] == c
        assert len(root.children[0].children) == len(root.children[1].children) == 0


def test_is_missing_split_by_hand():
    # y = 1 exactly where x is missing: "x is missing" (all known values left, threshold +inf)
    # is pure on both sides; every cut of the known values leaves a mixed side
    x = np.array([[1.0], [2.0], [3.0], [np.nan], [np.nan]])
    model = CARTClassifier(missing="learn").fit(x, [0, 0, 0, 1, 1])
    assert (model.tree_.root.threshold, model.tree_.missing_side) == (np.inf, 1)
    assert list(model.predict([[np.nan], [5.0], [-5.0]])) == [1, 0, 0]


def test_side_without_gaps_at_fit_is_the_larger_child():
    # no missing x at fit: a missing x goes to the child with more rows (scikit-learn's
    # n_left > n_right), the right one on a tie
    x = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]])
    y = [0, 0, 0, 1, 1]
    assert CARTClassifier(missing="learn").fit(x, y).tree_.missing_side == 0
    tie = CARTClassifier(missing="learn").fit(x[:4], [0, 0, 1, 1])
    assert tie.tree_.missing_side == 1
    assert tie.predict([[np.nan]])[0] == 1


def missingness_only(seed: int, n: int = 400):
    """20 noise columns; only which of them are missing tells the class (a gap in the first
    five is likelier for class 1)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 20))
    rate = np.where(y[:, None] == 1, 0.5, 0.1) * (np.arange(20) < 5)
    X[rng.random(X.shape) < rate] = np.nan
    return X, y


def test_learn_beats_surrogates_where_only_missingness_predicts():
    # the case: surrogates choose splits on the (noise) values, so about chance;
    # learning the gaps' side recovers the signal, and equals scikit-learn's accuracy
    X, y = missingness_only(0)
    folds = KFold(5, shuffle=True, random_state=0)

    def accuracy(model):
        return cross_val_score(model, X, y, cv=folds).mean()

    surrogate, learn = accuracy(CARTClassifier()), accuracy(CARTClassifier(missing="learn"))
    assert surrogate < 0.6
    assert learn > surrogate + 0.15
    assert learn == pytest.approx(accuracy(DecisionTreeClassifier(random_state=0)), abs=0.02)


def test_friedman1_with_gaps_learn_matches_scikit_learn():
    X, y = make_friedman1(600, random_state=0)
    X = X.astype(np.float32).astype(float)
    X[np.random.default_rng(0).random(X.shape) < 0.1] = np.nan
    train, test = slice(0, 400), slice(400, None)
    learn = CARTRegressor(missing="learn", min_samples_leaf=5).fit(X[train], y[train])
    theirs = DecisionTreeRegressor(min_samples_leaf=5, random_state=0).fit(X[train], y[train])
    surrogate = CARTRegressor(min_samples_leaf=5).fit(X[train], y[train])
    assert_same_tree(learn.tree_.root, theirs.tree_)
    assert learn.score(X[test], y[test]) == pytest.approx(theirs.score(X[test], y[test]),
                                                           abs=1e-9)
    assert learn.score(X[test], y[test]) > surrogate.score(X[test], y[test])


def test_default_and_surrogate_trees_are_unchanged():
    X, y, w = gappy_data(0)
    default = CARTClassifier().fit(X, y, sample_weight=w)
    assert default.get_params()["missing"] == "surrogate"
    assert all(node.missing_side is None for node in default.tree_.walk())
    assert any(node.surrogates for node in default.tree_.walk())
    learn = CARTClassifier(missing="learn").fit(X, y, sample_weight=w)
    assert not any(node.surrogates for node in learn.tree_.walk())


def test_learned_sides_survive_pickling():
    X, y, w = gappy_data(1, regression=True)
    model = CARTRegressor(missing="learn").fit(X, y, sample_weight=w)
    again = pickle.loads(pickle.dumps(model))
    assert [n.missing_side for n in again.tree_.walk()] == \
        [n.missing_side for n in model.tree_.walk()]
    np.testing.assert_array_equal(again.predict(X), model.predict(X))


def test_bad_settings_are_refused():
    X, y, _ = gappy_data(0)
    with pytest.raises(ValueError, match="missing"):
        CARTClassifier(missing="branch").fit(X, y)
    with pytest.raises(ValueError, match="squared_error"):
        CARTRegressor(criterion="absolute_error", missing="learn").fit(X, y)
    frame = pd.DataFrame({"x": X[:, 0], "colour": pd.Categorical(
        np.where(np.isnan(X[:, 2]), None, np.where(X[:, 2] > 0, "red", "blue")))})
    with pytest.raises(ValueError, match="categorical and has a missing value"):
        CARTClassifier(missing="learn").fit(frame, y)
    complete = frame.assign(colour=frame["colour"].fillna("red"))
    model = CARTClassifier(missing="learn").fit(complete, y)  # no gap in a category: fine
    assert model.predict(frame).shape == (len(y),)


LEARN_SCRIPT = """
import json, sys
sys.path.insert(0, "tests")
from test_missing_learn import gappy_data
from dtree import CARTRegressor
X, y, w = gappy_data(3, regression=True)
tree = CARTRegressor(missing="learn").fit(X, y, sample_weight=w).tree_.root
print(json.dumps([[n.feature_index, n.threshold, n.missing_side, n.weighted_n_samples]
                  for n in tree.walk()]))
"""


def test_plain_and_compiled_kernels_grow_the_same_tree():
    assert run_script(LEARN_SCRIPT, jit=True) == run_script(LEARN_SCRIPT, jit=False)


def test_branch_labels_say_where_missing_values_go():
    from dtree import export_text
    X = np.array([[1.0], [2.0], [np.nan], [np.nan], [3.0], [4.0]])
    only_missingness = CARTClassifier(missing="learn").fit(X, [0, 0, 1, 1, 0, 0])
    assert only_missingness.tree_.branch_labels() == ["is not missing", "is missing"]
    X = np.array([[1.0], [2.0], [np.nan], [5.0], [6.0], [4.0]])
    cut = CARTClassifier(missing="learn").fit(X, [0, 0, 1, 1, 1, 0])
    assert cut.tree_.branch_labels() == ["<= 4.5", "> 4.5 or missing"]
    assert "|--- x0 > 4.5 or missing" in export_text(cut)

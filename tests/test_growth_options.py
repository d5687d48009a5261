"""CART's growth options from scikit-learn: ``max_leaf_nodes`` (best-first growth, equal to
scikit-learn's ``BestFirstTreeBuilder`` node for node) and ``max_features`` with
``random_state`` (a random subset of the attributes at each node)."""
import numpy as np
import pytest
from scipy.stats import chisquare
from sklearn.base import clone
from sklearn.datasets import make_classification, make_friedman1
from sklearn.ensemble import BaggingClassifier
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtree import CARTClassifier, CARTRegressor


def _float32(X):
    """X's values as float32 ones (scikit-learn grows on float32), kept in float64."""
    return X.astype(np.float32).astype(float)


@pytest.fixture(scope="module")
def classification():
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, n_classes=3,
                               random_state=1)
    w = np.random.RandomState(2).uniform(0.5, 2.0, len(y))  # breaks ties between splits
    return _float32(X), y, w


@pytest.fixture(scope="module")
def regression():
    X, y = make_friedman1(n_samples=300, n_features=6, random_state=3)
    w = np.random.RandomState(4).uniform(0.5, 2.0, len(y))
    return _float32(X), y, w


def _assert_same_tree(node, sk, i=0):
    """Our tree equals scikit-learn's in pre-order: each node's test, threshold (scikit-learn
    cuts between float32 values: rel 1e-6) and weight, and where the leaves are."""
    t = sk.tree_
    assert node.weighted_n_samples == pytest.approx(t.weighted_n_node_samples[i], rel=1e-9)
    if t.children_left[i] == -1:
        assert node.is_leaf
        return
    assert not node.is_leaf
    assert node.feature_index == t.feature[i]
    assert node.threshold == pytest.approx(t.threshold[i], rel=1e-6)
    _assert_same_tree(node.children[0], sk, t.children_left[i])
    _assert_same_tree(node.children[1], sk, t.children_right[i])


def _leaves(model):
    return [n for n in model.tree_.walk() if n.is_leaf]


def _structure(node):
    """A tree as nested tuples of (attribute, threshold), for equality."""
    if node.is_leaf:
        return None
    return (node.feature_index, node.threshold, *(_structure(c) for c in node.children))


@pytest.mark.parametrize("k", [2, 3, 5, 8, 13])  # beyond, ties (pure children) appear
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_max_leaf_nodes_classifier_is_scikit_learns(classification, k, criterion):
    X, y, w = classification
    ours = CARTClassifier(criterion=criterion, max_leaf_nodes=k).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(criterion=criterion, max_leaf_nodes=k,
                                    random_state=0).fit(X, y, sample_weight=w)
    assert theirs.get_n_leaves() == k
    _assert_same_tree(ours.tree_.root, theirs)
    assert len(_leaves(ours)) == k


@pytest.mark.parametrize("k", [2, 3, 5, 8, 13, 21])
def test_max_leaf_nodes_regressor_is_scikit_learns(regression, k):
    X, y, w = regression
    ours = CARTRegressor(max_leaf_nodes=k).fit(X, y, sample_weight=w)
    theirs = DecisionTreeRegressor(max_leaf_nodes=k, random_state=0).fit(X, y,
                                                                          sample_weight=w)
    _assert_same_tree(ours.tree_.root, theirs)
    assert len(_leaves(ours)) == k


def test_max_leaf_nodes_with_depth_and_leaf_size(classification):
    X, y, w = classification
    ours = CARTClassifier(max_leaf_nodes=9, max_depth=3, min_samples_leaf=10).fit(
        X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(max_leaf_nodes=9, max_depth=3, min_samples_leaf=10,
                                    random_state=0).fit(X, y, sample_weight=w)
    _assert_same_tree(ours.tree_.root, theirs)


def test_best_first_splits_the_largest_weighted_decrease_first():
    # the root splits x0 (left: 2 rows of class 0; right: classes 1, 1, 2, 2 mixed in x1).
    # With 3 leaves the right child is split next; its weighted Gini decrease is
    # (4/6) (1/2 - 0) = 1/3, and a 4th leaf is impossible (every other node is pure).
    X = np.array([[0, 0], [0, 0], [1, 0], [1, 0], [1, 1], [1, 1]], float)
    y = np.array([0, 0, 1, 1, 2, 2])
    two = CARTClassifier(max_leaf_nodes=2).fit(X, y)
    assert len(_leaves(two)) == 2
    assert [c.stop_reason for c in two.tree_.children] == ["pure", "max_leaf_nodes"]
    three = CARTClassifier(max_leaf_nodes=3).fit(X, y)
    assert _structure(three.tree_.root) == _structure(CARTClassifier().fit(X, y).tree_.root)


def test_max_leaf_nodes_never_reached_is_the_unchanged_tree(classification, regression):
    for Model, (X, y, w) in ((CARTClassifier, classification), (CARTRegressor, regression)):
        full = Model().fit(X, y, sample_weight=w)
        n = len(_leaves(full))
        for k in (n, n + 1, 10 * n):
            limited = Model(max_leaf_nodes=k).fit(X, y, sample_weight=w)
            assert _structure(limited.tree_.root) == _structure(full.tree_.root)
            assert np.array_equal(limited.predict(X), full.predict(X))
        assert len(_leaves(Model(max_leaf_nodes=n - 1).fit(X, y, sample_weight=w))) == n - 1


def test_max_leaf_nodes_then_pruning_and_missing_values(classification):
    X, y, w = classification
    X = X.copy()
    X[np.random.RandomState(5).uniform(size=X.shape) < 0.1] = np.nan
    model = CARTClassifier(max_leaf_nodes=6, ccp_alpha=0.01).fit(X, y, sample_weight=w)
    assert 2 <= len(_leaves(model)) <= 6
    assert model.predict(X).shape == y.shape


@pytest.mark.parametrize("Model", [CARTClassifier, CARTRegressor])
def test_max_features_all_is_the_unchanged_tree(classification, Model):
    X, y, w = classification
    full = _structure(Model().fit(X, y, sample_weight=w).tree_.root)
    for max_features in (None, X.shape[1], 1.0):
        model = Model(max_features=max_features, random_state=0).fit(X, y, sample_weight=w)
        assert _structure(model.tree_.root) == full


@pytest.mark.parametrize("Model", [CARTClassifier, CARTRegressor])
def test_seeded_draws_repeat_and_clone_keeps_them(classification, Model):
    X, y, w = classification
    model = Model(max_features=2, random_state=7)
    first = _structure(model.fit(X, y, sample_weight=w).tree_.root)
    assert _structure(model.fit(X, y, sample_weight=w).tree_.root) == first
    assert _structure(clone(model).fit(X, y, sample_weight=w).tree_.root) == first
    other = _structure(Model(max_features=2, random_state=8).fit(X, y, sample_weight=w).tree_.root)
    assert other != first
    rng = np.random.RandomState(0)  # a generator: successive fits draw anew
    model = Model(max_features=2, random_state=rng)
    assert _structure(model.fit(X, y).tree_.root) != _structure(model.fit(X, y).tree_.root)


def test_max_features_one_roots_differ_across_seeds(classification):
    X, y, _ = classification
    roots = [CARTClassifier(max_features=1, max_depth=1, random_state=s).fit(X, y)
             .tree_.feature_index for s in range(300)]
    counts = np.bincount(roots, minlength=X.shape[1])
    # every attribute can split the root, so each is drawn with probability 1/6
    assert (counts > 0).all()
    assert chisquare(counts).pvalue > 0.001


def test_the_search_goes_on_past_attributes_that_cannot_split():
    rng = np.random.RandomState(0)
    X = np.column_stack([np.ones(60), rng.normal(size=60), np.zeros(60)])
    y = (X[:, 1] + 0.5 * rng.normal(size=60) > 0).astype(int)
    full = _structure(CARTClassifier().fit(X, y).tree_.root)
    for seed in range(20):  # only column 1 splits anything: every draw ends there
        model = CARTClassifier(max_features=1, random_state=seed).fit(X, y)
        assert _structure(model.tree_.root) == full


def test_max_features_counts_as_scikit_learn():
    from dtree._validation import count_features
    assert [count_features(v, 10) for v in (None, 3, 0.25, 0.01, "sqrt", "log2")] == [
        None, 3, 2, 1, 3, 3]
    assert count_features("sqrt", 1) == 1 and count_features("log2", 1) == 1


def test_random_subsets_as_scikit_learns_statistically(classification):
    # not the same trees (the random draws differ), but the same kind. With max_features=2,
    # the root tests attribute f when f is drawn with one it beats: probability
    # (attributes f beats) / C(6, 2), who beats whom read off scikit-learn's trees on each
    # pair; over 300 seeds the roots follow it (chi-square goodness of fit)
    from itertools import combinations
    from scipy.stats import ttest_ind
    X, y, _ = classification
    wins = np.zeros(6)
    for pair in combinations(range(6), 2):
        stump = DecisionTreeClassifier(max_depth=1).fit(X[:, pair], y)
        wins[pair[stump.tree_.feature[0]]] += 1
    roots = [CARTClassifier(max_features=2, max_depth=1, random_state=s).fit(X, y)
             .tree_.feature_index for s in range(300)]
    counts = np.bincount(roots, minlength=6)
    assert counts[wins == 0].sum() == 0  # the worst attribute never wins
    seen = wins > 0
    assert chisquare(counts[seen], 300 * wins[seen] / wins.sum()).pvalue > 0.01
    # and the trees' 5-fold accuracies do not differ significantly (Welch's t test)
    ours_acc = [cross_val_score(CARTClassifier(max_features=2, random_state=s), X, y).mean()
                for s in range(15)]
    theirs_acc = [cross_val_score(DecisionTreeClassifier(max_features=2, random_state=s),
                                  X, y).mean() for s in range(15)]
    assert ttest_ind(ours_acc, theirs_acc, equal_var=False).pvalue > 0.01


def test_a_forest_of_random_subsets(classification):
    X, y, _ = classification
    forest = BaggingClassifier(CARTClassifier(max_features="sqrt"), n_estimators=15,
                               random_state=0)
    single = cross_val_score(CARTClassifier(), X, y, cv=5)
    bagged = cross_val_score(forest, X, y, cv=5)
    trees = forest.fit(X, y).estimators_
    assert len({_structure(t.tree_.root) for t in trees}) == 15  # each its own seed and sample
    assert len({t.random_state for t in trees}) == 15
    assert bagged.mean() > single.mean()  # sanity only: 5 folds are too few to test it


@pytest.mark.parametrize("params, error", [
    ({"max_features": 0}, ValueError), ({"max_features": 1.5}, ValueError),
    ({"max_features": 0.0}, ValueError), ({"max_features": "auto"}, ValueError),
    ({"max_features": True}, TypeError), ({"max_features": [2]}, TypeError),
    ({"max_features": 7}, ValueError),  # more than X's 6 columns
    ({"max_leaf_nodes": 1}, ValueError), ({"max_leaf_nodes": 2.0}, TypeError),
    ({"max_leaf_nodes": True}, TypeError), ({"random_state": "seed"}, ValueError),
])
@pytest.mark.parametrize("Model", [CARTClassifier, CARTRegressor])
def test_bad_values_are_refused(classification, Model, params, error):
    X, y, _ = classification
    with pytest.raises(error, match=next(iter(params))):
        Model(**params).fit(X, y)

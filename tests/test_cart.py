"""CARTClassifier and CARTRegressor: against scikit-learn's trees (the same definitions, so the
same trees where no two candidate splits tie), categorical bipartitions worked by hand and by
brute force, cost-complexity pruning, and scikit-learn's estimator checks."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from references import assert_same_tree_as_rpart, load_kyphosis, requires_rpart, rpart
from sklearn import datasets as skdata
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from dtree import CARTClassifier, CARTRegressor, export_text, gini, kernels
from dtree.pruning import weakest_links


def assert_same_tree(ours, theirs) -> int:
    """Walk both trees together: the same tests (feature, threshold) and leaf values, except
    that where scikit-learn tests another attribute our node must record an exact tie with it
    (``Node.ties``; scikit-learn breaks ties at random): the two subtrees below are then not
    compared. Returns the number of such ties."""
    t, ties = theirs.tree_, 0
    stack = [(ours.tree_.root, 0)]
    while stack:
        node, i = stack.pop()
        if t.children_left[i] < 0:
            value = t.value[i, :, 0] if t.value.shape[2] == 1 else t.value[i, 0]
            assert node.is_leaf
            np.testing.assert_allclose(node.prediction, value / value.sum()
                                       if t.value.shape[2] > 1 else value, rtol=1e-7)
            continue
        assert not node.is_leaf
        if node.feature_index != t.feature[i]:
            assert f"x{t.feature[i]}" in node.ties, (node.scores, node.ties, t.feature[i])
            ties += 1
            continue
        assert node.threshold == pytest.approx(t.threshold[i], rel=1e-12)
        stack += [(node.children[0], t.children_left[i]), (node.children[1], t.children_right[i])]
    return ties


def float32_exact(X):
    """scikit-learn's trees work in float32: data already float32 gives both the same cuts."""
    return np.asarray(X, dtype=np.float32).astype(float)


CLASSIFICATION = {
    "synthetic, 3 classes": lambda: skdata.make_classification(
        n_samples=300, n_features=6, n_informative=4, n_classes=3, random_state=1),
    "breast cancer": lambda: skdata.load_breast_cancer(return_X_y=True),
    "wine": lambda: skdata.load_wine(return_X_y=True),
}
REGRESSION = {
    "synthetic": lambda: skdata.make_regression(n_samples=300, n_features=5, noise=5.0,
                                                random_state=2),
    "diabetes": lambda: skdata.load_diabetes(return_X_y=True),
}
SETTINGS = [dict(max_depth=4), dict(min_samples_leaf=5), dict(min_impurity_decrease=0.01)]


CASES = ([(CARTClassifier, DecisionTreeClassifier, name, settings)
          for name in CLASSIFICATION for settings in SETTINGS]
         + [(CARTRegressor, DecisionTreeRegressor, name, settings)
            for name in REGRESSION for settings in SETTINGS[:2]]
         + [(CARTRegressor, DecisionTreeRegressor, name,
             dict(criterion="absolute_error", max_depth=3)) for name in REGRESSION])


@pytest.mark.parametrize("ours_class, theirs_class, name, settings", CASES,
                         ids=[f"{c[2]}-{c[3]}" for c in CASES])
def test_same_tree_as_sklearn(ours_class, theirs_class, name, settings):
    X, y = {**CLASSIFICATION, **REGRESSION}[name]()
    X = float32_exact(X)
    ours = ours_class(**settings).fit(X, y)
    theirs = theirs_class(random_state=0, **settings).fit(X, y)
    if assert_same_tree(ours, theirs) == 0:  # then the same predictions, too
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9)
        if hasattr(theirs, "predict_proba"):
            np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X),
                                       atol=1e-12)


@pytest.mark.parametrize("name", ["breast cancer", "wine"])
def test_pruning_path_and_ccp_alpha_as_sklearn(name):
    X, y = CLASSIFICATION[name]()
    X = float32_exact(X)
    ours = CARTClassifier(min_samples_leaf=3).cost_complexity_pruning_path(X, y)
    theirs = DecisionTreeClassifier(min_samples_leaf=3, random_state=0) \
        .cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.impurities, theirs.impurities, rtol=0, atol=1e-9)
    between = (ours.ccp_alphas[1:] + ours.ccp_alphas[:-1]) / 2  # not on a boundary
    for alpha in between[::3]:
        pruned = CARTClassifier(min_samples_leaf=3, ccp_alpha=alpha).fit(X, y)
        reference = DecisionTreeClassifier(min_samples_leaf=3, ccp_alpha=alpha,
                                           random_state=0).fit(X, y)
        assert_same_tree(pruned, reference)
        assert pruned.get_n_leaves() == reference.get_n_leaves()


def test_regression_pruning_path_as_sklearn():
    X, y = REGRESSION["diabetes"]()
    X = float32_exact(X)
    ours = CARTRegressor(min_samples_leaf=10).cost_complexity_pruning_path(X, y)
    theirs = DecisionTreeRegressor(min_samples_leaf=10, random_state=0) \
        .cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.impurities, theirs.impurities, rtol=1e-9)


def test_pruning_path_by_hand():
    # x = 1..4, y = a a b a. Full tree: x <= 2.5 (a a | b a), then x <= 3.5 (b | a): 3 leaves,
    # R(T0) = 0. Root R = 1/4 * 2 * 1/4 * 3/4 = 0.375 * ... : Gini(root) = 1 - (3/4)^2 - (1/4)^2
    # = 0.375, R(root) = 0.375; the right node: Gini 0.5, R = 2/4 * 0.5 = 0.25.
    # g(right) = (0.25 - 0) / (2 - 1) = 0.25; g(root) = (0.375 - 0) / (3 - 1) = 0.1875: the
    # root is the weakest link and goes first, at alpha 0.1875, leaving one leaf (R = 0.375).
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array(list("aaba"))
    path = CARTClassifier().cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path.ccp_alphas, [0.0, 0.1875])
    np.testing.assert_allclose(path.impurities, [0.0, 0.375])
    assert path.n_leaves.tolist() == [3, 1]
    assert CARTClassifier(ccp_alpha=0.19).fit(X, y).get_n_leaves() == 1
    assert CARTClassifier(ccp_alpha=0.18).fit(X, y).get_n_leaves() == 3


# --- categorical bipartitions ---------------------------------------------------------------

def test_two_class_bipartition_by_the_ordering_shortcut():
    # shares of class "y" per category: a 0/4, b 3/4, c 1/4, d 4/4. Sorted: a, c, b, d; the best
    # cut along that order is {a, c} | {b, d} (Gini 0.125 after, against 0.5 before): the
    # pairs are (0 y + 4 n, 1 y + 3 n) and (3 y + 1 n, 4 y + 0 n)
    X = pd.DataFrame({"k": pd.Categorical(list("aaaabbbbccccdddd"))})
    y = np.array(list("nnnn" "yyyn" "ynnn" "yyyy"))
    model = CARTClassifier().fit(X, y)
    root = model.tree_.root
    assert root.category_sets == (frozenset("ac"), frozenset("bd"))
    after = (8 * gini(list("nnnnynnn")) + 8 * gini(list("yyynyyyy"))) / 16
    assert root.gains["k"] == pytest.approx(gini(y) - after)
    assert after == pytest.approx(0.21875)
    # the attribute stays available: each side splits again on k
    assert [child.feature for child in root.children] == ["k", "k"]


def brute_force_bipartition(codes, y, n_codes):
    best, best_left = -1.0, None
    present = sorted(set(codes))
    for r in range(1, len(present)):
        for left in itertools.combinations(present, r):
            if present[-1] in left:
                continue
            mask = np.isin(codes, left)
            after = (mask.sum() * gini(y[mask]) + (~mask).sum() * gini(y[~mask])) / len(y)
            if gini(y) - after > best + 1e-12:
                best, best_left = gini(y) - after, set(left)
    return best, best_left


@pytest.mark.parametrize("seed", range(5))
def test_many_class_bipartition_is_the_best_of_all(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 6, size=60)
    y = np.where(rng.random(60) < 0.6, codes % 3, rng.integers(0, 3, size=60))
    categories = list("uvwxyz")
    X = pd.DataFrame({"k": pd.Categorical.from_codes(codes, categories)})
    model = CARTClassifier(max_depth=1).fit(X, y)
    best, left = brute_force_bipartition(codes, y, 6)
    assert model.tree_.gains["k"] == pytest.approx(best)
    chosen = {categories.index(c) for c in model.tree_.category_sets[0]}
    assert chosen == left or chosen == set(codes) - left


def test_a_bipartition_of_more_than_64_categories_is_the_cut_it_scored():
    # two classes, 100 categories: the best cut along the order of the share of class 1,
    # found here by brute force, is the split the tree makes (the cut was once read back from
    # a 64-bit mask, and compiled shifts by 64 or more wrapped around)
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 100, size=2000)
    y = (rng.random(2000) < codes / 100).astype(int)
    categories = [f"v{i:02d}" for i in range(100)]
    X = pd.DataFrame({"k": pd.Categorical.from_codes(codes, categories)})
    order = np.argsort([y[codes == c].mean() for c in range(100)], kind="stable")
    def decrease(left):
        mask = np.isin(codes, left)
        return gini(y) - (mask.sum() * gini(y[mask]) + (~mask).sum() * gini(y[~mask])) / len(y)
    cuts = [decrease(order[:t]) for t in range(1, 100)]
    t = int(np.argmax(cuts)) + 1
    root = CARTClassifier(max_depth=1).fit(X, y).tree_.root
    assert root.gains["k"] == pytest.approx(max(cuts))
    assert {categories.index(c) for c in root.category_sets[0]} == set(order[:t])


def test_regression_bipartition_orders_by_mean():
    # means: a 1, b 10, c 2, d 11 -> order a, c, b, d; best cut {a, c} | {b, d}
    X = pd.DataFrame({"k": pd.Categorical(list("aabbccdd"))})
    y = np.array([0.0, 2.0, 9.0, 11.0, 2.0, 2.0, 10.0, 12.0])
    root = CARTRegressor(max_depth=1).fit(X, y).tree_.root
    assert root.category_sets == (frozenset("ac"), frozenset("bd"))
    var = lambda v: np.var(v)  # noqa: E731
    expected = var(y) - (4 * var(y[[0, 1, 4, 5]]) + 4 * var(y[[2, 3, 6, 7]])) / 8
    assert root.gains["k"] == pytest.approx(expected)


def test_a_category_absent_from_the_node_is_routed_as_missing():
    X = pd.DataFrame({"k": pd.Categorical(list("aabb"), categories=list("abc"))})
    model = CARTClassifier().fit(X, np.array(list("nnyy")))
    assert model.tree_.category_sets == (frozenset("a"), frozenset("b"))
    row = pd.DataFrame({"k": pd.Categorical(["c"], categories=list("abc"))})
    np.testing.assert_allclose(model.predict_proba(row), [[0.5, 0.5]])


def test_parameters_are_checked():
    X, y = np.array([[1.0], [2.0]]), np.array([0, 1])
    with pytest.raises(ValueError,
                       match="criterion must be one of \\('gini', 'entropy', 'log_loss'\\)"):
        CARTClassifier(criterion="twoing").fit(X, y)
    with pytest.raises(ValueError, match="ccp_alpha"):
        CARTClassifier(ccp_alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="y contains NaN"):
        CARTRegressor().fit(X, [1.0, np.nan])


@parametrize_with_checks([CARTClassifier(), CARTRegressor(),
                          CARTRegressor(criterion="absolute_error")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("name, settings", [("synthetic, 3 classes", dict(max_depth=4)),
                                            ("breast cancer", dict(min_impurity_decrease=0.01))])
def test_without_ties_the_trees_are_identical(name, settings):
    X, y = CLASSIFICATION[name]()
    X = float32_exact(X)
    ours = CARTClassifier(**settings).fit(X, y)
    theirs = DecisionTreeClassifier(random_state=0, **settings).fit(X, y)
    assert assert_same_tree(ours, theirs) == 0
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


KYPHOSIS = ["Age", "Number", "Start"]


@requires_rpart
def test_kyphosis_tree_and_cptable_as_rpart():
    # rpart's defaults minsplit 20 and minbucket 7 are min_samples_split=20, min_samples_leaf=7;
    # cp = 0 grows the whole tree here (no split leaves the misclassifications as they were,
    # which cp = 0 would snip: see test_kyphosis_surrogates_as_rpart). With cost="error",
    # alpha_i / R(root) is rpart's CP column and the leaves at each step are nsplit + 1.
    data = load_kyphosis()
    X, y = data[KYPHOSIS], data["Kyphosis"]
    fit = rpart("Kyphosis ~ Age + Number + Start", data, control={"cp": 0, "xval": 0})
    model = CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(X, y)
    # the whole tree: every split (attribute, cut, which side is which), every node's rows and
    # class counts, 9 nodes in all; the splits are rpart's: Start >= 8.5, Start >= 14.5,
    # Age < 55, Age >= 111 send left
    assert_same_tree_as_rpart(model.tree_.root, fit, model.classes_, surrogates=False)
    assert fit.splits.loc[fit.splits["role"] == "primary", "left"].tolist() == [
        "Start >= 8.5", "Start >= 14.5", "Age < 55", "Age >= 111"]
    assert len(fit.frame) == sum(1 for _ in model.tree_.walk()) == 9
    path, _ = weakest_links(model.tree_.root, cost="error")
    root_error = 17 / 81  # 17 children with kyphosis present, all called absent
    # rpart lists the subtrees from the root (CP = the alpha at which it is reached, 0 for the
    # full tree): our path read backwards
    np.testing.assert_allclose(path.ccp_alphas[::-1] / root_error,
                               [3 / 17, 1 / 51, 0], atol=1e-12)
    np.testing.assert_allclose(fit.cptable["CP"], [3 / 17, 1 / 51, 0], atol=1e-6)
    assert (path.n_leaves[::-1] - 1).tolist() == fit.cptable["nsplit"].tolist() == [0, 1, 4]


@requires_rpart
@pytest.mark.parametrize("holes", [0, 12])
def test_kyphosis_surrogates_as_rpart(holes):
    # The whole tree as rpart grows it (tests/references.py, rpart_tree_differences): node by
    # node the same primary split (attribute, cut, which side is rpart's left son), the same
    # rows and class counts, the same number of nodes, and the same surrogates, best first,
    # with rpart's agreement and adjusted agreement. holes: values punched out at random, so
    # that rows go down by their surrogates or their node's majority.
    # cp = -1, not 0: with cp = 0 rpart still snips every split whose subtree leaves the
    # misclassifications as they were (partition.c: "complexity <= alpha"); dtree grows them.
    # rpart drops a row whose predictors are all missing (na.rpart): so does the data here.
    data = load_kyphosis()
    rng = np.random.default_rng(7)
    for column in KYPHOSIS:
        data.loc[rng.choice(len(data), holes, replace=False), column] = np.nan
    data = data[data[KYPHOSIS].notna().any(axis=1)].reset_index(drop=True)
    assert len(data) == (81 if holes == 0 else 80)
    fit = rpart("Kyphosis ~ Age + Number + Start", data, control={"cp": -1, "xval": 0})
    model = CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(
        data[KYPHOSIS], data["Kyphosis"])
    assert_same_tree_as_rpart(model.tree_.root, fit, model.classes_)
    assert len(fit.frame) == (9 if holes == 0 else 11)  # rpart: 4 splits, or 5
    assert len(fit.surrogates) >= (5 if holes == 0 else 1)


def test_surrogates_route_missing_values_at_predict():
    # x1 <= 4.5 splits a a a a | b b b b b. x2 agrees except on row 8 (x2 = 5, class b, sent
    # right by x1): the surrogate x2 <= 45 agrees on 8 of 9 rows; the majority rule (right, 5
    # rows) on 5 of 9, so adj = (8/9 - 5/9) / (1 - 5/9) = 0.75
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6, 7, 8, 9],
                      "x2": [10.0, 20, 30, 40, 50, 60, 70, 5, 80]})
    y = np.array(list("aaaabbbbb"))
    model = CARTClassifier(max_depth=1).fit(X, y)
    root = model.tree_.root
    assert (root.feature, root.threshold, root.majority_branch) == ("x1", 4.5, 1)
    [surrogate] = root.surrogates
    assert (surrogate.feature, surrogate.threshold, surrogate.reverse) == ("x2", 45.0, False)
    assert surrogate.agreement == pytest.approx(8 / 9)
    assert surrogate.adjusted_agreement == pytest.approx(0.75)
    rows = pd.DataFrame({"x1": [np.nan, np.nan, np.nan, 2.0], "x2": [30.0, 60.0, np.nan, 90.0]})
    assert model.predict(rows).tolist() == ["a", "b", "b", "a"]  # surrogate, surrogate, majority
    assert export_text(model, show_surrogates=True).splitlines()[:2] == [
        "|    surrogate: x2 <= 45 (agree 0.889, adj 0.750)", "|    otherwise: right"]


def test_fit_routes_rows_missing_the_primary_by_surrogates():
    # the same data with x1 missing on rows 2 (x2 = 20: left) and 6 (x2 = 60: right): each goes
    # down one branch with its whole weight, not split fractionally
    X = pd.DataFrame({"x1": [1.0, np.nan, 3, 4, 5, np.nan, 7, 8, 9],
                      "x2": [10.0, 20, 30, 40, 50, 60, 70, 5, 80]})
    y = np.array(list("aaaabbbbb"))
    root = CARTClassifier(max_depth=1).fit(X, y).tree_.root
    assert [child.weighted_n_samples for child in root.children] == [4, 5]
    assert [child.value.tolist() for child in root.children] == [[4, 0], [0, 5]]


# --- absolute error and median leaves --------------------------------------------------------

def test_absolute_error_by_hand():
    # y = 1, 2, 6, 10, 11, 12 at x = 1..6. Root median 8 (between 6 and 10), deviation
    # 7 + 6 + 2 + 2 + 3 + 4 = 24. The cuts' deviations (left + right): x <= 1.5: 0 + 15;
    # 2.5: 1 + 7; 3.5: 5 + 2 = 7; 4.5: 13 + 1; 5.5: 18 + 0. Best x <= 3.5, decrease 17; the
    # leaves predict the medians 2 and 11 (the means would be 3 and 11)
    X, y = np.arange(1.0, 7.0)[:, None], np.array([1.0, 2, 6, 10, 11, 12])
    model = CARTRegressor(criterion="absolute_error", max_depth=1).fit(X, y)
    root = model.tree_.root
    assert root.threshold == 3.5
    assert root.impurity == pytest.approx(24 / 6)
    assert root.gains["x0"] == pytest.approx(17 / 6)
    assert [c.prediction[0] for c in root.children] == [2.0, 11.0]
    assert model.predict([[0.0], [9.0]]).tolist() == [2.0, 11.0]
    squared = CARTRegressor(max_depth=1).fit(X, y)
    assert [c.prediction[0] for c in squared.tree_.children] == [3.0, 11.0]  # means


@pytest.mark.parametrize("seed", range(4))
def test_running_deviations_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 6, size=25).astype(float)  # ties included
    weights = rng.uniform(0.5, 2.0, size=25)
    running = kernels.running_deviations(values, weights)
    for k in range(1, 26):
        v, w = values[:k], weights[:k]
        best = min((w * np.abs(v - m)).sum() for m in v)  # the minimum is at a data value
        assert running[k - 1] == pytest.approx(best)
        assert kernels.absolute_deviation(v, np.arange(k), w) == pytest.approx(best)


def test_weighted_median():
    assert kernels.weighted_median(np.array([3.0, 1.0, 2.0, 10.0]), np.ones(4)) == 2.5
    assert kernels.weighted_median(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 5.0])) == 3.0
    # equal weights 0.1: half the total, 0.3, is reached at 3 (though 0.1 + 0.1 + 0.1 > 0.3)
    assert kernels.weighted_median(np.arange(1.0, 7.0), np.full(6, 0.1)) == 3.5


def test_the_missing_value_penalty():
    # a is known on two rows only (0 | 1, a perfect split there: Gini decrease 0.5 among them,
    # rho = 2/10); b splits all ten rows 4 + 1 | 1 + 4 (decrease 0.5 - 0.32 = 0.18). With the
    # penalty a scores 0.2 x 0.5 = 0.1 and b wins; without it a scores 0.5 and wins
    X = pd.DataFrame({"a": [1.0] + [np.nan] * 8 + [2.0],
                      "b": [1.0, 1, 1, 1, 2, 2, 2, 2, 2, 1]})
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    on = CARTClassifier(max_depth=1).fit(X, y).tree_.root
    off = CARTClassifier(max_depth=1, missing_penalty=False).fit(X, y).tree_.root
    assert on.feature == "b" and off.feature == "a"
    assert on.scores == pytest.approx({"a": 0.1, "b": 0.18})
    assert off.scores == pytest.approx({"a": 0.5, "b": 0.18})


def test_absolute_error_bipartition_when_a_small_side_is_refused():
    # categories by mean: a (1 row, y 0), b (3 rows, y 1 2 3), c (3 rows, y 10 11 12). With
    # min_samples_leaf=2 the cut {a} | {b, c} is refused, and {a, b} | {c} must still hold a:
    # deviations {0, 1, 2, 3} about 1.5: 4, {10, 11, 12} about 11: 2; the root's about 3: 32
    X = pd.DataFrame({"k": pd.Categorical(list("abbbccc"))})
    y = np.array([0.0, 1, 2, 3, 10, 11, 12])
    root = CARTRegressor(criterion="absolute_error", max_depth=1,
                         min_samples_leaf=2).fit(X, y).tree_
    assert root.category_sets == (frozenset("ab"), frozenset("c"))
    before = np.abs(y - 3).sum()  # median 3
    assert root.gains["k"] == pytest.approx((before - 6) / 7)


def test_absolute_error_bipartition_beyond_the_order_by_mean():
    # a holds six -3, a 0 and a 20; b a -3; c a 0. Root: median -3, deviation 3 + 3 + 23 = 29.
    # Along the order by mean (b -3, c 0, a 0.25) the cuts give {b} | {a, c}: 0 + 29 and
    # {b, c} | {a}: 3 + 26, no decrease; but {c} | {a, b}: 0 + (3 + 23) = 26, a decrease of 3
    X = pd.DataFrame({"f": pd.Categorical(["a"] * 8 + ["b", "c"])})
    y = np.array([-3.0] * 6 + [0, 20, -3, 0])
    root = CARTRegressor(criterion="absolute_error", max_depth=1).fit(X, y).tree_.root
    assert root.impurity == pytest.approx(29 / 10)
    assert root.category_sets == (frozenset("ab"), frozenset("c"))
    assert root.gains["f"] == pytest.approx((29 - 26) / 10)


def brute_force_absolute_error(codes, y, w, min_leaf):
    """The largest decrease of sum w |y - median| over all bipartitions of the present codes
    with ``min_leaf`` rows a side (None if none), and the left sets that reach it."""
    def deviation(mask):  # the minimum over m of sum w |y - m| is at a data value
        return min((w[mask] * np.abs(y[mask] - m)).sum() for m in y[mask])
    present = sorted(set(codes))
    before = deviation(np.ones(len(y), bool))
    decreases = {}
    for r in range(1, len(present)):
        for left in itertools.combinations(present[:-1], r):  # the last code stays right
            mask = np.isin(codes, left)
            if min(mask.sum(), (~mask).sum()) >= min_leaf:
                decreases[left] = before - deviation(mask) - deviation(~mask)
    if not decreases:
        return None, []
    best = max(decreases.values())
    return best, [set(left) for left, d in decreases.items() if d >= best - 1e-9]


@pytest.mark.parametrize("seed", range(40))
def test_absolute_error_bipartition_is_the_best_of_all(seed):
    rng = np.random.default_rng(seed)
    n, n_codes, min_leaf = rng.integers(4, 16), rng.integers(2, 7), rng.integers(1, 4)
    codes = rng.integers(0, n_codes, size=n)
    y = rng.integers(-5, 6, size=n) * rng.choice([1.0, 10.0], size=n)  # ties and outliers
    w = rng.choice([0.5, 1.0, 2.0, 3.0], size=n)
    categories = [f"c{i}" for i in range(n_codes)]
    X = pd.DataFrame({"k": pd.Categorical.from_codes(codes, categories)})
    root = CARTRegressor(criterion="absolute_error", max_depth=1, min_samples_leaf=min_leaf,
                         min_samples_split=2).fit(X, y, sample_weight=w).tree_
    best, lefts = brute_force_absolute_error(codes, y, w, min_leaf)
    if best is None:
        assert root.is_leaf
        return
    assert root.gains["k"] * w.sum() == pytest.approx(best, abs=1e-9)
    if not root.is_leaf:
        chosen = [{categories.index(c) for c in side} for side in root.category_sets]
        assert chosen[0] in lefts or chosen[1] in lefts


def test_absolute_error_bipartition_of_many_categories_cuts_along_the_medians():
    # 14 categories (more than MAX_EXHAUSTIVE_CATEGORIES): only the cuts along the order of the
    # categories' medians. Category i holds i - 1 - (i mod 3), i and i + 1 (odd i) or i + 30
    # (even i): median i, but the means put the odd categories first. The best of the 13 cuts
    # along the median order, by brute force here, is unique
    n_codes = 14
    assert n_codes > kernels.MAX_EXHAUSTIVE_CATEGORIES
    codes = np.repeat(np.arange(n_codes), 3)
    low, high = -1.0 - codes % 3, np.where(codes % 2 == 0, 30.0, 1.0)
    y = codes + np.where(np.tile([True, False, False], n_codes), low, 0.0) + np.where(
        np.tile([False, False, True], n_codes), high, 0.0)
    deviation = lambda v: np.abs(v - np.median(v)).sum()  # noqa: E731
    cuts = [deviation(y[codes < t]) + deviation(y[codes >= t]) for t in range(1, n_codes)]
    t = int(np.argmin(cuts)) + 1
    assert sorted(cuts)[1] > min(cuts)
    categories = [f"c{i:02d}" for i in range(n_codes)]
    X = pd.DataFrame({"k": pd.Categorical.from_codes(codes, categories)})
    root = CARTRegressor(criterion="absolute_error", max_depth=1).fit(X, y).tree_.root
    assert root.gains["k"] * len(y) == pytest.approx(deviation(y) - min(cuts))
    assert root.category_sets == (frozenset(categories[:t]), frozenset(categories[t:]))

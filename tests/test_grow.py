"""The grower through ID3Classifier: Zhou's fig. 4.4, ties, stopping rules, weights, missing."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from handcalc import H, gain

from dtree import ID3Classifier, Node
from dtree.datasets import ZH_EN, load_watermelon
from dtree.grow import STOP_REASONS

TOL = 1e-12


def describe(node: Node, classes) -> object:
    """A leaf as its predicted class; a node as (feature, {category: subtree})."""
    if node.is_leaf:
        return classes[int(np.argmax(node.prediction))]
    return (node.feature, {next(iter(s)): describe(child, classes)
                           for s, child in zip(node.category_sets, node.children)})


def find(node: Node, *path: str) -> Node:
    """The node reached by following the branches whose category is each name in path."""
    for category in path:
        node = next(c for s, c in zip(node.category_sets, node.children) if category in s)
    return node


# Zhou (2016), fig. 4.4: the ID3 tree of watermelon 2.0
ZHOU_FIG_4_4 = ("texture", {
    "clear": ("root", {
        "curly": "yes",
        "slightly curly": ("colour", {
            "green": "yes",
            "dark": ("touch", {"hard": "yes", "soft": "no"}),
            "light": "yes",  # empty branch: the parent's majority (2 ripe : 1)
        }),
        "straight": "no",
    }),
    "slightly blurry": ("touch", {"hard": "no", "soft": "yes"}),
    "blurry": "no",
})


@pytest.fixture
def zhou_tree(wm20):
    X, y = wm20
    return ID3Classifier().fit(X, y)


# ------------------------------------------------------------------------------ fig. 4.4
def test_watermelon_tree_is_zhou_fig_4_4(zhou_tree):
    assert describe(zhou_tree.tree_.root, zhou_tree.classes_) == ZHOU_FIG_4_4


def test_watermelon_tree_size(zhou_tree):
    # fig. 4.4: 5 tests (texture, root, colour, touch, touch), 9 leaves, 4 tests on the longest path
    assert zhou_tree.get_depth() == 4
    assert zhou_tree.get_n_leaves() == 9
    assert sum(1 for n in zhou_tree.tree_.walk() if not n.is_leaf) == 5


def test_root_scores_are_the_root_gains(zhou_tree):
    root = zhou_tree.tree_.root
    assert root.feature == "texture"
    assert root.score == pytest.approx(gain([(7, 2), (1, 4), (0, 3)]), abs=TOL)
    assert root.scores["touch"] == pytest.approx(gain([(6, 6), (2, 3)]), abs=TOL)
    assert set(root.scores) == {"colour", "root", "sound", "texture", "navel", "touch"}
    assert root.ties == ()


def test_ties_are_recorded_at_the_two_tie_nodes(zhou_tree):
    root = zhou_tree.tree_.root
    clear = find(root, "clear")
    # root, navel and touch all give H(7,2) - 3/9 H(2,1) at the clear node (Zhou p. 78)
    assert clear.ties == ("root", "navel", "touch")
    assert clear.score == pytest.approx(H(7, 2) - 3 / 9 * H(2, 1), abs=TOL)
    curly_ish = find(root, "clear", "slightly curly")
    # melons 6 (green, soft, ripe), 8 (dark, hard, ripe), 15 (dark, soft, not)
    assert curly_ish.ties == ("colour", "touch")
    assert curly_ish.score == pytest.approx(H(2, 1) - 2 / 3 * H(1, 1), abs=TOL)
    tied_nodes = [n for n in root.walk() if n.ties]
    assert len(tied_nodes) == 2


def test_tie_break_list_changes_the_choice(wm20):
    X, y = wm20
    model = ID3Classifier(tie_break=["touch"]).fit(X, y)
    clear = find(model.tree_.root, "clear")
    assert clear.feature == "touch"
    assert clear.ties == ("root", "navel", "touch")  # still recorded in column order
    # hard: melons 1-5 and 8, all ripe; soft: 6 ripe, 10 and 15 not
    assert find(clear, "hard").is_leaf
    assert find(clear, "soft").value.tolist() == [2, 1]  # classes_ = [no, yes]


def test_tie_break_second_preference_used_when_first_is_gone(wm20):
    X, y = wm20
    model = ID3Classifier(tie_break=["navel", "touch"]).fit(X, y)
    clear = find(model.tree_.root, "clear")
    assert clear.feature == "navel"
    # slightly hollow: melons 6, 8, 15 again tie colour against touch; touch is preferred
    node = find(clear, "slightly hollow")
    assert node.ties == ("colour", "touch")
    assert node.feature == "touch"


def test_tie_break_first_is_column_order(wm20):
    X, y = wm20
    reordered = X[["touch", "navel", "root", "colour", "sound", "texture"]]
    model = ID3Classifier().fit(reordered, y)
    assert find(model.tree_.root, "clear").feature == "touch"


def test_leaf_stop_reasons_of_fig_4_4(zhou_tree):
    reasons = [leaf.stop_reason for leaf in zhou_tree.tree_.leaves()]
    assert reasons.count("empty") == 1 and reasons.count("pure") == 8
    light = find(zhou_tree.tree_.root, "clear", "slightly curly", "light")
    assert light.stop_reason == "empty"
    assert light.n_samples == 0 and light.weighted_n_samples == 0
    # the empty branch predicts like its parent: 2 ripe of 3
    assert light.prediction.tolist() == pytest.approx([1 / 3, 2 / 3])
    assert all(n.stop_reason is None for n in zhou_tree.tree_.walk() if not n.is_leaf)
    assert set(reasons) <= set(STOP_REASONS)


def test_node_bookkeeping(zhou_tree):
    root = zhou_tree.tree_.root
    assert root.n_samples == 17 and root.weighted_n_samples == 17
    assert root.value.tolist() == [9, 8]
    assert root.impurity == pytest.approx(H(9, 8), abs=TOL)
    assert root.branch_fractions.tolist() == pytest.approx([9 / 17, 5 / 17, 3 / 17])
    assert [c.n_samples for c in root.children] == [9, 5, 3]
    assert [c.depth for c in root.children] == [1, 1, 1]
    assert root.branch_labels() == ["= clear", "= slightly blurry", "= blurry"]


def test_node_walk_leaves_height(zhou_tree):
    root = zhou_tree.tree_.root
    nodes = list(root.walk())
    assert len(nodes) == 14
    assert nodes[0] is root and nodes[1] is root.children[0]  # pre-order
    assert [n.feature for n in nodes if not n.is_leaf] == [
        "texture", "root", "colour", "touch", "touch"]
    assert root.height() == 4
    assert find(root, "slightly blurry").height() == 1
    assert len(root.leaves()) == 9
    assert "leaf" in repr(root.leaves()[0]) and "texture" in repr(root)


def test_node_branch_labels_threshold_and_sets():
    leaf = Node(value=np.array([1.0]), prediction=np.array([1.0]), n_samples=1,
                weighted_n_samples=1.0, impurity=0.0, depth=1)
    numeric = Node(value=np.array([2.0]), prediction=np.array([1.0]), n_samples=2,
                   weighted_n_samples=2.0, impurity=0.0, depth=0, feature="density",
                   threshold=0.3815, children=[leaf, leaf])
    assert numeric.branch_labels() == ["<= 0.3815", "> 0.3815"]
    sets = Node(value=np.array([2.0]), prediction=np.array([1.0]), n_samples=2,
                weighted_n_samples=2.0, impurity=0.0, depth=0, feature="colour",
                category_sets=(frozenset({"light", "dark"}), frozenset({"green"})),
                children=[leaf, leaf])
    assert sets.branch_labels() == ["in {dark, light}", "= green"]


# ------------------------------------------------------------------------------ stopping rules
def test_max_depth_zero_is_a_single_leaf(wm20):
    X, y = wm20
    model = ID3Classifier(max_depth=0).fit(X, y)
    assert model.tree_.is_leaf and model.tree_.stop_reason == "max_depth"
    assert model.get_depth() == 0 and model.get_n_leaves() == 1
    assert (model.predict(X) == "no").all()  # 9 not ripe : 8 ripe


def test_max_depth_one(wm20):
    X, y = wm20
    model = ID3Classifier(max_depth=1).fit(X, y)
    assert model.get_depth() == 1
    assert [c.stop_reason for c in model.tree_.children] == ["max_depth", "max_depth", "pure"]
    assert ID3Classifier(max_depth=2).fit(X, y).get_depth() == 2
    assert ID3Classifier(max_depth=10).fit(X, y).get_depth() == 4


def test_min_samples_split(wm20):
    X, y = wm20
    model = ID3Classifier(min_samples_split=6).fit(X, y)
    root = model.tree_.root
    clear = find(root, "clear")  # 9 rows: still split
    assert clear.feature == "root"
    assert find(clear, "slightly curly").stop_reason == "min_samples_split"  # 3 rows
    assert find(root, "slightly blurry").stop_reason == "min_samples_split"  # 5 rows
    assert ID3Classifier(min_samples_split=18).fit(X, y).tree_.stop_reason == "min_samples_split"
    assert not ID3Classifier(min_samples_split=17).fit(X, y).tree_.is_leaf


def test_min_impurity_decrease(wm20):
    X, y = wm20
    # root gain 0.381 >= 0.3; the (clear, slightly curly) node's best gain
    # H(2,1) - 2/3 H(1,1) = 0.252 < 0.3
    model = ID3Classifier(min_impurity_decrease=0.3).fit(X, y)
    node = find(model.tree_.root, "clear", "slightly curly")
    assert node.is_leaf and node.stop_reason == "min_impurity_decrease"
    assert node.scores["colour"] == pytest.approx(H(2, 1) - 2 / 3 * H(1, 1), abs=TOL)
    assert find(model.tree_.root, "slightly blurry").feature == "touch"  # gain H(1,4) = 0.722
    # a threshold just above the root's gain makes the root a leaf
    root_gain = gain([(7, 2), (1, 4), (0, 3)])
    stump = ID3Classifier(min_impurity_decrease=root_gain + 1e-6).fit(X, y)
    assert stump.tree_.stop_reason == "min_impurity_decrease"
    assert not ID3Classifier(min_impurity_decrease=root_gain - 1e-6).fit(X, y).tree_.is_leaf


def test_purity_threshold(wm20):
    X, y = wm20
    # clear: 7 of 9 ripe (0.78); slightly blurry: 4 of 5 not (0.8); root: 9 of 17 (0.53)
    model = ID3Classifier(purity_threshold=0.75).fit(X, y)
    assert [c.stop_reason for c in model.tree_.children] == [
        "purity_threshold", "purity_threshold", "pure"]
    model = ID3Classifier(purity_threshold=0.8).fit(X, y)
    assert find(model.tree_.root, "clear").feature == "root"  # 7/9 < 0.8
    assert find(model.tree_.root, "slightly blurry").stop_reason == "purity_threshold"  # 4/5 >= 0.8


def test_no_attributes_left():
    X = pd.DataFrame({"x": ["a", "a", "b"]})
    model = ID3Classifier().fit(X, ["yes", "no", "no"])
    assert model.tree_.root.feature == "x"
    assert [c.stop_reason for c in model.tree_.children] == ["no_attributes", "pure"]
    # the conflicted leaf holds one row of each class; the tie goes to the first class
    assert model.tree_.children[0].value.tolist() == [1, 1]


def test_identical_rows_cannot_be_split():
    X = pd.DataFrame({"a": ["p", "p", "p"], "b": ["q", "q", "q"]})
    model = ID3Classifier().fit(X, ["yes", "no", "yes"])
    assert model.tree_.is_leaf and model.tree_.stop_reason == "no_split"
    assert model.tree_.scores == {}
    assert model.predict(X).tolist() == ["yes"] * 3


def test_pure_root():
    model = ID3Classifier().fit(pd.DataFrame({"a": ["p", "q"]}), ["yes", "yes"])
    assert model.tree_.is_leaf and model.tree_.stop_reason == "pure"


def test_empty_branch_from_unused_category():
    X = pd.DataFrame({"a": pd.Categorical(["p", "q", "q"], categories=["p", "q", "r"])})
    model = ID3Classifier().fit(X, ["yes", "no", "no"])
    empty = model.tree_.children[2]
    assert empty.stop_reason == "empty"
    # the parent's prediction: 2 no : 1 yes
    assert empty.prediction.tolist() == pytest.approx([2 / 3, 1 / 3])
    assert model.tree_.branch_fractions.tolist() == pytest.approx([1 / 3, 2 / 3, 0])


def test_attribute_used_at_most_once_per_path(zhou_tree):
    def check(node, used):
        assert node.feature not in used
        for child in node.children:
            check(child, used | {node.feature})
    check(zhou_tree.tree_.root, set())


# ------------------------------------------------------------------------------------ weights
def assert_same_tree(a: Node, b: Node, *, counts=True):
    """Same tests, same branches, same weighted class counts, node by node."""
    assert a.feature == b.feature
    assert a.category_sets == b.category_sets
    assert a.stop_reason == b.stop_reason
    assert a.ties == b.ties
    assert a.weighted_n_samples == pytest.approx(b.weighted_n_samples, abs=1e-9)
    assert a.value == pytest.approx(b.value, abs=1e-9)
    assert a.prediction == pytest.approx(b.prediction, abs=1e-9)
    if counts:
        assert a.n_samples == b.n_samples
    assert len(a.children) == len(b.children)
    for ca, cb in zip(a.children, b.children):
        assert_same_tree(ca, cb, counts=counts)


@pytest.mark.parametrize("version", ["2.0", "2.0alpha"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integer_weights_equal_repeated_rows(version, seed):
    X, y = load_watermelon(version, return_X_y=True)
    w = np.random.default_rng(seed).integers(1, 4, len(y))
    weighted = ID3Classifier(missing="fractional").fit(X, y, sample_weight=w)
    repeated = ID3Classifier(missing="fractional").fit(X.loc[X.index.repeat(w)],
                                                       y.loc[y.index.repeat(w)])
    assert_same_tree(weighted.tree_.root, repeated.tree_.root, counts=False)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-12)
    assert weighted.tree_.weighted_n_samples == w.sum()
    assert weighted.tree_.n_samples == 17 and repeated.tree_.n_samples == w.sum()


def test_zero_weights_equal_dropped_rows(wm20):
    X, y = wm20
    w = np.ones(17)
    w[[0, 5, 9, 13]] = 0  # melons 1, 6, 10, 14
    weighted = ID3Classifier().fit(X, y, sample_weight=w)
    dropped = ID3Classifier().fit(X[w > 0], y[w > 0])
    assert_same_tree(weighted.tree_.root, dropped.tree_.root, counts=False)
    np.testing.assert_allclose(weighted.predict_proba(X), dropped.predict_proba(X), atol=1e-12)


def test_weights_scaled_by_a_constant_change_nothing(wm20a):
    X, y = wm20a
    w = np.random.default_rng(5).uniform(0.5, 2, 17)
    a = ID3Classifier(missing="fractional").fit(X, y, sample_weight=w)
    b = ID3Classifier(missing="fractional").fit(X, y, sample_weight=w * 7.5)
    assert describe(a.tree_.root, a.classes_) == describe(b.tree_.root, b.classes_)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)


# ---------------------------------------------------------------------- missing values at fit
def test_missing_values_at_fit_route_fractional_weights(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    root = model.tree_.root
    assert root.feature == "texture"
    # texture known for 15 melons: clear 7, slightly blurry 5, blurry 3; melons 8 and 10 (missing
    # texture) go down all three branches with weights 7/15, 5/15, 3/15 (Zhou p. 88)
    assert root.branch_fractions.tolist() == pytest.approx([7 / 15, 5 / 15, 3 / 15])
    assert [c.n_samples for c in root.children] == [9, 7, 5]
    assert [c.weighted_n_samples for c in root.children] == pytest.approx(
        [7 + 2 * 7 / 15, 5 + 2 * 5 / 15, 3 + 2 * 3 / 15])
    # melon 8 is ripe, melon 10 is not: classes_ = [no, yes]
    clear = root.children[0]
    assert clear.value.tolist() == pytest.approx([1 + 7 / 15, 6 + 7 / 15])


def test_fractional_counts_sum_to_the_node_weight(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    internal = [n for n in model.tree_.walk() if not n.is_leaf]
    assert internal
    for node in internal:
        total = sum(child.value for child in node.children)
        np.testing.assert_allclose(total, node.value, atol=1e-12)
        assert sum(c.weighted_n_samples for c in node.children) == pytest.approx(
            node.weighted_n_samples, abs=1e-12)
        assert node.branch_fractions.sum() == pytest.approx(1.0, abs=1e-12)
    assert sum(leaf.weighted_n_samples for leaf in model.tree_.leaves()) == pytest.approx(17)
    fractional = [leaf for leaf in model.tree_.leaves()
                  if not float(leaf.weighted_n_samples).is_integer()]
    assert fractional  # some leaves really do hold parts of melons


def test_alpha_root_gain_matches_zhou(wm20a):
    X, y = wm20a
    root = ID3Classifier(missing="fractional").fit(X, y).tree_
    assert root.score == pytest.approx(15 / 17 * gain([(6, 1), (1, 4), (0, 3)]), abs=TOL)
    assert round(root.scores["colour"], 3) == 0.252


# ------------------------------------------------------------------------------------ Chinese
def test_chinese_data_gives_the_same_tree(wm20):
    X, y = wm20
    Xz, yz = load_watermelon(lang="zh", return_X_y=True)
    en = ID3Classifier().fit(X, y)
    zh = ID3Classifier().fit(Xz, yz)
    assert list(zh.classes_) == ["否", "是"]  # sorted: U+5426 < U+662F

    def translate(tree):
        if isinstance(tree, str):
            return ZH_EN[tree]
        feature, branches = tree
        return ZH_EN[feature], {ZH_EN[k]: translate(v) for k, v in branches.items()}

    assert translate(describe(zh.tree_.root, zh.classes_)) == ZHOU_FIG_4_4
    for a, b in zip(en.tree_.walk(), zh.tree_.walk()):
        assert a.value.tolist() == b.value.tolist()
        assert a.stop_reason == b.stop_reason
        assert tuple(ZH_EN[t] for t in b.ties) == a.ties
    assert find(zh.tree_.root, "清晰").ties == ("根蒂", "脐部", "触感")
    assert (zh.predict(Xz) == np.where(en.predict(X) == "yes", "是", "否")).all()


def test_chinese_tie_break(wm20):
    Xz, yz = load_watermelon(lang="zh", return_X_y=True)
    model = ID3Classifier(tie_break=["触感"]).fit(Xz, yz)
    assert find(model.tree_.root, "清晰").feature == "触感"


def test_classes_are_sorted():
    X = pd.DataFrame({"a": ["p", "q", "r", "p"]})
    model = ID3Classifier().fit(X, ["yes", "maybe", "no", "yes"])
    assert model.classes_.tolist() == ["maybe", "no", "yes"]
    proba = model.predict_proba(pd.DataFrame({"a": ["q"]}))
    assert proba.tolist() == [[1.0, 0.0, 0.0]]  # column order follows classes_


def test_mushroom_training_accuracy_is_one():
    from dtree.datasets import load_mushroom
    X, y = load_mushroom(return_X_y=True)
    model = ID3Classifier(missing="fractional").fit(X, y)
    assert model.tree_.root.feature == "odor"
    assert model.score(X, y) == 1.0
    # odour alone misclassifies only the 120 poisonous mushrooms without odour (3,408 edible)
    stump = ID3Classifier(max_depth=1, missing="fractional").fit(X, y)
    assert stump.score(X, y) == pytest.approx(1 - 120 / 8124, abs=TOL)

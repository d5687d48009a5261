"""C4.5 (textbook variant): gain ratio, the above-average gain filter, thresholds, min_samples_leaf,
fractional weights. Expected values are arithmetic on counts (tests/handcalc.py)."""
from __future__ import annotations

from math import log2
from unittest import SkipTest

import numpy as np
import pandas as pd
import pytest
from handcalc import WM20_COUNTS, H, brute_force, gain
from sklearn.utils.estimator_checks import parametrize_with_checks

from dtree import C45Classifier, ID3Classifier, Node
from dtree._validation import fit_features
from dtree.datasets import load_watermelon
from dtree.grow import STOP_REASONS, SplitRules, StoppingRules, grow

TOL = 1e-12

# watermelon 2.0 with its id column: every melon its own branch
WM20_BRANCHES = {**WM20_COUNTS, "id": [(1, 0)] * 8 + [(0, 1)] * 9}


def iv(branches) -> float:
    return H(*(sum(b) for b in branches))


def describe(node: Node, classes) -> object:
    """A leaf as its predicted class; a node as (feature, threshold or None, [subtrees])."""
    if node.is_leaf:
        return classes[int(np.argmax(node.prediction))]
    return (node.feature, node.threshold, [describe(c, classes) for c in node.children])


def numeric_tree(x, y, **params):
    return C45Classifier(**params).fit(pd.DataFrame({"x": x}), y)


# ------------------------------------------------------------------ gain ratio and the filter
def test_intrinsic_values_of_seed_002():
    assert round(iv(WM20_BRANCHES["touch"]), 3) == 0.874  # H(12, 5)
    assert round(iv(WM20_BRANCHES["colour"]), 3) == 1.580  # H(6, 6, 5)
    assert round(iv(WM20_BRANCHES["id"]), 3) == 4.087  # log2 17 (seed 002 writes 4.088)


def test_root_gain_ratios_on_watermelon_20_with_the_id_column(wm20):
    X, y = wm20
    X = X.assign(id=X.index.astype(str))
    root = C45Classifier().fit(X, y).tree_
    gains = {a: gain(b) for a, b in WM20_BRANCHES.items()}
    assert gains["id"] == pytest.approx(H(8, 9), abs=TOL)
    assert root.gains == pytest.approx(gains, abs=TOL)
    assert root.scores == pytest.approx({a: gains[a] / iv(b) for a, b in WM20_BRANCHES.items()},
                                        abs=TOL)
    # the average gain of the 7 candidates is 2.067 / 7 = 0.295: only texture (0.381) and id
    # (0.998) are above it; id's ratio 0.998 / 4.087 = 0.244 < texture's 0.381 / H(9,5,3) = 0.263
    average = sum(gains.values()) / 7
    assert {a for a, g in gains.items() if g >= average} == {"texture", "id"}
    assert root.shortlist == ("texture", "id")  # column order
    assert gains["texture"] / iv(WM20_BRANCHES["texture"]) > H(8, 9) / log2(17)
    assert root.feature == "texture"
    assert root.score == pytest.approx(gains["texture"] / H(9, 5, 3), abs=TOL)
    # without the filter every attribute competes; texture still has the highest ratio
    unfiltered = C45Classifier(gain_filter=None).fit(X, y).tree_
    assert unfiltered.feature == "texture" and unfiltered.shortlist == ()
    assert max(root.scores, key=root.scores.get) == "texture"


def test_the_filter_keeps_a_tiny_split_out():
    # 20 rows, 10 a and 10 b. "rare" sets one row (an a) apart: gain 1 - 19/20 H(9,10) = 0.052,
    # IV H(1,19) = 0.286, ratio 0.181. "good" splits 7a 3b | 3a 7b: gain 1 - H(7,3) = 0.119,
    # IV 1, ratio 0.119. The average gain 0.086 keeps "rare" out.
    rare = ["r"] + ["c"] * 19
    good = ["g1"] * 10 + ["g2"] * 10
    y = ["a"] * 7 + ["b"] * 3 + ["a"] * 3 + ["b"] * 7
    X = pd.DataFrame({"rare": rare, "good": good})
    g_rare, g_good = 1 - 19 / 20 * H(9, 10), 1 - H(7, 3)
    assert g_rare / H(1, 19) > g_good / 1 and g_good > (g_rare + g_good) / 2 > g_rare
    with_filter = C45Classifier(max_depth=1).fit(X, y).tree_
    assert with_filter.feature == "good" and with_filter.shortlist == ("good",)
    assert with_filter.scores == pytest.approx({"rare": g_rare / H(1, 19), "good": g_good},
                                               abs=TOL)
    without = C45Classifier(max_depth=1, gain_filter=None).fit(X, y).tree_
    assert without.feature == "rare"
    assert without.score == pytest.approx(g_rare / H(1, 19), abs=TOL)


def test_a_gain_equal_to_the_average_passes():
    # two attributes with the same gain: both equal the average, both compete; a tie on the
    # gain ratio too, broken by column order
    X = pd.DataFrame({"a": ["p", "p", "q", "q"], "b": ["r", "r", "s", "s"]})
    root = C45Classifier().fit(X, ["x", "x", "y", "y"]).tree_
    assert root.shortlist == ("a", "b") and root.ties == ("a", "b") and root.feature == "a"


# ------------------------------------------------------------------ thresholds
def test_watermelon_30_root_thresholds():
    X, y = load_watermelon("3.0", return_X_y=True)
    root = C45Classifier().fit(X, y).tree_
    # density <= 0.3815 (melons 10, 11, 12, 15, all unripe) | 8 ripe, 5 unripe (Zhou p. 85)
    density = H(8, 9) - 4 / 17 * H(0, 4) - 13 / 17 * H(8, 5)
    # sugar <= 0.126 (melons 9, 11, 12, 16, 17, all unripe) | 8 ripe, 4 unripe
    sugar = H(8, 9) - 5 / 17 * H(0, 5) - 12 / 17 * H(8, 4)
    assert (round(density, 3), round(sugar, 3)) == (0.262, 0.349)  # Zhou's values
    assert root.gains["density"] == pytest.approx(density, abs=TOL)
    assert root.gains["sugar"] == pytest.approx(sugar, abs=TOL)
    for column in ("density", "sugar"):  # the cut of highest gain, by brute force
        *_, best_gain = brute_force(X[column].tolist(), y.tolist(), "info_gain")
        assert root.gains[column] == pytest.approx(best_gain, abs=1e-9)
    # gains: colour .108, root .143, sound .141, texture .381, navel .289, touch .006,
    # density .262, sugar .349; average 0.210
    gains = {a: gain(b) for a, b in WM20_BRANCHES.items() if a != "id"}
    gains.update(density=density, sugar=sugar)
    average = sum(gains.values()) / len(gains)
    assert root.shortlist == tuple(a for a in gains if gains[a] >= average) == (
        "texture", "navel", "density", "sugar")
    ratios = {"texture": gains["texture"] / H(9, 5, 3), "navel": gains["navel"] / H(7, 6, 4),
              "density": density / H(4, 13), "sugar": sugar / H(5, 12)}
    assert root.scores == pytest.approx(
        {**{a: gains[a] / iv(WM20_BRANCHES[a]) for a in gains if a in WM20_BRANCHES},
         "density": ratios["density"], "sugar": ratios["sugar"]}, abs=TOL)
    assert max(ratios, key=ratios.get) == "sugar" and root.feature == "sugar"
    assert root.threshold == pytest.approx((0.103 + 0.149) / 2, abs=TOL)
    assert root.branch_labels() == ["<= 0.126", "> 0.126"]
    assert [c.n_samples for c in root.children] == [5, 12]


def test_zhou_fig_4_8_information_gain_with_thresholds():
    # Zhou's fig. 4.8: information gain, numeric attributes split at thresholds
    X, y = load_watermelon("3.0", return_X_y=True)
    features, matrix = fit_features(list(X.columns), [X[c] for c in X.columns])
    codes = (y == "yes").to_numpy().astype(int)  # 0 = no, 1 = yes
    root = grow(matrix, features, codes, 2, np.ones(17), SplitRules("info_gain"),
                StoppingRules(), np.arange(8))
    classes = ["no", "yes"]
    clear, slightly_blurry, blurry = root.children
    assert root.feature == "texture"
    assert describe(clear, classes) == ("density", pytest.approx(0.3815), ["no", "yes"])
    # clear: 7 ripe, 2 not (melons 10, 15, the two lightest): gain H(7, 2)
    assert clear.score == pytest.approx(H(7, 2), abs=TOL)
    # slightly blurry: melon 7 (ripe) is the only soft one and the lightest: touch and density
    # (cut 0.56) both give H(1, 4); column order picks touch, as Zhou's figure
    assert describe(slightly_blurry, classes) == ("touch", None, ["no", "yes"])
    assert slightly_blurry.ties == ("touch", "density")
    assert slightly_blurry.scores["density"] == pytest.approx(H(1, 4), abs=TOL)
    assert describe(blurry, classes) == "no"


def test_a_numeric_attribute_splits_twice_on_one_path():
    # y = a a b b a a: cuts 1.5..5.5 gain 0.109, 0.252, 0, 0.252, 0.109; the tie 2.5 / 4.5 goes
    # to the smallest threshold; below it x again splits b b | a a at 4.5
    x, y = [1, 2, 3, 4, 5, 6], ["a", "a", "b", "b", "a", "a"]
    model = numeric_tree(x, y)
    root = model.tree_.root
    assert root.threshold == 2.5
    assert root.gains["x"] == pytest.approx(H(4, 2) - 4 / 6 * H(2, 2), abs=TOL)
    assert root.score == pytest.approx(root.gains["x"] / H(2, 4), abs=TOL)  # IV: 2 | 4 rows
    assert describe(root, model.classes_) == ("x", 2.5, ["a", ("x", 4.5, ["b", "a"])])
    assert root.children[1].score == pytest.approx(1 / H(2, 2), abs=TOL)
    assert model.predict(pd.DataFrame({"x": x})).tolist() == y


def test_numeric_and_categorical_together_predict_the_training_data():
    X, y = load_watermelon("3.0", return_X_y=True)
    model = C45Classifier().fit(X, y)
    assert model.score(X, y) == 1.0
    assert {leaf.stop_reason for leaf in model.tree_.leaves()} <= {"pure", "empty"}
    for node in model.tree_.walk():
        if node.category_sets is not None:  # a categorical attribute is used up below itself
            assert node.feature not in [d.feature for d in node.walk() if d is not node]


# ------------------------------------------------------------------ min_samples_leaf
def test_min_samples_leaf_restricts_the_cuts():
    x, y = [1, 2, 3, 4, 5, 6], ["b", "a", "a", "a", "a", "a"]
    assert numeric_tree(x, y).tree_.root.threshold == 1.5  # gain H(5, 1): both sides pure
    model = numeric_tree(x, y, min_samples_leaf=2)
    root = model.tree_.root
    # allowed cuts 2.5, 3.5, 4.5 gain H(5,1) - 2/6 H(1,1), - 3/6 H(2,1), - 4/6 H(3,1)
    assert root.threshold == 2.5
    assert root.gains["x"] == pytest.approx(H(5, 1) - 2 / 6 * H(1, 1), abs=TOL)
    left, right = root.children
    assert (left.n_samples, right.n_samples) == (2, 4)
    assert left.stop_reason == "min_samples_leaf"  # 1 | 1 would be the only cut
    assert left.gains == {} and right.stop_reason == "pure"
    assert numeric_tree(x, y, min_samples_leaf=3).tree_.root.threshold == 3.5  # the only cut left
    stump = numeric_tree(x, y, min_samples_leaf=4).tree_
    assert stump.is_leaf and stump.stop_reason == "min_samples_leaf"
    assert "min_samples_leaf" in STOP_REASONS


def test_min_samples_leaf_blocks_a_multiway_split():
    X = pd.DataFrame({"c": ["p", "p", "p", "q", "q", "r"], "d": ["u", "u", "u", "v", "v", "v"]})
    y = ["a", "a", "a", "b", "b", "a"]
    # c: every branch pure, gain H(4,2), IV H(3,2,1); d: gain H(4,2) - 1/2 H(2,1), IV 1
    root = C45Classifier().fit(X, y).tree_
    assert root.feature == "c"
    assert root.scores == pytest.approx({"c": H(4, 2) / H(3, 2, 1),
                                         "d": (H(4, 2) - H(2, 1) / 2) / 1}, abs=TOL)
    # with min_samples_leaf=2 the branch r (one row) rules c out
    model = C45Classifier(min_samples_leaf=2).fit(X, y)
    assert model.tree_.root.feature == "d" and set(model.tree_.scores) == {"d"}
    v = model.tree_.children[1]  # rows q, q, r: b, b, a; c would leave r alone
    assert v.stop_reason == "min_samples_leaf"


def test_min_samples_leaf_counts_rows_with_missing_values_in_both_branches():
    # x = 1 2 3 4 ?, y = a a b b a: cut 2.5 gives each branch 2 rows + the missing one
    X = pd.DataFrame({"x": [1, 2, 3, 4, np.nan]})
    y = ["a", "a", "b", "b", "a"]
    root = C45Classifier(min_samples_leaf=3).fit(X, y).tree_
    assert root.threshold == 2.5
    # rho = 4/5, gain = 4/5 (H(2,2) - 0), IV = H(2, 2, 1) (the missing row its own group)
    assert root.gains["x"] == pytest.approx(4 / 5 * H(2, 2), abs=TOL)
    assert root.score == pytest.approx(4 / 5 * H(2, 2) / H(2, 2, 1), abs=TOL)
    assert [c.weighted_n_samples for c in root.children] == pytest.approx([2.5, 2.5])
    assert [c.n_samples for c in root.children] == [3, 3]
    assert C45Classifier(min_samples_leaf=4).fit(X, y).tree_.stop_reason == "min_samples_leaf"


@pytest.mark.parametrize("version", ["2.0alpha", "3.0"])
@pytest.mark.parametrize("m", [2, 3, 5])
def test_every_leaf_with_rows_has_min_samples_leaf(version, m):
    X, y = load_watermelon(version, return_X_y=True)
    model = C45Classifier(min_samples_leaf=m).fit(X, y)
    assert all(leaf.n_samples >= m for leaf in model.tree_.leaves()
               if leaf.stop_reason != "empty")


# ------------------------------------------------------------------ missing values
def test_watermelon_20alpha_root(wm20a):
    X, y = wm20a
    root = C45Classifier().fit(X, y).tree_
    # (ripe, unripe) per value among the melons whose value is known (Zhou table 4.4)
    known = {"colour": [(2, 2), (4, 2), (0, 4)], "texture": [(6, 1), (1, 4), (0, 3)],
             "navel": [(5, 2), (2, 2), (0, 4)]}
    n_missing = {"colour": 3, "texture": 2, "navel": 2}
    gains = {a: (17 - n_missing[a]) / 17 * gain(b) for a, b in known.items()}
    assert [round(gains[a], 3) for a in known] == [0.252, 0.424, 0.289]  # Zhou p. 88
    # the others: root 0.171, sound 0.145, touch 0.006; average 1.287 / 6 = 0.2145
    assert root.shortlist == ("colour", "texture", "navel")
    ivs = {a: H(*(sum(c) for c in b), n_missing[a]) for a, b in known.items()}
    ratios = {a: gains[a] / ivs[a] for a in known}
    assert {a: root.scores[a] for a in known} == pytest.approx(ratios, abs=TOL)
    assert max(ratios, key=ratios.get) == "texture" == root.feature
    assert root.branch_fractions.tolist() == pytest.approx([7 / 15, 5 / 15, 3 / 15])


def test_fractional_weights_are_conserved_through_every_split(wm20a):
    X, y = wm20a
    for model in (C45Classifier().fit(X, y), C45Classifier(gain_filter=None).fit(X, y)):
        internal = [n for n in model.tree_.walk() if not n.is_leaf]
        assert len(internal) > 1
        for node in internal:
            np.testing.assert_allclose(sum(c.value for c in node.children), node.value,
                                       atol=1e-12)
            assert node.branch_fractions.sum() == pytest.approx(1.0, abs=1e-12)
        leaves = model.tree_.leaves()
        assert sum(leaf.weighted_n_samples for leaf in leaves) == pytest.approx(17, abs=1e-12)
        assert any(not float(leaf.weighted_n_samples).is_integer() for leaf in leaves)
        np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0, atol=1e-12)


def test_missing_numeric_values_get_fractional_weights():
    X, y = load_watermelon("3.0", return_X_y=True)
    X = X[["sugar"]].copy()
    X.loc[[1, 9], "sugar"] = np.nan  # melon 1 ripe, melon 9 unripe
    root = C45Classifier(max_depth=1).fit(X, y).tree_
    # the 15 known melons: <= 0.126 are 11, 12, 16, 17 (unripe); > 0.126 are 7 ripe, 4 unripe
    known = X["sugar"].notna()
    _, best_t, best_gain = brute_force(X["sugar"][known].tolist(), y[known].tolist())
    assert best_t == pytest.approx(0.126) == root.threshold
    assert best_gain == pytest.approx(H(7, 8) - 11 / 15 * H(7, 4), abs=TOL)
    assert root.gains["sugar"] == pytest.approx(15 / 17 * best_gain, abs=TOL)
    assert root.score == pytest.approx(15 / 17 * best_gain / H(4, 11, 2), abs=TOL)
    assert root.branch_fractions.tolist() == pytest.approx([4 / 15, 11 / 15])
    assert [c.weighted_n_samples for c in root.children] == pytest.approx(
        [4 + 2 * 4 / 15, 11 + 2 * 11 / 15])
    assert sum(leaf.weighted_n_samples for leaf in root.leaves()) == pytest.approx(17)


# ------------------------------------------------------------------ parameters and scikit-learn
@pytest.mark.parametrize("params, error, match", [
    ({"variant": "weka"}, ValueError, "variant must be one of \\('textbook', 'j48'\\), got 'weka'"),
    ({"variant": None}, ValueError, "variant"),
    ({"gain_filter": "max"}, ValueError, "gain_filter must be one of \\('average', None\\)"),
    ({"gain_filter": False}, ValueError, "gain_filter"),
    ({"missing": "error"}, ValueError, "missing must be one of \\('fractional', 'branch'\\)"),
    ({"criterion": "gini"}, ValueError, "criterion must be one of \\('gain_ratio', 'info_gain'\\)"),
    ({"predict_missing": "guess"}, ValueError, "predict_missing must be one of"),
    ({"min_samples_leaf": 0}, ValueError, "min_samples_leaf must be an integer >= 1, got 0"),
    ({"min_samples_leaf": 1.5}, TypeError, "min_samples_leaf"),
    ({"min_samples_leaf": True}, TypeError, "min_samples_leaf"),
    ({"max_depth": -1}, ValueError, "max_depth"),
])
def test_bad_parameters(wm20, params, error, match):
    X, y = wm20
    model = C45Classifier(**params)
    with pytest.raises(error, match=match):
        model.fit(X, y)
    assert not hasattr(model, "tree_")


PRUNING_PARAMETERS = ["pruning", "confidence", "subtree_raising", "z", "validation_fraction",
                      "prune_on_tie", "random_state", "class_weight"]


def test_parameters_and_id3_unchanged():
    assert list(C45Classifier().get_params()) == sorted([
        "max_depth", "min_samples_split", "min_samples_leaf", "min_impurity_decrease",
        "purity_threshold", "tie_break", "variant", "gain_filter", "missing", "predict_missing",
        "criterion", "handle_unknown", "probability", "m", *PRUNING_PARAMETERS])
    assert sorted(ID3Classifier().get_params()) == sorted([
        "max_depth", "min_samples_split", "min_impurity_decrease", "purity_threshold",
        "tie_break", "missing", "predict_missing", "handle_unknown", "probability", "m",
        *PRUNING_PARAMETERS])


EXPECTED_SKIPS = {"check_array_api_input": "SCIPY_ARRAY_API is not set"}


def expected_failures(estimator) -> dict[str, str]:
    """Reduced-error pruning holds out a random share of the rows: a row repeated twice is
    then not the same as a row of weight 2, which scikit-learn's check asks for. The class
    weight check caps the leaves only through ``min_weight_fraction_leaf``, which C4.5 lacks:
    J48's ``min_samples_leaf`` (its ``-M``) is a weight, and refuses a branch of rows of class
    weight 1e-4; the textbook's counts rows, as scikit-learn's does, and keeps leaves for them,
    unless a pruning by weight (error-based, pessimistic) cuts them."""
    failures = {}
    if estimator.variant != "j48" and estimator.pruning in (None, "reduced_error"):
        failures["check_class_weight_classifiers"] = (
            "the textbook's min_samples_leaf counts rows: leaves for rows of class weight 1e-4")
    if estimator.pruning == "reduced_error":
        reason = "the held-out rows are drawn from the rows, not from their weights"
        failures.update({"check_sample_weight_equivalence_on_dense_data": reason,
                         "check_sample_weight_equivalence_on_sparse_data": reason})
    return failures


@parametrize_with_checks([C45Classifier(), C45Classifier(variant="j48", min_samples_leaf=2),
                          C45Classifier(missing="branch"), C45Classifier.j48(),
                          C45Classifier(pruning="pessimistic"),
                          C45Classifier(pruning="reduced_error", random_state=0)],
                         expected_failed_checks=expected_failures)
def test_sklearn_estimator_checks(estimator, check):
    try:
        check(estimator)
    except SkipTest as skip:  # only the expected skips, with their reasons
        name = getattr(check, "func", check).__name__
        assert name in EXPECTED_SKIPS, f"unexpected skip of {name}: {skip}"
        assert EXPECTED_SKIPS[name] in str(skip)
        pytest.skip(f"{name}: {skip}")


# ------------------------------------------------------------------ missing="branch"
@pytest.mark.parametrize("column", [
    pd.Categorical(["x", "x", "y", "y", None, None]),
    [1.0, 2.0, 3.0, 4.0, np.nan, np.nan],
], ids=["categorical", "numeric"])
def test_missing_branch_by_hand(column):
    # A A | B B | missing: B B. With a branch of their own, the missing rows make three pure
    # groups: gain = H(2/6) = 0.918 bits, not discounted; IV = log2 3; the missing rows' branch
    # is the last, weight 2 each. Fractionally, gain = rho * 1 bit = 4/6, and each missing row
    # goes half to each side.
    X, y = pd.DataFrame({"a": column}), np.array(list("AABBBB"))
    h = -(1 / 3 * np.log2(1 / 3) + 2 / 3 * np.log2(2 / 3))
    branch = C45Classifier(missing="branch").fit(X, y)
    root = branch.tree_.root
    assert root.missing_branch == len(root.children) - 1 == 2
    assert [c.weighted_n_samples for c in root.children] == [2, 2, 2]
    assert root.gains["a"] == pytest.approx(h)
    assert root.scores["a"] == pytest.approx(h / np.log2(3))
    row = pd.DataFrame({"a": pd.Categorical([None], categories=["x", "y"])
                        if isinstance(column, pd.Categorical) else [np.nan]})
    assert branch.predict_proba(row).tolist() == [[0.0, 1.0]]
    fractional = C45Classifier().fit(X, y)
    assert fractional.tree_.missing_branch is None
    assert fractional.tree_.gains["a"] == pytest.approx(4 / 6)
    assert [c.weighted_n_samples for c in fractional.tree_.children] == [3, 3]
    # left leaf: A 2, B 1 (two halves); right leaf: B 3; each reached with weight 1/2
    np.testing.assert_allclose(fractional.predict_proba(row), [[1 / 3, 2 / 3]])
    # the missing rows' branch must hold min_samples_leaf rows too
    assert C45Classifier(missing="branch", min_samples_leaf=3).fit(X, y).tree_.is_leaf

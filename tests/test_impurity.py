"""Impurities and split scores against hand calculation (Zhou 2016, ch. 4; seed 002).

Expected values are written as arithmetic on class counts read off the tables (``H(7, 2)`` is
the entropy of 7 ripe and 2 unripe melons), never copied from dtree's output.
"""
from __future__ import annotations

from math import log2

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from handcalc import WM20_COUNTS, G, H, after, gain, split_info

import dtree
from dtree import (entropy, gain_ratio, gini, gini_index, info_gain, intrinsic_value,
                   misclassification)
from dtree.impurity import entropy_of_counts, gini_of_counts, misclassification_of_counts

TOL = 1e-12

# Zhou's printed root gains (p. 77-78). Colour is printed 0.109, but
# H(8,9) - [6/17 H(3,3) + 6/17 H(4,2) + 5/17 H(1,4)] = 0.10812... rounds to 0.108.
ZHOU_ROOT_GAINS = {"colour": 0.108, "root": 0.143, "sound": 0.141, "texture": 0.381,
                   "navel": 0.289, "touch": 0.006}


# ----------------------------------------------------------------------------- plain impurities
def test_entropy_two_classes_by_formula():
    y = ["yes"] * 5 + ["no"] * 6
    expected = -(5 / 11) * log2(5 / 11) - (6 / 11) * log2(6 / 11)
    assert entropy(y) == pytest.approx(expected, abs=TOL)


def test_entropy_of_watermelon_root(wm20):
    _, y = wm20
    assert entropy(y) == pytest.approx(-(8 / 17) * log2(8 / 17) - (9 / 17) * log2(9 / 17), abs=TOL)
    assert round(entropy(y), 3) == 0.998  # Zhou p. 76


def test_entropy_chinese_labels():
    y = ["是", "否", "否", "否"]
    assert entropy(y) == pytest.approx(-(1 / 4) * log2(1 / 4) - (3 / 4) * log2(3 / 4), abs=TOL)


def test_entropy_three_classes_uniform_is_log2_3():
    assert entropy(["a", "b", "c"] * 4) == pytest.approx(log2(3), abs=TOL)


def test_entropy_pure_is_zero_and_single_row():
    assert entropy(["a"] * 7) == 0.0
    assert entropy(["a"]) == 0.0


def test_entropy_weighted():
    # a with weight 3, b with weight 1: p = (3/4, 1/4)
    assert entropy(["a", "b"], sample_weight=[3, 1]) == pytest.approx(
        -(3 / 4) * log2(3 / 4) - (1 / 4) * log2(1 / 4), abs=TOL)


def test_entropy_zero_weight_row_is_ignored():
    assert entropy(["a", "b", "c"], sample_weight=[1, 1, 0]) == pytest.approx(1.0, abs=TOL)


def test_entropy_numeric_and_series_labels():
    assert entropy(pd.Series([0, 1, 1, 1])) == pytest.approx(H(1, 3), abs=TOL)
    assert entropy(np.array([2.5, 2.5, 7.0])) == pytest.approx(H(2, 1), abs=TOL)


def test_gini_by_formula():
    assert gini(["是", "是", "否"]) == pytest.approx(1 - (2 / 3) ** 2 - (1 / 3) ** 2, abs=TOL)
    assert gini(["a", "b", "c", "c"]) == pytest.approx(1 - 1 / 16 - 1 / 16 - 1 / 4, abs=TOL)
    assert gini(["a"] * 4) == 0.0


def test_gini_weighted():
    assert gini(["a", "b"], sample_weight=[3, 1]) == pytest.approx(1 - (3 / 4) ** 2 - (1 / 4) ** 2,
                                                                  abs=TOL)


def test_misclassification_by_formula():
    assert misclassification(["是", "是", "否"]) == pytest.approx(1 - 2 / 3, abs=TOL)
    assert misclassification(["a", "b", "c", "c"]) == pytest.approx(1 - 2 / 4, abs=TOL)
    assert misclassification(["a", "b"], sample_weight=[1, 4]) == pytest.approx(1 / 5, abs=TOL)
    assert misclassification(["x"] * 3) == 0.0


@pytest.mark.parametrize("function", [entropy, gini, misclassification])
def test_impurity_rejects_missing_and_empty_labels(function):
    with pytest.raises(ValueError, match="missing"):
        function(["a", None, "b"])
    with pytest.raises(ValueError, match="missing"):
        function([1.0, np.nan])
    with pytest.raises(ValueError, match="empty"):
        function([])
    with pytest.raises(ValueError, match="one-dimensional"):
        function(np.zeros((2, 2)))


def test_kernels_agree_that_no_weight_means_no_impurity():
    # the public functions refuse all-zero weights (test_bad_input.py); the kernels, which also
    # see empty branches, give 0 for every impurity (Gini used to give 1 - 0 = 1)
    for kernel in (entropy_of_counts, gini_of_counts, misclassification_of_counts):
        assert kernel(np.zeros(2)) == 0.0
        assert kernel(np.zeros((3, 2))).tolist() == [0.0, 0.0, 0.0]


# ----------------------------------------------------------------- information gain, Zhou 4.2.1
def test_house_school_gain_seed002():
    # seed 002: good school 5 bought / 6 not; poor school 1 bought / 8 not
    school = ["good"] * 11 + ["poor"] * 9
    bought = ["yes"] * 5 + ["no"] * 6 + ["yes"] * 1 + ["no"] * 8
    expected = (-(6 / 20) * log2(6 / 20) - (14 / 20) * log2(14 / 20)) - (
        11 / 20 * (-(5 / 11) * log2(5 / 11) - (6 / 11) * log2(6 / 11))
        + 9 / 20 * (-(1 / 9) * log2(1 / 9) - (8 / 9) * log2(8 / 9)))
    assert info_gain(school, bought) == pytest.approx(expected, abs=TOL)
    X, y = dtree.datasets.load_house_school(return_X_y=True)
    assert info_gain(X["school"], y) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("attribute", list(WM20_COUNTS))
def test_watermelon_root_gains_from_counts(wm20, attribute):
    X, y = wm20
    expected = gain(WM20_COUNTS[attribute])
    assert info_gain(X[attribute], y) == pytest.approx(expected, abs=TOL)
    assert round(expected, 3) == ZHOU_ROOT_GAINS[attribute]


def test_watermelon_texture_gain_written_out(wm20):
    X, y = wm20
    ent_d = -(8 / 17) * log2(8 / 17) - (9 / 17) * log2(9 / 17)
    clear = -(7 / 9) * log2(7 / 9) - (2 / 9) * log2(2 / 9)
    slightly = -(1 / 5) * log2(1 / 5) - (4 / 5) * log2(4 / 5)
    blurry = 0.0
    expected = ent_d - (9 / 17 * clear + 5 / 17 * slightly + 3 / 17 * blurry)
    assert info_gain(X["texture"], y) == pytest.approx(expected, abs=TOL)
    assert round(info_gain(X["texture"], y), 3) == 0.381


def test_colour_gain_is_0108_not_zhous_0109(wm20):
    X, y = wm20
    g = info_gain(X["colour"], y)
    assert round(g, 3) == 0.108
    assert abs(g - 0.109) > 0.0005  # Zhou's 0.109 does not round from the exact value


def test_watermelon_gains_on_chinese_labels_equal_english(wm20):
    Xz, yz = dtree.datasets.load_watermelon(lang="zh", return_X_y=True)
    X, y = wm20
    for zh, en in [("纹理", "texture"), ("色泽", "colour"), ("触感", "touch")]:
        assert info_gain(Xz[zh], yz) == pytest.approx(gain(WM20_COUNTS[en]), abs=TOL)


def test_second_level_gains_under_clear_texture(wm20):
    # Zhou p. 78: D1 = the 9 clear melons {1,2,3,4,5,6,8,10,15}, 7 ripe 2 not
    X, y = wm20
    clear = X["texture"] == "clear"
    d1_x, d1_y = X[clear], y[clear]
    expected = {
        "colour": gain([(3, 1), (3, 1), (1, 0)]),   # 0.043
        "root": gain([(5, 0), (2, 1), (0, 1)]),     # 0.458
        "sound": gain([(5, 1), (2, 0), (0, 1)]),    # 0.331
        "navel": gain([(5, 0), (2, 1), (0, 1)]),    # 0.458
        "touch": gain([(6, 0), (1, 2)]),            # 0.458
    }
    zhou = {"colour": 0.043, "root": 0.458, "sound": 0.331, "navel": 0.458, "touch": 0.458}
    for attribute, value in expected.items():
        assert info_gain(d1_x[attribute], d1_y) == pytest.approx(value, abs=TOL)
        assert round(value, 3) == zhou[attribute]


def test_info_gain_of_constant_attribute_is_zero():
    assert info_gain(["a"] * 4, ["y", "n", "y", "n"]) == pytest.approx(0.0, abs=TOL)


def test_info_gain_perfect_split_equals_entropy():
    assert info_gain(["a", "a", "b", "b"], ["y", "y", "n", "n"]) == pytest.approx(1.0, abs=TOL)


def test_info_gain_weighted_by_hand():
    # a: y weight 2, n weight 1; b: n weight 1  ->  parent (2, 2)
    x, y, w = ["a", "a", "b"], ["y", "n", "n"], [2, 1, 1]
    expected = H(2, 2) - (3 / 4 * H(2, 1) + 1 / 4 * H(0, 1))
    assert info_gain(x, y, sample_weight=w) == pytest.approx(expected, abs=TOL)


def test_info_gain_numeric_attribute_values_are_categories():
    x = [1, 1, 2, 3]
    y = ["y", "n", "n", "n"]
    assert info_gain(x, y) == pytest.approx(H(1, 3) - 2 / 4 * H(1, 1), abs=TOL)


def test_info_gain_length_mismatch():
    with pytest.raises(ValueError, match="different lengths"):
        info_gain(["a", "b"], ["y", "n", "n"])


# ------------------------------------------------------------------- missing values (eq. 4.12)
def test_info_gain_missing_is_rho_times_known_gain():
    x = ["a", "a", "b", None, "b", np.nan]
    y = [1, 0, 1, 1, 0, 0]
    w = [1, 2, 1, 3, 1, 1]
    # known rows 0,1,2,4 weigh 5, missing rows 3,5 weigh 4: rho = 5/9
    # known: a -> (y=1: 1, y=0: 2), b -> (1, 1); parent (2, 3)
    expected = 5 / 9 * (H(2, 3) - (3 / 5 * H(1, 2) + 2 / 5 * H(1, 1)))
    assert info_gain(x, y, sample_weight=w) == pytest.approx(expected, abs=TOL)


MIXED_Y = ["p", "q", "q", "p", "p"]
# known rows 0,2,3: a -> (p 2), b -> (q 1); rho = 3/5
MIXED_EXPECTED = 3 / 5 * (H(2, 1) - 0.0)


def test_info_gain_none_and_nan_are_both_missing():
    x_none = ["a", None, "b", "a", None]
    x_nan = np.array(["a", np.nan, "b", "a", np.nan], dtype=object)
    assert info_gain(x_none, MIXED_Y) == pytest.approx(MIXED_EXPECTED, abs=TOL)
    assert info_gain(x_nan, MIXED_Y) == pytest.approx(MIXED_EXPECTED, abs=TOL)
    assert info_gain(pd.Series(x_nan), MIXED_Y) == pytest.approx(MIXED_EXPECTED, abs=TOL)
    assert info_gain(pd.Series(x_nan, dtype="category"), MIXED_Y) == pytest.approx(
        MIXED_EXPECTED, abs=TOL)


def test_info_gain_nan_in_plain_list_of_strings_is_missing():
    x_nan = ["a", np.nan, "b", "a", np.nan]
    assert info_gain(x_nan, MIXED_Y) == pytest.approx(MIXED_EXPECTED, abs=TOL)


def test_entropy_rejects_nan_in_plain_list_of_strings():
    with pytest.raises(ValueError, match="missing"):
        entropy(["yes", np.nan, "no"])


def test_info_gain_numeric_attribute_with_nan():
    x = [1.0, 1.0, 2.0, np.nan]
    y = ["y", "y", "n", "n"]
    assert info_gain(x, y) == pytest.approx(3 / 4 * H(2, 1), abs=TOL)


def test_info_gain_all_missing_is_zero():
    assert info_gain([None, None, np.nan], ["a", "b", "a"]) == pytest.approx(0.0, abs=TOL)


WM20A_ZHOU = {"colour": 0.252, "root": 0.171, "sound": 0.145, "texture": 0.424, "navel": 0.289,
              "touch": 0.006}


@pytest.mark.parametrize("attribute", list(WM20A_ZHOU))
def test_watermelon_alpha_gains_round_to_zhou(wm20a, attribute):
    X, y = wm20a
    assert round(info_gain(X[attribute], y), 3) == WM20A_ZHOU[attribute]


def test_watermelon_alpha_colour_gain_by_hand(wm20a):
    # Zhou p. 87: colour known for 14 melons (6 ripe, 8 not); green (2, 2), dark (4, 2),
    # light (0, 4); rho = 14/17
    X, y = wm20a
    ent = -(6 / 14) * log2(6 / 14) - (8 / 14) * log2(8 / 14)
    green = 1.0
    dark = -(4 / 6) * log2(4 / 6) - (2 / 6) * log2(2 / 6)
    expected = 14 / 17 * (ent - (4 / 14 * green + 6 / 14 * dark + 4 / 14 * 0.0))
    assert info_gain(X["colour"], y) == pytest.approx(expected, abs=TOL)
    assert round(expected, 3) == 0.252


def test_watermelon_alpha_texture_and_root_gains_by_hand(wm20a):
    X, y = wm20a
    # texture known for 15 (7 ripe, 8 not): clear (6, 1), slightly blurry (1, 4), blurry (0, 3)
    texture = 15 / 17 * gain([(6, 1), (1, 4), (0, 3)])
    # root known for 15 (8, 7): curly (5, 2), slightly curly (3, 3), straight (0, 2)
    root = 15 / 17 * gain([(5, 2), (3, 3), (0, 2)])
    assert info_gain(X["texture"], y) == pytest.approx(texture, abs=TOL)
    assert info_gain(X["root"], y) == pytest.approx(root, abs=TOL)
    assert (round(texture, 3), round(root, 3)) == (0.424, 0.171)


# ------------------------------------------------------------------ intrinsic value, gain ratio
def test_intrinsic_values_zhou(wm20):
    X, _ = wm20
    touch = -(12 / 17) * log2(12 / 17) - (5 / 17) * log2(5 / 17)
    colour = -2 * (6 / 17) * log2(6 / 17) - (5 / 17) * log2(5 / 17)
    ident = -17 * (1 / 17) * log2(1 / 17)  # = log2 17
    assert intrinsic_value(X["touch"]) == pytest.approx(touch, abs=TOL)
    assert intrinsic_value(X["colour"]) == pytest.approx(colour, abs=TOL)
    assert intrinsic_value(X.index) == pytest.approx(ident, abs=TOL)
    assert intrinsic_value(list(range(1, 18))) == pytest.approx(log2(17), abs=TOL)
    assert (round(touch, 3), round(colour, 3)) == (0.874, 1.580)
    # Zhou prints IV(id) = 4.088; log2 17 = 4.08746... rounds to 4.087 (a rounding slip)
    assert abs(ident - 4.088) < 1e-3 and round(ident, 3) == 4.087


def test_intrinsic_value_counts_missing_as_a_group():
    # C4.5: the 1 missing row is a third group: sizes 2, 1, 1
    assert intrinsic_value(["a", "a", "b", None]) == pytest.approx(
        -(2 / 4) * log2(2 / 4) - 2 * (1 / 4) * log2(1 / 4), abs=TOL)
    # weighted: a 3, b 1, missing 4
    assert intrinsic_value(["a", "b", np.nan], sample_weight=[3, 1, 4]) == pytest.approx(
        split_info(3, 1, 4), abs=TOL)


def test_gain_ratio_by_formula(wm20):
    X, y = wm20
    for attribute, counts in WM20_COUNTS.items():
        sizes = [sum(c) for c in counts]
        assert gain_ratio(X[attribute], y) == pytest.approx(
            gain(counts) / split_info(*sizes), abs=TOL)


def test_gain_ratio_of_id_column(wm20):
    X, y = wm20
    # each melon is its own branch: gain = Ent(D), IV = log2 17
    assert gain_ratio(X.index, y) == pytest.approx(H(8, 9) / log2(17), abs=TOL)


def test_gain_ratio_with_missing_uses_extra_group():
    x = ["a", "a", "b", None]
    y = ["y", "n", "n", "n"]
    g = 3 / 4 * (H(1, 2) - 2 / 3 * H(1, 1))
    iv = split_info(2, 1, 1)
    assert gain_ratio(x, y) == pytest.approx(g / iv, abs=TOL)


def test_gain_ratio_zero_when_iv_zero():
    assert gain_ratio(["a", "a", "a"], ["y", "n", "y"]) == 0.0
    assert gain_ratio([None, None], ["y", "n"]) == 0.0


def test_gini_index_by_formula(wm20):
    X, y = wm20
    for attribute, counts in WM20_COUNTS.items():
        assert gini_index(X[attribute], y) == pytest.approx(after(counts, G), abs=TOL)
    texture = (9 / 17 * (1 - (7 / 9) ** 2 - (2 / 9) ** 2)
               + 5 / 17 * (1 - (1 / 5) ** 2 - (4 / 5) ** 2)
               + 3 / 17 * 0.0)
    assert gini_index(X["texture"], y) == pytest.approx(texture, abs=TOL)


def test_gini_index_weighted_and_missing():
    # missing rows are left out; a: (y 2, n 1), b: (n 1)
    x, y, w = ["a", "a", "b", None], ["y", "n", "n", "y"], [2, 1, 1, 5]
    assert gini_index(x, y, sample_weight=w) == pytest.approx(3 / 4 * G(2, 1), abs=TOL)


# ---------------------------------------------- the impurity readers call is the one that grows
# Chapter 3 quotes entropy_of_counts and gini_of_counts (the proportions' formula); the grower
# scores splits with kernels.weighted_impurity (W times the impurity, from the weighted counts)
# and kernels.split_information. Each pair must agree to dtree's tie rule, the tolerance within
# which the grower counts two scores as equal (dtree.tolerances), on any counts.
# (weights from 1e-3: below 1e-154 the grower's c * c / W underflows, and Gini of one class of
# such a weight comes out 1)
@given(st.lists(st.one_of(st.integers(0, 1000), st.floats(1e-3, 1e6)), min_size=1,
                max_size=12))
def test_the_quoted_impurities_are_the_growers(counts):
    from dtree.kernels import ENTROPY, GINI, split_information as kernel_iv, weighted_impurity
    from dtree.impurity import split_information
    from dtree.tree import ties

    counts = np.array(counts, dtype=float)
    total = counts.sum()
    for quoted, code in ((entropy_of_counts, ENTROPY), (gini_of_counts, GINI)):
        grower = weighted_impurity(counts, code) / total if total > 0 else 0.0
        ours = float(quoted(counts))
        assert ties(ours, grower) and ties(grower, ours), (quoted.__name__, ours, grower)
    *branches, missing = counts
    iv = float(split_information(np.array(branches), missing)) if branches else None
    if iv is not None:
        grower = kernel_iv(np.array(branches), missing)
        assert ties(iv, grower) and ties(grower, iv), (iv, grower)


@given(st.lists(st.tuples(st.floats(0.01, 100), st.floats(-1e3, 1e3)), min_size=1,
                max_size=20))
def test_the_quoted_variance_is_the_growers(rows):
    from dtree.impurity import squared_error_of_stats
    from dtree.kernels import SQUARED_ERROR, weighted_impurity

    w, y = np.array(rows).T
    stats = np.array([w.sum(), (w * y).sum(), (w * y * y).sum()])
    grower = weighted_impurity(stats, SQUARED_ERROR) / stats[0]
    ours = float(squared_error_of_stats(stats))
    scale = (w * y * y).sum() / stats[0]  # the variance is a difference of numbers this large
    assert abs(ours - grower) <= 1e-12 + 1e-9 * scale, (ours, grower)

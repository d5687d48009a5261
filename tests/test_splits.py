"""best_threshold: seed 002's colour-depth example, brute force, and scikit-learn's root split."""
from __future__ import annotations

from math import log2

import numpy as np
import pytest
from handcalc import H, brute_force
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from dtree import best_threshold, info_gain
from dtree.datasets import load_colour_depth

TOL = 1e-12


# --------------------------------------------------------------------- seed 002, seven melons
@pytest.fixture
def colour_depth():
    X, y = load_colour_depth(return_X_y=True)
    return X["colour_depth"].to_numpy(), y.to_numpy()


def test_colour_depth_candidates_are_midpoints(colour_depth):
    x, y = colour_depth
    candidates, _, _ = brute_force(list(x), list(y))
    expected = [(0.56 + 0.59) / 2, (0.59 + 0.66) / 2, (0.66 + 0.68) / 2, (0.68 + 0.71) / 2,
                (0.71 + 0.81) / 2, (0.81 + 0.90) / 2]
    assert [t for t, _ in candidates] == pytest.approx(expected, abs=1e-12)
    # seed 002 lists 0.575, 0.625, 0.67, 0.695, 0.72 (sic), 0.855; the fifth is 0.76
    assert [round(t, 3) for t, _ in candidates] == [0.575, 0.625, 0.67, 0.695, 0.76, 0.855]


def test_colour_depth_gain_at_067_by_hand(colour_depth):
    x, y = colour_depth
    # <= 0.67: 0.56 no, 0.59 no, 0.66 yes  -> (1 yes, 2 no), 3 of 7
    # >  0.67: 0.68 yes, 0.71 yes, 0.81 no, 0.90 yes -> (3 yes, 1 no), 4 of 7
    h_y = -(4 / 7) * log2(4 / 7) - (3 / 7) * log2(3 / 7)
    expected = h_y - (3 / 7 * H(1, 2) + 4 / 7 * H(3, 1))
    assert info_gain(x <= 0.67, y) == pytest.approx(expected, abs=TOL)
    candidates, _, _ = brute_force(list(x), list(y))
    assert dict((round(t, 3), s) for t, s in candidates)[0.67] == pytest.approx(expected, abs=TOL)
    # the seed's 0.12 weights the sides the wrong way round (4/7 on the 3-row side)
    swapped = h_y - (4 / 7 * H(1, 2) + 3 / 7 * H(3, 1))
    assert round(expected, 2) == 0.13 and round(swapped, 2) == 0.11


def test_colour_depth_best_threshold(colour_depth):
    x, y = colour_depth
    _, best_t, best_gain = brute_force(list(x), list(y))
    # by hand: t = 0.625 leaves (0 yes, 2 no) | (4 yes, 1 no)
    assert best_gain == pytest.approx(H(4, 3) - 5 / 7 * H(4, 1), abs=TOL)
    assert best_t == pytest.approx(0.625, abs=1e-12)
    t, g = best_threshold(x, y)
    assert t == pytest.approx(best_t, abs=1e-12)
    assert g == pytest.approx(best_gain, abs=TOL)


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio", "gini"])
def test_colour_depth_every_criterion_matches_brute_force(colour_depth, criterion):
    x, y = colour_depth
    _, best_t, best_score = brute_force(list(x), list(y), criterion)
    t, score = best_threshold(x, y, criterion)
    assert t == pytest.approx(best_t, abs=1e-12)
    assert score == pytest.approx(best_score, abs=TOL)


def test_gini_returns_minimised_weighted_impurity():
    x = [1, 2, 3, 4, 5]
    y = ["a", "a", "b", "b", "b"]
    # t = 2.5 separates perfectly: impurity after = 0
    assert best_threshold(x, y, "gini") == (2.5, pytest.approx(0.0, abs=TOL))
    y = ["a", "b", "a", "b", "b"]
    # candidates: 1.5 -> 4/5 G(1,3); 2.5 -> 2/5 G(1,1) + 3/5 G(1,2); 3.5 -> 3/5 G(2,1) + 0 ...
    # best is 3.5: (a, b, a) | (b, b): 3/5 * (1 - 4/9 - 1/9)
    t, after = best_threshold(x, y, "gini")
    assert t == 3.5
    assert after == pytest.approx(3 / 5 * (1 - (2 / 3) ** 2 - (1 / 3) ** 2), abs=TOL)


def test_squared_error_returns_minimised_weighted_variance():
    x = [1, 2, 3, 4]
    y = [1.0, 1.0, 5.0, 7.0]
    # 2.5: left var 0, right {5, 7} var 1 -> 2/4 * 1 = 0.5; 1.5 and 3.5 are worse
    t, after = best_threshold(x, y, "squared_error")
    assert t == 2.5
    assert after == pytest.approx(2 / 4 * 1.0, abs=TOL)


def test_ties_go_to_the_smallest_threshold():
    x = [1, 2, 3, 4]
    y = ["a", "b", "b", "a"]
    # 1.5 and 3.5 both leave (1 of one class) | (3 with 2:1): gain 1 - 3/4 H(1, 2)
    t, g = best_threshold(x, y)
    assert t == 1.5
    assert g == pytest.approx(1 - 3 / 4 * H(1, 2), abs=TOL)


def test_weighted_threshold_matches_brute_force():
    x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    y = ["a", "b", "a", "b", "b", "a"]
    w = [5, 1, 4, 1, 1, 1]
    for criterion in ("info_gain", "gain_ratio", "gini"):
        _, best_t, best_score = brute_force(x, y, criterion, w)
        t, score = best_threshold(x, y, criterion, sample_weight=w)
        assert t == pytest.approx(best_t, abs=1e-12)
        assert score == pytest.approx(best_score, abs=TOL)


def test_missing_x_scales_gain_by_rho():
    x = [0.5, None, 1.0, 2.0]
    y = ["a", "a", "b", "b"]
    # known rows 0.5 a | 1.0 b, 2.0 b: the cut 0.75 separates them; rho = 3/4
    t, g = best_threshold(x, y)
    assert t == 0.75
    assert g == pytest.approx(3 / 4 * H(1, 2), abs=TOL)
    t, g = best_threshold([0.5, np.nan, 1.0, 2.0], y)
    assert (t, g) == (0.75, pytest.approx(3 / 4 * H(1, 2), abs=TOL))


def test_integer_weights_equal_repeated_rows():
    x = [3.0, 1.0, 2.0, 4.0, 5.0]
    y = ["a", "b", "a", "b", "a"]
    w = [2, 1, 3, 1, 2]
    rx, ry = np.repeat(x, w), np.repeat(y, w)
    for criterion in ("info_gain", "gain_ratio", "gini"):
        t1, s1 = best_threshold(x, y, criterion, sample_weight=w)
        t2, s2 = best_threshold(rx, ry, criterion)
        assert t1 == t2
        assert s1 == pytest.approx(s2, abs=TOL)


# ---------------------------------------------------------------------- against scikit-learn
def _sklearn_root(model, X, y, w):
    model.fit(X, y, sample_weight=w)
    tree = model.tree_
    left, right = tree.children_left[0], tree.children_right[0]
    wn, imp = tree.weighted_n_node_samples, tree.impurity
    after = (wn[left] * imp[left] + wn[right] * imp[right]) / wn[0]
    return tree.threshold[0], imp[0], after


def _random_data(seed, n=40, classes=3, regression=False):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 24, n) / 4  # exact in float32, so scikit-learn sees the same values
    w = rng.integers(1, 4, n).astype(float) if seed % 2 else None
    if regression:
        y = np.round(np.sin(x) * 3 + rng.normal(0, 1, n), 2)
    else:
        y = np.array(list("abc"[:classes]))[(x + rng.integers(0, 3, n)).astype(int) % classes]
    return x, y, w


def _unique_best(x, y, criterion, w):
    candidates, best_t, best_score = brute_force(list(x), list(y), criterion, w)
    sign = -1 if criterion in ("gini", "squared_error") else 1
    return sum(1 for _, s in candidates if sign * s >= sign * best_score - 1e-9) == 1


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_root_split_matches_sklearn_classifier(seed, criterion):
    x, y, w = _random_data(seed)
    threshold, root, after = _sklearn_root(
        DecisionTreeClassifier(criterion=criterion, max_depth=1, random_state=0),
        x.reshape(-1, 1), y, w)
    ours = "info_gain" if criterion == "entropy" else "gini"
    t, score = best_threshold(x, y, ours, sample_weight=w)
    expected = root - after if ours == "info_gain" else after  # scikit-learn's entropy is in bits
    assert score == pytest.approx(expected, abs=1e-9)
    if _unique_best(x, y, ours, w):
        assert t == threshold


@pytest.mark.parametrize("seed", range(8))
def test_root_split_matches_sklearn_regressor(seed):
    x, y, w = _random_data(seed, regression=True)
    threshold, _, after = _sklearn_root(DecisionTreeRegressor(max_depth=1, random_state=0),
                                        x.reshape(-1, 1), y, w)
    t, score = best_threshold(x, y, "squared_error", sample_weight=w)
    assert score == pytest.approx(after, rel=1e-9, abs=1e-9)
    if _unique_best(x, y, "squared_error", w):
        assert t == threshold


def test_root_entropy_matches_sklearn_in_bits():
    x, y, _ = _random_data(3)
    _, root, _ = _sklearn_root(DecisionTreeClassifier(criterion="entropy", max_depth=1),
                               x.reshape(-1, 1), y, None)
    counts = [int((y == c).sum()) for c in "abc"]
    assert root == pytest.approx(H(*counts), abs=1e-12)


# -------------------------------------------------------------------------------- error cases
def test_unknown_criterion():
    with pytest.raises(ValueError, match="criterion"):
        best_threshold([1, 2], ["a", "b"], "entropy")


def test_categorical_x_is_a_type_error():
    with pytest.raises(TypeError, match="numeric"):
        best_threshold(["low", "high"], ["a", "b"])


def test_two_dimensional_x():
    with pytest.raises(ValueError, match="one-dimensional"):
        best_threshold([[1, 2], [3, 4]], ["a", "b"])


@pytest.mark.parametrize("x, y", [
    pytest.param([1, 2, 3], ["a", "b"], id="3-vs-2"),
    pytest.param([1, 2, 3], ["a"], id="3-vs-1-silently-broadcast"),
    pytest.param([1, 2, 3], [5.0], id="3-vs-1-regression"),
])
def test_length_mismatch(x, y):
    criterion = "squared_error" if isinstance(y[0], float) else "info_gain"
    with pytest.raises(ValueError, match="different lengths"):
        best_threshold(x, y, criterion)


@pytest.mark.parametrize("x", [
    [1.0, 1.0, 1.0], [1.0, None, None],
    [np.nan, np.nan],
])
def test_fewer_than_two_distinct_values(x):
    with pytest.raises(ValueError, match="fewer than two distinct"):
        best_threshold(x, ["a", "b", "a"][: len(x)])


def test_missing_targets():
    with pytest.raises(ValueError, match="missing"):
        best_threshold([1, 2, 3], ["a", None, "b"])
    with pytest.raises(ValueError, match="missing"):
        best_threshold([1, 2, 3], [1.0, np.nan, 2.0], "squared_error")


def test_bad_weights():
    with pytest.raises(ValueError, match="negative"):
        best_threshold([1, 2], ["a", "b"], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="sample_weight"):
        best_threshold([1, 2], ["a", "b"], sample_weight=[1, 1, 1])


def test_infinite_x_is_rejected():
    with pytest.raises(ValueError, match="infinit"):
        best_threshold([1.0, np.inf, 2.0], ["a", "b", "a"])


def test_threshold_separates_adjacent_floats():
    a = 1.0000000000000002
    b = np.nextafter(a, 2.0)  # (a + b) / 2 rounds to b (ties to even)
    t, g = best_threshold([a, b], ["x", "y"])
    assert g == pytest.approx(1.0, abs=TOL)
    assert a <= t < b


# ------------------------------------------------------------ bad input and extreme values
@pytest.mark.parametrize("x, y, kwargs, error, message", [
    pytest.param([1, 2, 3], [1, np.inf, 2], dict(criterion="squared_error"), ValueError,
                 "infinity", id="infinite-regression-target"),
    pytest.param([1, 2, 3], [1, -np.inf, 2], dict(criterion="squared_error"), ValueError,
                 "infinity", id="minus-infinite-regression-target"),
    pytest.param([1, 2, 3], None, {}, ValueError, "y is None", id="y-None"),
    pytest.param([1, 2, 3], None, dict(criterion="squared_error"), ValueError, "y is None",
                 id="y-None-regression"),
    pytest.param([1, 2, 3], ["a", "b", "a"], dict(sample_weight=[0, 0, 0]), ValueError,
                 "sums to zero", id="all-zero-weights"),
    pytest.param([1, 1, 2], ["a", "b", "a"], dict(sample_weight=[1, 1, 0]), ValueError,
                 "fewer than two distinct", id="second-value-only-in-a-zero-weight-row"),
])
def test_bad_input(x, y, kwargs, error, message):
    with pytest.raises(error, match=message):
        best_threshold(x, y, **kwargs)


@pytest.mark.parametrize("a, b", [
    pytest.param(-1.7e308, -1e308, id="both-huge-negative"),  # (a + b) / 2 overflows to -inf
    pytest.param(1e308, 1.7e308, id="both-huge-positive"),
    pytest.param(-1.7e308, 1.7e308, id="huge-opposite-signs"),  # b - a overflows
    pytest.param(5e-324, 1e-323, id="smallest-subnormals"),  # a / 2 rounds to 0
    pytest.param(-1e-323, -5e-324, id="negative-subnormals"),  # b / 2 rounds to -0
    pytest.param(0.0, 5e-324, id="zero-and-smallest"),
])
def test_threshold_lies_between_extreme_neighbours(a, b):
    t, g = best_threshold([a, b], ["x", "y"])
    assert a <= t < b  # x <= t separates the two values: left {a}, right {b}
    assert np.isfinite(t)
    assert g == pytest.approx(1.0, abs=TOL)  # one bit: both classes separated


def test_zero_weight_rows_are_as_if_absent():
    # the row x = 2 has weight 0: the only cut is between 1 and 3, at their midpoint
    t, g = best_threshold([1, 2, 3], ["a", "b", "b"], sample_weight=[1, 0, 1])
    assert (t, g) == (2.0, pytest.approx(1.0, abs=TOL))
    assert best_threshold([1, 3], ["a", "b"]) == (t, g)


@pytest.mark.parametrize("kind", ["distinct", "ties", "two missing", "one missing", "signed zero"])
def test_sorted_rows_is_the_stable_sort(kind):
    """TrainingSet.sorted_rows takes numpy's fast sort where no two values are equal; the
    order must be the stable sort's in every case, equal values in row order, missing last."""
    from dtree._validation import Feature
    from dtree.splits import TrainingSet
    rng = np.random.default_rng(5)
    x = rng.normal(size=200) if kind in ("distinct", "one missing") else rng.integers(
        0, 7, 200).astype(float)
    if kind == "two missing":
        x[[3, 150]] = np.nan
    elif kind == "one missing":
        x[42] = np.nan
    elif kind == "signed zero":
        x = rng.normal(size=200)
        x[[10, 11]] = 0.0, -0.0
    rows = rng.permutation(200)[:150]
    table = TrainingSet.of(x[:, None], [Feature("x")], np.zeros(200), 2)
    expected = np.argsort(x[rows], kind="stable")
    np.testing.assert_array_equal(table.sorted_rows(rows)[0], expected)

"""C45Classifier(variant="j48") against Weka's J48 itself (``J48 -U -M 2``: unpruned, with its
subtree collapsing), on the ARFF files shipped with dtree; and the J48 rules on small cases
worked by hand, which run everywhere."""
from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from references import J48_PRUNED, J48_UNPRUNED, j48, requires_weka

from dtree import C45Classifier, kernels
from dtree.datasets import ARFF_DATASETS, load_adult, load_arff
from dtree.pruning import added_errors, prune_error_based

DATA = Path(__file__).parents[1] / "dtree" / "datasets" / "data"


@cache
def weka(name: str):
    return j48(DATA / f"{name}.arff", J48_UNPRUNED)


@cache
def ours(name: str):
    X, y = load_arff(name, return_X_y=True)
    return C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y), X, y


def weka_round(x: float, decimals: int) -> float:
    """``x`` as Weka prints it (``Utils.doubleToString``): halves round away from zero, where
    Python's round() takes the even neighbour (3.125 prints as 3.13; round gives 3.12)."""
    scaled = abs(x) * 10.0 ** decimals
    return math.copysign(math.floor(scaled + 0.5) / 10 ** decimals, x)


def differences(model, node, reference, path=(), parent=None):
    """Where our tree and Weka's printed one differ, as (path, ours, Weka's) tuples. Tests and
    thresholds are compared as Weka prints them (6 decimals), leaf weights and errors to 2
    decimals. A leaf whose largest class weights tie may carry any of the tied classes: Weka
    takes the first in the ARFF header's order, dtree the first in ``classes_`` (sorted); Weka
    counts weights within 1e-6 as equal. An empty leaf shows its parent's class."""
    if node.is_leaf or reference.is_leaf:
        if not (node.is_leaf and reference.is_leaf):
            return [(path, "leaf" if node.is_leaf else node.feature, reference.label)]
        weight, top = node.weighted_n_samples, float(node.value.max())
        counts = parent.value if weight == 0 else node.value
        tied = {str(c) for c, v in zip(model.classes_, counts) if v >= counts.max() - 1e-6}
        errors = weight - top
        mine = (weka_round(weight, 2), weka_round(errors, 2) if errors > 1e-6 else 0.0)
        if reference.label not in tied or mine != (reference.weight, reference.errors):
            return [(path, (sorted(tied), *mine),
                     (reference.label, reference.weight, reference.errors))]
        return []
    if node.threshold is not None:
        t = weka_round(node.threshold, 6)
        tests = [(node.feature, "<=", t), (node.feature, ">", t)]
    else:
        tests = [(node.feature, "=", str(next(iter(s)))) for s in node.category_sets]
    theirs = [child.test for child in reference.children]
    if tests != theirs:
        return [(path, tests, theirs)]
    return [d for child, ref, test in zip(node.children, reference.children, tests)
            for d in differences(model, child, ref, path + (test,), node)]


def test_same_tree_as_weka_j48_on_adult():
    # 32,561 rows, 6 numeric and 8 nominal columns, 4,262 missing values: 6,812 leaves
    # (J48's output stored in tests/weka/, as for every adult test here)
    X, y = load_adult(return_X_y=True)
    frame = X.assign(income=pd.Categorical(y))
    reference = j48(frame, J48_UNPRUNED, stored="adult_unpruned.txt.gz")
    model = C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y)
    assert differences(model, model.tree_.root, reference.tree) == []
    assert (model.get_n_leaves(), sum(1 for _ in model.tree_.walk())) == (
        reference.n_leaves, reference.size)
    assert int((model.predict(X) == np.asarray(y)).sum()) == reference.correct


@requires_weka
@pytest.mark.parametrize("name", ARFF_DATASETS)
def test_same_tree_as_weka_j48(name):
    model, X, y = ours(name)
    reference = weka(name)
    assert differences(model, model.tree_.root, reference.tree) == []
    assert model.get_n_leaves() == reference.n_leaves
    assert sum(1 for _ in model.tree_.walk()) == reference.size
    correct = int((model.predict(X) == np.asarray(y)).sum())
    assert correct == reference.correct and len(y) == reference.total


# --- the J48 rules, worked by hand (no Weka needed) ----------------------------------------

def test_threshold_moves_down_to_a_training_value():
    # weather.numeric, sunny days: humidity 70, 70 (yes) | 85, 90, 95 (no). The midpoint 77.5
    # becomes 75, the largest humidity in the whole training set not above it (an overcast day)
    model, _, _ = ours("weather.numeric")
    sunny = model.tree_.children[0]
    assert sunny.feature == "humidity" and sunny.threshold == 75
    textbook = C45Classifier(min_samples_leaf=2).fit(*load_arff("weather.numeric",
                                                                return_X_y=True))
    assert textbook.tree_.children[0].threshold == 77.5


def test_mdl_penalty_on_a_threshold_gain():
    # x = 1..8 with classes a a a a b b b b: 7 cuts between distinct values; with -M 1 each has
    # min_split = max(0.1 * 8 / 2, 1) = 1, so all 7 count. The best cut (4.5) has gain 1 bit,
    # less log2(7)/8 = 0.35 for choosing among 7: 0.649. IV = 1, so the gain ratio is 0.649.
    X = pd.DataFrame({"x": np.arange(1.0, 9.0)})
    y = np.array(list("aaaabbbb"))
    model = C45Classifier(variant="j48", min_samples_leaf=1).fit(X, y)
    expected = 1 - math.log2(7) / 8
    assert model.tree_.gains["x"] == pytest.approx(expected)
    assert model.tree_.scores["x"] == pytest.approx(expected)
    assert model.tree_.root.threshold == 4  # the midpoint 4.5 moves down to 4
    textbook = C45Classifier().fit(X, y)
    assert textbook.tree_.gains["x"] == pytest.approx(1.0)


def test_a_cut_needs_min_split_on_each_side():
    # 40 rows, 2 classes: min_split = 0.1 * 40 / 2 = 2 = -M 2. The only pure cut leaves one row
    # on the left; J48 may not take it, the textbook variant with min_samples_leaf=1 does.
    X = pd.DataFrame({"x": np.arange(40.0)})
    y = np.array(["a"] + ["b"] * 39)
    j = C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y)
    assert j.tree_.is_leaf
    t = C45Classifier(min_samples_leaf=1).fit(X, y)
    assert t.tree_.root.threshold == 0.5


def test_subtree_that_does_not_lower_the_error_is_collapsed():
    # x = p: 4 a + 1 b, x = q: 3 a + 2 b. The split gains H(0.3) - (H(0.2) + H(0.4))/2 = 0.035
    # bits, but both children predict a: 1 + 2 errors, as many as the root's 3. J48 collapses
    # it; the textbook variant keeps it
    X = pd.DataFrame({"x": pd.Categorical(list("pppppqqqqq"))})
    y = np.array(list("aaaab" "aaabb"))
    j = C45Classifier(variant="j48", min_samples_leaf=1).fit(X, y)
    assert j.tree_.is_leaf and j.tree_.stop_reason == "collapsed"
    assert j.tree_.gains["x"] == pytest.approx(0.881291 - (0.721928 + 0.970951) / 2, abs=1e-6)
    assert C45Classifier().fit(X, y).get_n_leaves() == 2


def test_many_valued_attributes_are_left_out_of_the_average():
    # 10 rows; "id" has 10 values >= 0.3 x 10, so J48 leaves it out of the average gain.
    # id: gain 1, IV log2(10), ratio 0.301. flag (x: 5 a + 1 b, y: 4 b): gain
    # 1 - 0.6 H(1/6) = 0.610, IV H(0.6) = 0.971, ratio 0.628. The textbook average
    # (1 + 0.610)/2 = 0.805 shuts flag out and id wins; J48's average is flag's gain alone.
    y = np.array(list("aaaaabbbbb"))
    X = pd.DataFrame({"id": pd.Categorical([str(i) for i in range(10)]),
                      "flag": pd.Categorical(list("xxxxxxyyyy"))})
    j = C45Classifier(variant="j48", min_samples_leaf=1).fit(X, y)
    assert j.tree_.shortlist == ("id", "flag") and j.tree_.root.feature == "flag"
    h = -(1 / 6 * math.log2(1 / 6) + 5 / 6 * math.log2(5 / 6))
    assert j.tree_.gains["flag"] == pytest.approx(1 - 0.6 * h)
    textbook = C45Classifier(min_samples_leaf=1).fit(X, y)
    assert textbook.tree_.shortlist == ("id",) and textbook.tree_.root.feature == "id"


def test_variant_is_checked():
    X, y = pd.DataFrame({"x": [1.0, 2.0]}), np.array(["a", "b"])
    with pytest.raises(ValueError, match="variant must be one of"):
        C45Classifier(variant="weka").fit(X, y)


def test_a_cut_that_gains_nothing_after_the_penalty_is_no_split():
    # x = 1..4, classes a b a b; with -M 1 all three cuts count. The best, 1.5 (or 3.5), gains
    # 1 - 3/4 H(1/3) = 0.311 bits, less than log2(3)/4 = 0.396: no split, for lack of gain
    X, y = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0]}), np.array(list("abab"))
    root = C45Classifier(variant="j48", min_samples_leaf=1).fit(X, y).tree_
    assert root.is_leaf and root.stop_reason == "no_gain"
    assert C45Classifier(min_samples_leaf=1).fit(X, y).tree_.root.threshold == 1.5


# --- error-based pruning: J48's default tree (-C 0.25 -M 2) ----------------------------------

@requires_weka
@pytest.mark.parametrize("subtree_raising", [True, False], ids=["raising", "no-raising"])
@pytest.mark.parametrize("name", ARFF_DATASETS)
def test_error_based_pruning_gives_j48s_pruned_tree(name, subtree_raising):
    model, X, y = ours(name)
    pruned = prune_error_based(model, X, y, confidence=0.25, subtree_raising=subtree_raising)
    options = J48_PRUNED if subtree_raising else (*J48_PRUNED, "-S")
    reference = j48(DATA / f"{name}.arff", options)
    fitted = C45Classifier.j48(subtree_raising=subtree_raising).fit(X, y)  # pruned at fit
    for tree in (pruned, fitted):
        assert differences(tree, tree.tree_.root, reference.tree) == []
        assert tree.get_n_leaves() == reference.n_leaves
        assert sum(1 for _ in tree.tree_.walk()) == reference.size
        correct = int((tree.predict(X) == np.asarray(y)).sum())
        assert correct == reference.correct and len(y) == reference.total
    assert model.get_n_leaves() == weka(name).n_leaves  # the input is untouched


def test_error_based_pruning_on_adult():
    X, y = load_adult(return_X_y=True)
    model = C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y)
    pruned = prune_error_based(model, X, y)
    reference = j48(X.assign(income=pd.Categorical(y)), J48_PRUNED, stored="adult_pruned.txt.gz")
    assert differences(pruned, pruned.tree_.root, reference.tree) == []
    assert pruned.get_n_leaves() == reference.n_leaves == 564
    assert sum(1 for _ in pruned.tree_.walk()) == reference.size
    assert int((pruned.predict(X) == np.asarray(y)).sum()) == reference.correct


def adult_four_times() -> tuple[pd.DataFrame, np.ndarray]:
    """Adult's rows four times over, each numeric column plus Gaussian noise with 1% of its
    standard deviation (numpy's default_rng(0), the columns in order): 130,244 rows whose
    numbers nearly repeat, so that values closer than 1e-6 and branches of equal weight occur."""
    X, y = load_adult(return_X_y=True)
    noisy = pd.concat([X] * 4, ignore_index=True)
    rng = np.random.default_rng(0)
    for name in X.select_dtypes("number"):
        noisy[name] = noisy[name] + rng.normal(0, 0.01 * X[name].std(), len(noisy))
    return noisy, np.tile(np.asarray(y), 4)


def test_error_based_pruning_on_adult_four_times():
    # Two J48 rules that adult itself does not reach. Thresholds: at five cuts the largest
    # training value below the cut has a smaller one within 1e-6 earlier in row order, and J48
    # keeps that one (hours-per-week 44.997424, not 44.997425). Subtree raising: at two nodes
    # the largest branches tie ("education" below "relationship = Husband": 7 and 7 rows;
    # "age": 8 and 8); J48 raises the last of them, a subtree that lowers the estimated errors
    # (6.27 and 3.65, against 6.28 and 4.44 for the node as it is), where the first is a leaf;
    # raising the first leaves 10,459 leaves. An unpruned leaf of weight 3.125 with 1.125
    # errors prints as "(3.13/1.13)" (weka_round)
    X, y = adult_four_times()
    frame = X.assign(income=pd.Categorical(y))
    model = C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y)
    unpruned = j48(frame, J48_UNPRUNED, stored="adult_x4_unpruned.txt.gz")
    assert differences(model, model.tree_.root, unpruned.tree) == []
    assert model.get_n_leaves() == unpruned.n_leaves == 16350
    pruned = prune_error_based(model, X, y)
    reference = j48(frame, J48_PRUNED, stored="adult_x4_pruned.txt.gz")
    assert differences(pruned, pruned.tree_.root, reference.tree) == []
    assert pruned.get_n_leaves() == reference.n_leaves == 10443
    assert int((pruned.predict(X) == y).sum()) == reference.correct


def test_threshold_moves_to_the_first_of_values_closer_than_1e_6():
    # Weka's C45Split.setSplitPoint, cut at 3.5: in row order it keeps 2.0, and 2.0000005 is not
    # above 2.0 by more than 1e-6, so 2.0 stays; in the other order 2.0000005 is kept. A value
    # less than 1e-6 above the cut counts as not above it; NaN (missing) is passed over
    assert kernels.j48_split_point(np.array([2.0, 1.0, 2.0000005, 5.0, np.nan]), 3.5) == 2.0
    assert kernels.j48_split_point(np.array([2.0000005, 1.0, 2.0, 5.0]), 3.5) == 2.0000005
    assert kernels.j48_split_point(np.array([2.0, 3.5000005, 5.0]), 3.5) == 3.5000005


def test_added_errors_by_hand():
    # Quinlan (1993, ch. 4): at CF = 25%, no error among 6 rows is an error rate of 0.206, among
    # 9 of 0.143, in 1 row of 0.75: n (1 - CF^(1/n)). From one error on, the normal
    # approximation with z = 0.6745, f = (e + 0.5)/n (Weka's Stats.addErrs)
    assert added_errors(6, 0, 0.25) / 6 == pytest.approx(1 - 0.25 ** (1 / 6))
    assert round(added_errors(6, 0, 0.25) / 6, 3) == 0.206
    assert round(added_errors(9, 0, 0.25) / 9, 3) == 0.143
    assert added_errors(1, 0, 0.25) == pytest.approx(0.75)
    z, n, e = 0.6744897501960817, 16, 1
    f = (e + 0.5) / n
    upper = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    assert added_errors(n, e, 0.25) == pytest.approx(upper * n - e)
    assert added_errors(4, 3.6, 0.25) == pytest.approx(0.4)  # e + 0.5 >= n: n - e


def test_error_based_pruning_log_and_bad_calls():
    model, X, y = ours("labor")
    pruned = prune_error_based(model, X, y)
    assert set(pruned.pruning_log_["decision"]) <= {"leaf", "keep"} | {
        f"raise branch {b}" for b in range(4)}
    assert (pruned.pruning_log_["decision"] == "leaf").any()
    with pytest.raises(ValueError, match="confidence"):
        prune_error_based(model, confidence=0.75)
    with pytest.raises(TypeError, match="subtree_raising"):
        prune_error_based(model, subtree_raising="yes")
    with pytest.raises(ValueError, match="pass them"):  # raising needs the training rows
        prune_error_based(model)
    with pytest.raises(ValueError, match="not the rows the model was fitted on"):
        prune_error_based(model, X.iloc[:20], y[:20])
    with pytest.raises(ValueError, match="confidence"):
        C45Classifier.j48(confidence=0.75).fit(X, y)

"""CART's ``min_weight_fraction_leaf``, scikit-learn's: each side of a split needs at least
that fraction of the total training weight. By hand, then against scikit-learn's trees on
weighted data where the two coincide (ties aside), missing values included."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from test_cart import CLASSIFICATION, REGRESSION, assert_same_tree, float32_exact
from test_missing_learn import assert_same_tree as assert_same_learned_tree
from test_missing_learn import gappy_data

from dtree import CARTClassifier, CARTRegressor


def test_a_light_side_is_refused_by_hand():
    # weights 1, 1, 1, 7 (total 10); a fraction 0.15 asks 1.5 of weight on each side.
    # Unconstrained, x <= 0.5 isolates the one row of class 0 (a decrease of the whole
    # Gini, 10 (1 - 0.1^2 - 0.9^2) = 1.8). Its left side weighs 1 < 1.5: refused. Left:
    #   x <= 1.5: sides (1, 1) and (0, 8): 10 x 0.18 - 2 x 1/2 - 0 = 0.8
    #   x <= 2.5: sides (1, 2) and (0, 7): 1.8 - 3 (1 - 1/9 - 4/9) = 1.8 - 4/3 = 0.467
    # so x <= 1.5 wins, and its left child (weight 2) cannot be split into two sides of 1.5.
    X, y, w = [[0], [1], [2], [3]], [0, 1, 1, 1], [1, 1, 1, 7]
    free = CARTClassifier().fit(X, y, sample_weight=w)
    assert free.tree_.root.threshold == 0.5
    model = CARTClassifier(min_weight_fraction_leaf=0.15).fit(X, y, sample_weight=w)
    assert model.tree_.root.threshold == 1.5
    left, right = model.tree_.children
    assert left.is_leaf and right.is_leaf
    assert left.value.tolist() == [1, 1] and right.value.tolist() == [0, 8]
    assert left.stop_reason == "min_weight_fraction_leaf"  # its rows alone would split it
    # with min_samples_leaf=2 the rows block it too: the first rule tried names it
    both = CARTClassifier(min_weight_fraction_leaf=0.15, min_samples_leaf=2).fit(
        X, y, sample_weight=w)
    assert both.tree_.root.threshold == 1.5
    assert both.tree_.children[0].stop_reason == "min_samples_leaf"
    # 0.1 asks exactly 1: the lone row of class 0 is allowed again (>=, as scikit-learn)
    assert CARTClassifier(min_weight_fraction_leaf=0.1).fit(
        X, y, sample_weight=w).tree_.root.threshold == 0.5


def test_the_fraction_is_of_the_class_weighted_total():
    # class_weight {0: 4, 1: 1} makes the weights 4, 1, 1, 7 (total 13): a fraction 0.3 asks
    # 3.9. x <= 0.5 leaves 4 on the left and 9 on the right: allowed, and it is pure.
    X, y, w = [[0], [1], [2], [3]], [0, 1, 1, 1], [1, 1, 1, 7]
    model = CARTClassifier(min_weight_fraction_leaf=0.3, class_weight={0: 4, 1: 1}).fit(
        X, y, sample_weight=w)
    assert model.tree_.root.threshold == 0.5
    # without the class weight the left side would weigh 1 of 10 (< 3): no such split
    assert CARTClassifier(min_weight_fraction_leaf=0.3).fit(
        X, y, sample_weight=w).tree_.root.threshold == 2.5


CASES = ([(CARTClassifier, DecisionTreeClassifier, name, criterion, fraction)
          for name in CLASSIFICATION for criterion in ("gini", "entropy")
          for fraction in (0.01, 0.05, 0.2)]
         + [(CARTRegressor, DecisionTreeRegressor, name, "squared_error", fraction)
            for name in REGRESSION for fraction in (0.01, 0.05, 0.2)])


@pytest.mark.parametrize("ours_class, theirs_class, name, criterion, fraction", CASES,
                         ids=[f"{c[2]}-{c[3]}-{c[4]}" for c in CASES])
def test_same_tree_as_sklearn_with_weights(ours_class, theirs_class, name, criterion,
                                           fraction):
    X, y = {**CLASSIFICATION, **REGRESSION}[name]()
    X = float32_exact(X)
    w = np.random.default_rng(0).integers(1, 6, len(y)).astype(float)
    settings = dict(criterion=criterion, min_weight_fraction_leaf=fraction)
    ours = ours_class(**settings).fit(X, y, sample_weight=w)
    theirs = theirs_class(random_state=0, **settings).fit(X, y, sample_weight=w)
    assert_same_tree(ours, theirs)
    assert ours.get_n_leaves() == theirs.get_n_leaves()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("fraction", [0.05, 0.15])
def test_learned_missing_sides_count_in_the_weight_as_sklearn(seed, fraction):
    X, y, w = gappy_data(seed)
    ours = CARTClassifier(missing="learn", min_samples_leaf=5,
                          min_weight_fraction_leaf=fraction).fit(X, y, sample_weight=w)
    theirs = DecisionTreeClassifier(min_samples_leaf=5, min_weight_fraction_leaf=fraction,
                                    random_state=0).fit(X, y, sample_weight=w)
    assert_same_learned_tree(ours.tree_.root, theirs.tree_)


@pytest.mark.parametrize("value, error", [(0.6, ValueError), (-0.1, ValueError),
                                          (True, TypeError), ("0.1", TypeError)])
def test_bad_fractions_are_refused(value, error):
    with pytest.raises(error, match="min_weight_fraction_leaf"):
        CARTRegressor(min_weight_fraction_leaf=value).fit([[0], [1]], [0.0, 1.0])

"""The two-step (test, then cut) attribute choice: ctree's independence test by hand, and
against R's partykit at the root of credit-g and of data where ctree stops."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2

from dtree.datasets import load_arff
from dtree.selection import independence_test, two_step_choice
from references import ctree_root, requires_partykit


def test_two_categories_by_hand():
    """x = a: 3 yes, 1 no; x = b: 1 yes, 3 no. Every expected count is 2, so Pearson's
    chi-square is 4 x 1^2 / 2 = 2; the permutation statistic is (n - 1)/n of it, 1.75, on
    (2 - 1)(2 - 1) = 1 degree of freedom."""
    x = ["a"] * 4 + ["b"] * 4
    y = ["yes", "yes", "yes", "no", "yes", "no", "no", "no"]
    statistic, p, df = independence_test(x, y)
    assert (statistic, df) == (pytest.approx(1.75), 1)
    assert p == pytest.approx(chi2.sf(1.75, 1))


def test_a_number_by_hand_and_missing_values_left_out():
    """x = 1, 2, 3, 4 against classes 0, 0, 1, 1: the statistic is (n - 1) r^2, r the
    correlation of x with the class indicator, 2 / sqrt(5 x 1): 3 x 0.8 = 2.4."""
    statistic, _, df = independence_test([1.0, 2.0, 3.0, 4.0, np.nan], [0, 0, 1, 1, 0])
    assert (statistic, df) == (pytest.approx(2.4), 1)


def test_the_choice_and_its_stop():
    X, y = load_arff("credit-g", return_X_y=True)
    choice = two_step_choice(X, y)
    assert choice.attribute == "checking_status" and not choice.stops
    p = choice.tests["p"]
    np.testing.assert_allclose(choice.tests["adjusted p"], 1 - (1 - p) ** len(p), atol=1e-12)
    noise = pd.DataFrame({"u": np.random.default_rng(0).normal(size=40)})
    assert two_step_choice(noise, [0, 1] * 20).stops
    with pytest.raises(ValueError, match="alpha"):
        two_step_choice(noise, [0, 1] * 20, alpha=1.5)


@requires_partykit
@pytest.mark.parametrize("name", ["credit-g", "weather.nominal"])
def test_partykit_ctree_at_the_root(name):
    frame = load_arff(name)
    target = frame.columns[-1]
    X, y = frame.drop(columns=target), frame[target]
    ours = two_step_choice(X, y)
    theirs = ctree_root(frame, target)
    np.testing.assert_allclose(ours.tests["statistic"], theirs.loc[X.columns, "statistic"],
                               rtol=1e-7)
    np.testing.assert_allclose(ours.tests["adjusted p"], theirs.loc[X.columns, "adjusted"],
                               rtol=1e-6, atol=1e-9)
    assert (ours.attribute or "") == theirs["chosen"].iloc[0]

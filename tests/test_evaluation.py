"""The corrected resampled t-test (Nadeau and Bengio 2003), against hand calculations."""
import math

import pytest

from dtree import corrected_t_test

T_975_3 = 3.182446305284263  # Student's t, 3 degrees of freedom, upper 2.5% point (tables)


def test_hand_calculation():
    # d = (0.1, 0.2, 0.3, 0.0): mean 0.15, s² = 0.05 / 3; J = 4 and n_test/n_train = 1/4 give
    # t = 0.15 / sqrt((1/4 + 1/4) · 0.05/3) = 0.15 / sqrt(1/120) = 0.15 · sqrt(120)
    t, _ = corrected_t_test([0.9, 0.8, 0.7, 0.5], [0.8, 0.6, 0.4, 0.5], test_share=1 / 4)
    assert t == pytest.approx(0.15 * math.sqrt(120), rel=1e-12)


def test_p_at_the_tabled_point():
    # d = (1 + c, 1 - c, 1 + c, 1 - c): mean 1, s² = 4c²/3; with share 1/4, t = 1 / (c sqrt(2/3))
    # equals the 2.5% point of t(3) when c = 1 / (T sqrt(2/3)): two-sided p = 0.05
    c = 1 / (T_975_3 * math.sqrt(2 / 3))
    d = [1 + c, 1 - c, 1 + c, 1 - c]
    t, p = corrected_t_test(d, [0, 0, 0, 0], test_share=1 / 4)
    assert t == pytest.approx(T_975_3, rel=1e-12)
    assert p == pytest.approx(0.05, rel=1e-9)
    assert corrected_t_test([0, 0, 0, 0], d, 1 / 4)[0] == pytest.approx(-T_975_3, rel=1e-12)


def test_wider_than_the_plain_paired_test():
    a, b = [0.81, 0.79, 0.84, 0.80, 0.83], [0.78, 0.79, 0.80, 0.77, 0.80]
    plain = corrected_t_test(a, b, test_share=1e-300)  # the correction switched off
    corrected = corrected_t_test(a, b, test_share=1 / 4)
    assert corrected[0] == pytest.approx(plain[0] / math.sqrt((1 / 5 + 1 / 4) * 5), rel=1e-12)
    assert corrected[1] > plain[1]


def test_equal_differences():
    assert corrected_t_test([0.5, 0.6], [0.5, 0.6], 1 / 9) == (0.0, 1.0)
    assert corrected_t_test([0.6, 0.7], [0.5, 0.6], 1 / 9) == (math.inf, 0.0)


@pytest.mark.parametrize("a, b, share, message", [
    ([0.5], [0.4], 1 / 9, "at least two"),
    ([0.5, 0.6], [0.4], 1 / 9, "equal-length"),
    ([0.5, 0.6], [0.4, 0.3], 0, "positive"),
])
def test_bad_input(a, b, share, message):
    with pytest.raises(ValueError, match=message):
        corrected_t_test(a, b, share)

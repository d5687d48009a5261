"""verify(): the precision rule, errata, strings, and the table it returns."""
from __future__ import annotations

from math import log2

import pandas as pd
import pytest

from dtree.verify import Claim, verify


def test_agreeing_claims_give_a_table():
    table = verify([("Gain(D, texture)", 0.381, 0.38064), ("root", "texture", "texture")])
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["quantity", "source", "dtree", "agrees"]
    assert table["quantity"].tolist() == ["Gain(D, texture)", "root"]
    assert table["source"].tolist() == ["0.381", "texture"]
    assert table["dtree"].tolist() == ["0.38064", "texture"]  # stated decimals + 2
    assert table["agrees"].tolist() == ["✓", "✓"]


@pytest.mark.parametrize("stated, computed, agrees", [
    (0.88, 0.8849, True),    # 0.88 states 2 decimals: anything that rounds to 0.88
    (0.88, 0.8751, True),
    (0.88, 0.8851, False),
    (0.88, 0.8749, False),
    (0.5, 0.54, True),       # 1 decimal
    (0.5, 0.56, False),
    (9, 9.4, True),          # an integer states 0 decimals
    (9, 9.6, False),
    (0.109, 0.10812, False),  # Zhou's Gain(D, colour)
    (0.108, 0.10812, True),
    (4.088, log2(17), False),  # Zhou's IV(id): log2 17 = 4.08746
    (0.006, 0.00598, True),
])
def test_precision_rule(stated, computed, agrees):
    assert Claim("q", stated, computed).agrees is agrees
    if agrees:
        assert verify([("q", stated, computed)])["agrees"].tolist() == ["✓"]
    else:
        with pytest.raises(AssertionError, match="q: source"):
            verify([("q", stated, computed)])


def test_explicit_decimals_override_the_float():
    # 1.580 as a float is 1.58; Claim(decimals=3) keeps Zhou's three decimals
    assert Claim("IV", 1.580, 1.5849).agrees is True
    assert Claim("IV", 1.580, 1.5849, decimals=3).agrees is False
    assert Claim("IV", 1.580, 1.5799, decimals=3).agrees is True
    assert verify([Claim("IV", 1.580, 1.5799, decimals=3)])["dtree"].tolist() == ["1.57990"]


def test_erratum_that_disagrees_is_shown():
    table = verify([("Gain(D, colour)", 0.109, 0.10812, "erratum"),
                    ("Gain(D, touch)", 0.006, 0.00598)])
    assert table["agrees"].tolist() == ["✗ erratum", "✓"]
    assert table["source"].tolist() == ["0.109", "0.006"]
    assert table["dtree"].tolist() == ["0.10812", "0.00598"]


def test_erratum_that_agrees_raises():
    with pytest.raises(AssertionError, match="marked erratum but agrees"):
        verify([("Gain(D, texture)", 0.381, 0.38064, "erratum")])


def test_disagreement_without_erratum_raises_and_names_it():
    message = r"colour: source 0\.109, dtree 0\.10812 \(disagrees\)"
    with pytest.raises(AssertionError, match=message):
        verify([("texture", 0.381, 0.38064), ("colour", 0.109, 0.10812)])


def test_strings_compare_exactly():
    assert Claim("root", "texture", "texture").agrees
    assert not Claim("root", "texture", "Texture").agrees
    assert not Claim("root", "texture", "texture ").agrees
    with pytest.raises(AssertionError):
        verify([("best attribute", "纹理", "触感")])
    table = verify([("best attribute", "触感", "纹理", "erratum")])
    assert table["agrees"].tolist() == ["✗ erratum"]
    assert table["dtree"].tolist() == ["纹理"]


def test_non_number_computed_compared_as_text():
    assert Claim("leaves", "9", 9).agrees  # a string statement is compared as text
    assert not Claim("leaves", "9", 9.0).agrees


def test_unknown_flag():
    with pytest.raises(ValueError, match="erratum"):
        verify([("q", 0.1, 0.1, "typo")])


def test_claim_objects_pass_through():
    table = verify([Claim("q", 0.25, 0.2504), ("r", 1, 1.2)])
    assert table["agrees"].tolist() == ["✓", "✓"]
    assert table["dtree"].tolist() == ["0.2504", "1.2000"]  # at least 4 decimals


def test_empty_claims():
    table = verify([])
    assert list(table.columns) == ["quantity", "source", "dtree", "agrees"] and len(table) == 0

"""verify(): the precision rule, errata, strings, and the table it returns (frame, HTML, text)."""
from __future__ import annotations

from math import inf, log2, nan

import pandas as pd
import pytest

from dtree.verify import ERRATUM_STYLE, Claim, Verification, verify


def test_agreeing_claims_give_a_table():
    result = verify([("Gain(D, texture)", 0.381, 0.38064), ("root", "texture", "texture")])
    assert isinstance(result, Verification) and len(result) == 2
    table = result.frame
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
        assert verify([("q", stated, computed)]).frame["agrees"].tolist() == ["✓"]
    else:
        with pytest.raises(AssertionError, match="q: source"):
            verify([("q", stated, computed)])


def test_explicit_decimals_override_the_float():
    # 1.580 as a float is 1.58; Claim(decimals=3) keeps Zhou's three decimals
    assert Claim("IV", 1.580, 1.5849).agrees is True
    assert Claim("IV", 1.580, 1.5849, decimals=3).agrees is False
    assert Claim("IV", 1.580, 1.5799, decimals=3).agrees is True
    assert verify([Claim("IV", 1.580, 1.5799, decimals=3)]).frame.iloc[0].tolist() == [
        "IV", "1.580", "1.57990", "✓"]  # the source column keeps the stated decimals


def test_erratum_that_disagrees_is_shown():
    table = verify([("Gain(D, colour)", 0.109, 0.10812, "erratum"),
                    ("Gain(D, touch)", 0.006, 0.00598)]).frame
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
    table = verify([("best attribute", "触感", "纹理", "erratum")]).frame
    assert table["agrees"].tolist() == ["✗ erratum"]
    assert table["dtree"].tolist() == ["纹理"]


def test_non_number_computed_compared_as_text():
    assert Claim("leaves", "9", 9).agrees  # a string statement is compared as text
    assert not Claim("leaves", "9", 9.0).agrees


def test_unknown_flag():
    with pytest.raises(ValueError, match="erratum"):
        verify([("q", 0.1, 0.1, "typo")])


def test_claim_objects_pass_through():
    table = verify([Claim("q", 0.25, 0.2504), ("r", 1, 1.2)]).frame
    assert table["agrees"].tolist() == ["✓", "✓"]
    assert table["dtree"].tolist() == ["0.2504", "1.20"]  # stated decimals + 2


@pytest.mark.parametrize("stated, computed, shown", [
    (0.0, 0.0, "0"),             # an exact zero
    (0, 0, "0"),
    (0.0, 2.2e-16, "2.2e-16"),   # rounds to zero at 0 + 2 decimals: not "0.00"
    (0.5, 0.50331, "0.503"),     # 1 decimal stated: 3 shown
    (0.381, 0.380592, "0.38059"),
    (9, 9.0, "9"),               # an integer stated and computed stays an integer
    (9, 9.4, "9.40"),
    (0.88, nan, "nan"),          # shown, and it disagrees (below)
])
def test_computed_value_shown_to_stated_precision_plus_two(stated, computed, shown):
    assert Claim("q", stated, computed).shown() == shown


def test_tiny_value_at_explicit_precision_is_not_a_row_of_zeros():
    claim = Claim("max |diff|", 0.0, 1.1e-16, decimals=12)
    assert claim.agrees and claim.shown() == "1.1e-16"
    assert verify([claim]).frame["source"].tolist() == ["0.000000000000"]


@pytest.mark.parametrize("stated", [nan, inf, -inf])
def test_non_finite_stated_value_is_a_clear_error(stated):
    with pytest.raises(ValueError, match="claim 'H': the stated value .* not a finite number"):
        verify([("H", stated, 0.5)])


def test_non_finite_computed_value_disagrees():
    with pytest.raises(AssertionError, match="H: source 0.88, dtree nan \\(disagrees\\)"):
        verify([("H", 0.88, nan)])
    assert verify([("H", 0.88, inf, "erratum")]).frame["dtree"].tolist() == ["inf"]


def test_text_computed_for_a_stated_number_is_a_clear_error():
    with pytest.raises(TypeError, match="claim 'H'.*computed value must be one too"):
        verify([("H", 0.88, "high")])


def test_html_has_no_index_left_aligned_claims_and_highlighted_errata():
    result = verify([("Gain(D, colour)", 0.109, 0.10812, "erratum"),
                     ("root <attribute>", "texture", "texture")])
    page = result._repr_html_()
    rule = " border-bottom: 1px solid;"
    header = ('<thead><tr>'
              f'<th style="padding: 0.2em 0.8em; text-align: left;{rule}">quantity</th>'
              f'<th style="padding: 0.2em 0.8em; text-align: right;{rule}">source</th>'
              f'<th style="padding: 0.2em 0.8em; text-align: right;{rule}">dtree</th>'
              f'<th style="padding: 0.2em 0.8em; text-align: center;{rule}">agrees</th>'
              '</tr></thead>')
    assert header in page
    erratum_row, agreeing_row = page.split("<tbody>")[1].split("</tbody>")[0].strip().split("\n")
    assert erratum_row.count(ERRATUM_STYLE) == 4  # every cell of the ✗ row
    assert erratum_row.startswith('<tr><td style="padding: 0.2em 0.8em; text-align: left; '
                                  f'{ERRATUM_STYLE}">Gain(D, colour)</td>')
    assert ERRATUM_STYLE not in agreeing_row
    assert "root &lt;attribute&gt;" in agreeing_row  # escaped
    assert "<th></th>" not in page and ">0<" not in page  # no index column
    assert page == result._repr_html_()  # deterministic: nbval compares it byte for byte


def test_text_form_is_aligned_without_index():
    text = repr(verify([("H(Y), bits", 0.88, 0.88129), ("best", "纹理", "触感", "erratum")]))
    assert text.splitlines() == [
        "quantity    source   dtree     agrees",
        "H(Y), bits    0.88  0.8813          ✓",
        "best          纹理    触感  ✗ erratum",
    ]


@pytest.mark.parametrize("claims", [[], (), iter([])])
def test_no_claims_is_refused(claims):
    # an empty table would pass while checking nothing
    with pytest.raises(ValueError, match="at least one claim"):
        verify(claims)

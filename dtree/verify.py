"""The book's signature: what a source states, beside what dtree computes, checked.

    verify([
        ("Gain(D, texture)", 0.381, gain),                 # agrees to the 3 decimals stated
        ("best attribute at the root", "touch", best, "erratum"),
    ])

A number agrees when it rounds to the stated value at the precision the source states
(0.88 -> 2 decimals), or at ``decimals`` given explicitly. A claim marked ``"erratum"`` is
expected to disagree. `verify` returns the table and raises AssertionError when a claim disagrees
unexpectedly or when a claimed erratum agrees, so a chapter cannot silently drift.
"""
from __future__ import annotations

import html
import math
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from numbers import Integral, Real

import pandas as pd

__all__ = ["Claim", "Verification", "verify"]

COLUMNS = ("quantity", "source", "dtree", "agrees")
# A ✗ row: light red background with dark text, legible in the light and the dark theme alike.
ERRATUM_STYLE = "background-color: #fde2e1; color: #3d0c0a;"


@dataclass(frozen=True)
class Claim:
    """One stated value of a source and the value computed for it."""

    quantity: str
    stated: float | str
    computed: float | str
    erratum: bool = False
    decimals: int | None = None

    def __post_init__(self) -> None:
        if not self.numeric:
            return
        name = f"claim {self.quantity!r}"
        if not math.isfinite(self.stated):
            raise ValueError(f"{name}: the stated value {self.stated} is not a finite "
                             "number; state it as text (e.g. 'inf') to compare names")
        try:
            float(self.computed)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: the stated value is a number, so the computed "
                            f"value must be one too, got {self.computed!r}") from None

    @property
    def numeric(self) -> bool:
        return isinstance(self.stated, Real) and not isinstance(self.stated, bool)

    # quoted in chapter 1
    @property
    def precision(self) -> int:
        """Decimals the source states: ``decimals`` if given, else read off the
        number (0.88 -> 2)."""
        if self.decimals is not None:
            return self.decimals
        exponent = Decimal(repr(float(self.stated))).normalize().as_tuple().exponent
        return max(0, -exponent)

    # quoted in chapter 1
    @property
    def agrees(self) -> bool:
        if not self.numeric:
            return str(self.stated) == str(self.computed)
        tolerance = 0.5 * 10.0 ** -self.precision + 1e-12
        return abs(float(self.computed) - float(self.stated)) <= tolerance

    def source(self) -> str:
        """The stated value as the source writes it (1.580 with ``decimals=3``)."""
        if self.numeric and self.decimals is not None:
            return f"{float(self.stated):.{self.decimals}f}"
        return str(self.stated)

    def shown(self) -> str:
        """The computed value to two more decimals than stated; 0 for an exact zero, and
        scientific notation for a value too small to show at that precision."""
        if not self.numeric:
            return str(self.computed)
        value = float(self.computed)
        if isinstance(self.stated, Integral) and value.is_integer():
            return str(int(value))
        digits = self.precision + 2
        if value == 0:
            return "0"
        if round(value, digits) == 0:
            return f"{value:.1e}"
        return f"{value:.{digits}f}"

    def verdict(self) -> str:
        return "✓" if self.agrees else "✗ erratum" if self.erratum else "✗"


class Verification:
    """What `verify` returns: a table of the claims that renders like a table in a textbook
    (no index, the claim left-aligned, ✗ rows highlighted). ``frame`` holds it as a DataFrame."""

    def __init__(self, claims: list[Claim]):
        self.claims = claims
        self.frame = pd.DataFrame(
            [(c.quantity, c.source(), c.shown(), c.verdict()) for c in claims],
            columns=list(COLUMNS))

    def __len__(self) -> int:
        return len(self.claims)

    def _repr_html_(self) -> str:
        """A booktabs-style table: rules above, below and under the header (in the text's
        colour, so they show in dark mode too), no index, deterministic (nbval compares it)."""
        align = ("left", "right", "right", "center")
        cell = "padding: 0.2em 0.8em; text-align: {};"
        head = "".join(f'<th style="{cell.format(a)} border-bottom: 1px solid;">{name}</th>'
                       for name, a in zip(COLUMNS, align))
        rows = []
        for claim, cells in zip(self.claims, self.frame.itertuples(index=False)):
            style = "" if claim.agrees else " " + ERRATUM_STYLE
            tds = "".join(f'<td style="{cell.format(a)}{style}">{html.escape(str(text))}</td>'
                          for text, a in zip(cells, align))
            rows.append(f"<tr>{tds}</tr>")
        return ('<table class="dtree-verify" style="border-collapse: collapse; '
                'border-top: 2px solid; border-bottom: 2px solid;">\n'
                f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows)
                + "\n</tbody>\n</table>")

    def __repr__(self) -> str:
        rows = [COLUMNS, *self.frame.itertuples(index=False)]
        widths = [max(_width(str(row[j])) for row in rows) for j in range(len(COLUMNS))]
        lines = ("  ".join(_pad(str(cell), w, left=j == 0)
                           for j, (cell, w) in enumerate(zip(row, widths))) for row in rows)
        return "\n".join(line.rstrip() for line in lines)


def _width(text: str) -> int:
    """Columns a monospaced terminal gives ``text``: wide (e.g. Chinese) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, left: bool) -> str:
    fill = " " * (width - _width(text))
    return text + fill if left else fill + text


def _claim(item) -> Claim:
    if isinstance(item, Claim):
        return item
    quantity, stated, computed, *flags = item
    unknown = [f for f in flags if f != "erratum"]
    if unknown:
        raise ValueError(f"a claim's flags may only be 'erratum', got {unknown}")
    return Claim(quantity, stated, computed, erratum="erratum" in flags)


def verify(claims) -> Verification:
    """Check every claim and return them as a table, a `Verification` (quantity, source, dtree,
    agrees; ``.frame`` holds it as a DataFrame).

    Raises AssertionError naming each claim that disagrees without being marked ``"erratum"``, or
    that is marked ``"erratum"`` but agrees; ValueError or TypeError for a claim that cannot be
    checked (a stated NaN or infinity, text computed for a stated number), and ValueError for
    no claims at all: an empty table would pass without checking anything."""
    claims = [_claim(c) for c in claims]
    if not claims:
        raise ValueError("verify() needs at least one claim: an empty list checks nothing")
    unexpected = [c for c in claims if c.agrees == c.erratum]
    if unexpected:
        lines = [f"{c.quantity}: source {c.source()}, dtree {c.shown()} "
                 f"({'marked erratum but agrees' if c.erratum else 'disagrees'})"
                 for c in unexpected]
        raise AssertionError("verification failed:\n" + "\n".join(lines))
    return Verification(claims)

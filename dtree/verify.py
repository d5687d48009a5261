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

from dataclasses import dataclass
from decimal import Decimal
from numbers import Integral, Real

import pandas as pd

__all__ = ["Claim", "verify"]


@dataclass(frozen=True)
class Claim:
    """One stated value of a source and the value computed for it."""

    quantity: str
    stated: float | str
    computed: float | str
    erratum: bool = False
    decimals: int | None = None

    @property
    def numeric(self) -> bool:
        return isinstance(self.stated, Real) and not isinstance(self.stated, bool)

    @property
    def precision(self) -> int:
        """Decimals the source states: ``decimals`` if given, else read off the number
        (0.88 -> 2)."""
        if self.decimals is not None:
            return self.decimals
        return max(0, -Decimal(repr(float(self.stated))).normalize().as_tuple().exponent)

    @property
    def agrees(self) -> bool:
        if not self.numeric:
            return str(self.stated) == str(self.computed)
        tolerance = 0.5 * 10.0 ** -self.precision + 1e-12
        return abs(float(self.computed) - float(self.stated)) <= tolerance

    def shown(self) -> str:
        if not self.numeric:
            return str(self.computed)
        if isinstance(self.stated, Integral) and float(self.computed).is_integer():
            return str(int(self.computed))
        return f"{float(self.computed):.{max(4, self.precision + 2)}f}"


def _claim(item) -> Claim:
    if isinstance(item, Claim):
        return item
    quantity, stated, computed, *flags = item
    unknown = [f for f in flags if f != "erratum"]
    if unknown:
        raise ValueError(f"a claim's flags may only be 'erratum', got {unknown}")
    return Claim(quantity, stated, computed, erratum="erratum" in flags)


def verify(claims) -> pd.DataFrame:
    """Table of (quantity, source, dtree, agrees) for each claim; asserts the expected outcome."""
    claims = [_claim(c) for c in claims]
    table = pd.DataFrame({
        "quantity": [c.quantity for c in claims],
        "source": [str(c.stated) for c in claims],
        "dtree": [c.shown() for c in claims],
        "agrees": ["✓" if c.agrees else "✗ erratum" if c.erratum else "✗" for c in claims],
    })
    unexpected = [c for c in claims if c.agrees == c.erratum]
    if unexpected:
        lines = [f"{c.quantity}: source {c.stated}, dtree {c.shown()} "
                 f"({'marked erratum but agrees' if c.erratum else 'disagrees'})"
                 for c in unexpected]
        raise AssertionError("verification failed:\n" + "\n".join(lines))
    return table

"""Money: Decimal in the models and on screen, integer centimes inside the engine.

One conversion each way and one rounding helper (ROUND_HALF_UP, as pretix does), so an amount
is rounded once, at the edge, and never summed as a float or inside the database.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def round_money(amount: Decimal) -> Decimal:
    if not isinstance(amount, Decimal):
        raise TypeError(f"money must be a Decimal, not {type(amount).__name__}")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def to_centimes(amount: Decimal | None) -> int:
    return int(round_money(amount or Decimal("0")) * 100)


def from_centimes(centimes: int) -> Decimal:
    return round_money(Decimal(centimes) / 100)

from __future__ import annotations

from decimal import Decimal

from django import template

from games import observations
from games.money import format_money

register = template.Library()


@register.filter
def money(amount: Decimal, currency: str = "EUR") -> str:
    """`{{ amount|money:partie.currency }}` → `2,00 €`. Raises on anything but a Decimal."""
    return format_money(amount, currency)


@register.filter
def signed(points: int | None) -> str:
    """A donne's points as written on the marque: `+25`, `−10`, `0`."""
    if points is None:
        return ""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


@register.filter
def number(value: int | None) -> str:
    """A total with a real minus sign: `−30`."""
    return "" if value is None else observations.number(value)


@register.filter
def ordinal(n: int) -> str:
    """French ordinal abbreviation: 1er, 2e, 3e."""
    return observations.ordinal(n)

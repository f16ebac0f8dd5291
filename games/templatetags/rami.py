from __future__ import annotations

from decimal import Decimal

from django import template

from games import formats
from games.money import format_money

register = template.Library()


@register.filter
def money(amount: Decimal, currency: str = "EUR") -> str:
    """`{{ amount|money:partie.currency }}` → `2,00 €`. Raises on anything but a Decimal."""
    return format_money(amount, currency)


register.filter("signed", formats.signed)
register.filter("number", formats.number)
register.filter("ordinal", formats.ordinal)

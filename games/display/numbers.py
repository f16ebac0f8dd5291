"""How numbers and money are written, in one place for the pages, the sheet, the
observations and the chart: a real minus sign (−30), signed donne points (+25), ordinals
(1er), and amounts in the interface's language (2,00 € in French, €2.00 in English)."""

from __future__ import annotations

from decimal import Decimal

from babel.numbers import format_currency
from django.utils.translation import get_language, to_locale

from games.centimes import round_money

MINUS = "\u2212"


def number(value: int | None) -> str:
    """A total: `−30`, `0`, `27`."""
    if value is None:
        return ""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(points: int | None) -> str:
    """A donne's points as written on the marque: `+25`, `−10`, `0`."""
    if points is None:
        return ""
    return f"+{points}" if points > 0 else number(points)


def ordinal(n: int) -> str:
    """Ordinal abbreviation in the interface's language: 1er, 2e, 3e (1st, 2nd, 3rd in English)."""
    if (get_language() or "fr").startswith("en"):
        suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return "1er" if n == 1 else f"{n}e"


def format_money(amount: Decimal, currency: str = "EUR") -> str:
    """An amount as the interface's language writes it (Babel, as pretix does): `1 234,50 €`
    in French, `€1,234.50` in English; a real minus sign, as on the marque."""
    locale = to_locale(get_language() or "fr")
    text = format_currency(round_money(amount), currency, locale=locale)
    return text.replace("-", MINUS, 1) if amount < 0 else text

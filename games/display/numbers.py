"""How numbers and money are written, in one place for the pages, the sheet, the
observations and the chart: a real minus sign (−30), signed donne points (+25), ordinals
(1er), and amounts in the interface's language (2,00 € in French, €2.00 in English)."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

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
    rounded = round_money(amount)
    # Less than half a centime owed is nothing: "0,00 €", never "−0,00 €".
    rounded = rounded or abs(rounded)
    return _written(rounded, currency, to_locale(get_language() or "fr"))


# Babel takes some 25 µs an amount, and a cagnotte writes dozens on every page it is drawn in;
# a table's amounts are few (its stakes, its prices, their sums), so each is written once.
@lru_cache(maxsize=4096)
def _written(amount: Decimal, currency: str, locale: str) -> str:
    text = format_currency(amount, currency, locale=locale)
    return text.replace("-", MINUS, 1) if amount < 0 else text

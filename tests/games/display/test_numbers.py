"""How amounts are written (games/display/numbers.py): each amount once per currency and
language, never another language's, and nothing owed written without a sign."""

from __future__ import annotations

from decimal import Decimal

from django.utils import translation

from games.display.numbers import _written, format_money


def test_an_amount_written_in_one_language_is_not_served_in_another() -> None:
    with translation.override("fr"):
        assert format_money(Decimal("-12.5")) == "\u221212,50\u00a0€"
    with translation.override("en"):
        assert format_money(Decimal("-12.5")) == "\u2212€12.50"
        assert format_money(Decimal("-12.5"), "CHF") == "\u2212CHF12.50"
    with translation.override("fr"):
        assert format_money(Decimal("-12.5")) == "\u221212,50\u00a0€"


def test_an_amount_is_written_once_whatever_its_digits() -> None:
    _written.cache_clear()
    with translation.override("fr"):
        assert format_money(Decimal("2")) == "2,00\u00a0€"
        assert format_money(Decimal("2.000")) == "2,00\u00a0€"
        assert format_money(Decimal("1234.505")) == "1\u202f234,51\u00a0€"  # half up
    assert _written.cache_info().misses == 2 and _written.cache_info().hits == 1


def test_less_than_half_a_centime_is_written_as_nothing_owed() -> None:
    with translation.override("fr"):
        assert format_money(Decimal("-0.004")) == "0,00\u00a0€"
        assert format_money(Decimal("-0.00")) == "0,00\u00a0€"
        assert format_money(Decimal("-0.005")) == "\u22120,01\u00a0€"

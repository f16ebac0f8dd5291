"""How numbers are written on the marque, in one place for the pages, the sheet, the
observations and the chart: a real minus sign (−30), signed donne points (+25), ordinals (1er)."""

from __future__ import annotations


def number(value: int | None) -> str:
    """A total: `−30`, `0`, `27`."""
    if value is None:
        return ""
    return f"−{-value}" if value < 0 else str(value)


def signed(points: int | None) -> str:
    """A donne's points as written on the marque: `+25`, `−10`, `0`."""
    if points is None:
        return ""
    return f"+{points}" if points > 0 else number(points)


def ordinal(n: int) -> str:
    """French ordinal abbreviation: 1er, 2e, 3e."""
    return "1er" if n == 1 else f"{n}e"

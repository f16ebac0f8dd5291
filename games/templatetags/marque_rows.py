"""``{% marque_row row %}``: one row of the marque (games/_marque_table.html#row), drawn once per
process for what it shows. Its HTML follows from the row itself (its number, cells and whether
it waits on a decision), the partie (the edit link), whether the page is read-only and the
language; a partie page drawn after a new donne draws that donne's row and reads the others.
The templates do not change while a process runs, so nothing else can make a row stale."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.context import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.display.marque import Cell, Row

register = template.Library()
ROW = "games/_marque_table.html#row"


@register.simple_tag(takes_context=True)
def marque_row(context: Context, row: Row) -> SafeString:
    return _drawn(
        get_language(),
        context["partie"].pk,
        bool(context.get("readonly")),
        context.get("modifier", ""),
        row.number,
        row.pending,
        tuple(row.cells),
    )


# Some thousand parties' latest screens; a row is a few hundred bytes.
@lru_cache(maxsize=20_000)
def _drawn(
    language: str, partie: int, readonly: bool, modifier: str, number: int, pending: bool,
    cells: tuple[Cell, ...],
) -> SafeString:  # fmt: skip
    # ``language`` is the key's only: the row is drawn in the active language, which it names.
    row = {"number": number, "pending": pending, "cells": cells}
    context = {"row": row, "partie": {"pk": partie}, "readonly": readonly, "modifier": modifier}
    return mark_safe(get_template(ROW).render(context))  # noqa: S308 - the template escapes

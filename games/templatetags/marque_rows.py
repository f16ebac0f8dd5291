"""``{% marque_row row %}``: one row of the marque (games/_marque_table.html#row), drawn once per
process for what it shows (games/display/drawn.py). Its HTML follows from the row itself (its
number, cells and whether it waits on a decision), the partie (the edit link), whether the page
is read-only, and the language; a partie page drawn after a new donne draws that donne's row
and reads the others."""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.display.drawn import DrawnOnce
from games.display.marque import Row

register = template.Library()
ROW = "games/_marque_table.html#row"
ROWS = DrawnOnce(20_000)  # some thousand parties' latest screens; a row is a few hundred bytes


@register.simple_tag(takes_context=True)
def marque_row(context: Context, row: Row) -> SafeString:
    partie = context["partie"].pk
    readonly = bool(context.get("readonly"))
    modifier = context.get("modifier", "")
    # The language is the key's only: the row is drawn in the active language, which it names.
    key = (get_language(), partie, readonly, modifier, row.number, row.pending, tuple(row.cells))
    flat = {"row": row, "partie": {"pk": partie}, "readonly": readonly, "modifier": modifier}
    return ROWS.get(key, lambda: get_template(ROW).render(flat))

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.display import numbers
from games.display.chart import score_chart as draw_chart
from games.display.colours import glyph
from games.display.marque import Cell, Marque
from games.display.numbers import format_money

register = template.Library()


@register.filter
def money(amount: Decimal, currency: str = "EUR") -> str:
    """`{{ amount|money:partie.currency }}` → `2,00 €`. Raises on anything but a Decimal."""
    return format_money(amount, currency)


register.filter("signed", numbers.signed)
register.filter("number", numbers.number)
register.filter("ordinal", numbers.ordinal)


OUT_LABELS = {"declined": _("abandonne"), "definitive_exclusion": _("exclu")}


@register.simple_tag
def marque_cell(cell: Cell) -> str:
    """One cell of the marque in one step: the donne's points, then the running total, framed
    at or over the seuil (docs/rules.md §1), the rachat where it happens (R1 → 27) and an
    elimination. A template per cell cost ten template nodes; a long partie has 2 000 cells.
    Everything in a cell is a number or one of our labels: nothing typed by a player."""
    if cell.points is None:
        return mark_safe('<td class="text-center"></td>')
    number = numbers.number
    if cell.rachat_number:
        total = (
            f'<span class="framed">{number(cell.crossed_at)}</span> '
            f'<span class="rachat">R{cell.rachat_number} → {number(cell.restart)}</span>'
        )
    else:
        framed = " framed" if cell.framed else ""
        total = f'<span class="tot{framed}">{number(cell.total)}</span>'
    out = ""
    if cell.eliminated:
        out = f'<span class="out">{escape(OUT_LABELS[cell.eliminated])}</span>'
    winner = " winner" if cell.winner else ""
    points = numbers.signed(cell.points)
    return mark_safe(  # noqa: S308 - numbers and our own escaped labels only
        f'<td class="text-center{winner}"><span class="pts">{points}</span>{total}{out}</td>'
    )


@register.simple_tag
def score_chart(marque: Marque) -> SafeString:
    """``{% score_chart marque as chart %}``: the partie's SVG score chart, for
    games/_chart.html (the template of games/display/chart.py escapes the names)."""
    colours = [line.colour for line in marque.players]
    return draw_chart(marque.stored.names, marque.states, seuil=marque.rules.seuil, colours=colours)


@register.filter
def player_glyph(colour: int | None) -> str:
    """A habitué's marker (games/display/colours.py), shown with his colour."""
    return glyph(colour or 0)

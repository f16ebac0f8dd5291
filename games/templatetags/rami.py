from __future__ import annotations

from decimal import Decimal

from django import template
from django.forms import BoundField
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.display import numbers
from games.display.chart import score_chart as draw_chart
from games.display.colours import glyph
from games.display.marque import Marque
from games.display.numbers import format_money
from games.display.outcome import end_sentence

register = template.Library()


@register.filter
def money(amount: Decimal, currency: str = "EUR") -> str:
    """`{{ amount|money:partie.currency }}` → `2,00 €`. Raises on anything but a Decimal."""
    return format_money(amount, currency)


register.filter("signed", numbers.signed)
register.filter("number", numbers.number)
register.filter("ordinal", numbers.ordinal)
# ``{% partie_end marque %}``: the end of a partie in one sentence, for the scoreboard.
register.simple_tag(end_sentence, name="partie_end")


@register.filter
def hidden(field: BoundField) -> SafeString:
    """``{{ form.revision|hidden }}``: a hidden field as its widget draws it, without the three
    templates the widget goes through (about 0.1 ms a field, on every donne recorded)."""
    value = field.value()
    if value is None or value == "":  # as the widget draws it: no value attribute
        tag = '<input type="hidden" name="{}" id="{}">'
        return format_html(tag, field.html_name, field.auto_id)
    tag = '<input type="hidden" name="{}" value="{}" id="{}">'
    return format_html(tag, field.html_name, value, field.auto_id)


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

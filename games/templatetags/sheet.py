"""``{% score_chart marque %}``: the SVG score chart of a partie page, through _chart.html."""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from games.display.chart import score_chart as build_chart
from games.display.marque import Marque
from games.selectors import partie_rules

register = template.Library()


@register.inclusion_tag("games/_chart.html")
def score_chart(marque: Marque) -> dict[str, object]:
    names = marque.data.names
    # games.chart escapes the player names itself.
    svg = build_chart(names, marque.result.states, seuil=partie_rules(marque.partie).threshold)
    return {"chart": mark_safe(svg)}  # noqa: S308

"""The money chart of the Statistiques page: each habitué's money won and lost over the
account's finished parties, added up party after party, as an SVG drawn on the server like
the score chart (games/display/chart.py: the same lines, markers and legend)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.centimes import from_centimes
from games.display.chart import LEGEND_ROW, Tick, legend_entry, nice_step, player_line, tenth
from games.display.colours import first_free
from games.display.numbers import format_money
from games.selectors import PartieState

# Drawn for a phone's width: a smaller canvas than the printed score chart, so that its words
# stay readable once scaled down to the screen.
WIDTH, HEIGHT = 420, 250
LEFT, RIGHT, TOP, BOTTOM = 66, 10, 10, 40
PER_ROW = 3  # names in a row of the legend
LEGEND_COLUMN = 130


@dataclass(frozen=True)
class Series:
    """One habitué's money after each partie (centimes), from 0 before the first."""

    name: str
    values: list[int]
    colour: int | None = None  # his habitué's colour and marker (games/display/colours.py)


def money_series(parties: Sequence[PartieState], currency: str) -> list[Series]:
    """Each habitué who won or lost money in ``currency``, the parties in the given order
    (the oldest first): his net added up after each one, flat where he did not play."""
    in_currency = [s for s in parties if s.partie.currency == currency]
    running: dict[int, int] = {}
    names: dict[int, str] = {}
    colours: dict[int, int | None] = {}
    rows: list[dict[int, int]] = []
    for stored in in_currency:
        net = stored.summary.final.net
        for joueur in stored.joueurs:
            if joueur.habitue is None:
                continue
            key = joueur.habitue.pk
            names[key] = joueur.habitue.name
            colours[key] = joueur.habitue.colour
            running[key] = running.get(key, 0) + net.get(joueur.name, 0)
        rows.append(dict(running))
    moved = [k for k in names if any(row.get(k, 0) for row in rows)]
    return [Series(names[k], [0, *(row.get(k, 0) for row in rows)], colours[k]) for k in moved]


# Lines that run together (three players at −1 € after each partie) are drawn this many
# pixels apart, so that each stays visible with its own marker.
SPREAD = 3.0


def _spread(series: Sequence[Series]) -> list[list[float]]:
    """Each series' vertical offset at each partie: 0 alone, else spread around the value."""
    offsets = [[0.0] * len(one.values) for one in series]
    for i in range(len(series[0].values)):
        groups: dict[int, list[int]] = {}
        for k, one in enumerate(series):
            groups.setdefault(one.values[i], []).append(k)
        for members in groups.values():
            for rank, k in enumerate(members):
                offsets[k][i] = (rank - (len(members) - 1) / 2) * SPREAD
    return offsets


def _colours(series: Sequence[Series]) -> list[int]:
    """Each habitué's own colour, or (taken by one listed before him) the first free one."""
    chosen: list[int] = []
    for one in series:
        wanted = one.colour
        chosen.append(wanted if wanted is not None and wanted not in chosen else first_free(chosen))
    return chosen


def money_chart(series: Sequence[Series], currency: str) -> SafeString:
    """The SVG markup (names escaped by the template); empty when no money changed hands."""
    if not series:
        return SafeString("")
    count = len(series[0].values) - 1
    values = [v for s in series for v in s.values]
    low, high = min(values), max(values)
    step = nice_step(high - low or 100, 5)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_h

    def x_of(index: int) -> float:
        return LEFT + plot_w * index / max(count, 1)

    def y_of(value: int) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    every = max(1, math.ceil(count / 12))
    lines = []
    legend = []
    base = HEIGHT + 4
    offsets = _spread(series)
    colours = _colours(series)
    for index, one in enumerate(series):
        shift = offsets[index]
        points = [(x_of(i), y_of(v) + shift[i]) for i, v in enumerate(one.values)]
        # Marked every few parties, and wherever his line runs with another one's.
        marked = [
            p for i, p in enumerate(points) if i and (i % every == 0 or i == count or shift[i])
        ]
        lines.append(player_line(colours[index], one.name, points, marked))
        x = 8 + (index % PER_ROW) * LEGEND_COLUMN
        y = base + (index // PER_ROW) * LEGEND_ROW
        legend.append(legend_entry(colours[index], one.name, x, y))
    context = {
        "title": _("Argent gagné et perdu, partie après partie"),
        "width": WIDTH,
        "height": HEIGHT + math.ceil(len(series) / PER_ROW) * LEGEND_ROW,
        "left": LEFT,
        "top": TOP,
        "right": LEFT + plot_w,
        "bottom": bottom,
        "plot_w": plot_w,
        "plot_h": plot_h,
        "label_x": LEFT - 6,
        "zero_y": tenth(y_of(0)),
        "ticks": [
            Tick(
                tenth(y_of(v)),
                format_money(from_centimes(v), currency),
                tenth(y_of(v) + 4),
            )
            for v in range(low, high + 1, step)
        ],
        "partie_ticks": [Tick(tenth(x_of(i)), i) for i in range(0, count + 1, nice_step(count, 6))],
        "tick_end": bottom + 4,
        "tick_label_y": bottom + 16,
        "axis_title": _("Parties"),
        "axis_title_x": tenth(LEFT + plot_w / 2),
        "axis_title_y": bottom + 34,
        "lines": lines,
        "legend": legend,
    }
    return render_to_string("games/money_chart.svg", context)

"""The score chart: an SVG drawn on the server from the engine's states, one line per player.

Readable in black and white (a printed marque): each player has a dash pattern and a marker
shape of his own, not only a colour. The seuil is a dashed line; a rachat is the line dropping
back to the restart score with a ▼ there; an elimination ends the line with a cross.

Python computes the geometry and the words; templates/games/chart.svg writes the markup and
escapes the names, as healthchecks draws its badges (hc/lib/badges.py). The words are
translated here, not in the template: makemessages reads .py and .html files, not .svg.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.display.numbers import number
from games.scoring import DonneState

# Okabe-Ito colours (distinct for colour-blind readers), then dashes and shapes for paper.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#7a5c00")
DASHES = ("", "7 3", "2 2", "9 3 2 3", "4 4", "12 3 3 3 3 3", "1 4", "6 2 2 2 2 2")
SHAPES = ("circle", "square", "triangle", "diamond", "plus", "star", "ring", "bar")

WIDTH, HEIGHT = 760, 330
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 14, 44
LEGEND_ROW = 20
LEGEND_COLUMN = 150


def nice_step(span: float, ticks: int = 6) -> int:
    """1, 2, 5, 10, 20, 50… so that about ``ticks`` ticks cover ``span``."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        if raw <= mult * power:
            return int(mult * power)
    return int(10 * power)


def tenth(value: float) -> float:
    """A coordinate to a tenth of a unit: finer is invisible and only lengthens the markup."""
    return round(float(value), 1)


def polyline(*xy: tuple[float, float]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)


@dataclass(frozen=True)
class Tick:
    """A gridline of the score axis (``at`` is its y) or a tick of the donne axis (its x)."""

    at: float
    label: str | int
    label_at: float | None = None  # a score's label: its baseline, just under the gridline


@dataclass(frozen=True)
class Marker:
    """A player's point in his shape and colour. The template picks the element by shape."""

    shape: str
    colour: str
    x: float
    y: float
    size: float = 3.2

    @property
    def centre_x(self) -> float:
        return tenth(self.x)

    @property
    def centre_y(self) -> float:
        return tenth(self.y)

    @property
    def radius(self) -> float:
        return tenth(self.size)

    @property
    def box(self) -> dict[str, float]:
        """The rectangle of a square, or of a flat bar."""
        s = self.size
        half = s if self.shape == "square" else s / 3
        return {
            "x": tenth(self.x - s),
            "y": tenth(self.y - half),
            "width": tenth(2 * s),
            "height": tenth(2 * half),
        }

    @property
    def points(self) -> str:
        """The polygon of a triangle, a diamond or a five-pointed star."""
        x, y, s = self.x, self.y, self.size
        if self.shape == "triangle":
            return polyline((x, y - s), (x + s, y + s), (x - s, y + s))
        if self.shape == "diamond":
            return polyline((x, y - s), (x + s, y), (x, y + s), (x - s, y))
        return polyline(
            *(
                (
                    x + (s if i % 2 == 0 else s / 2.2) * math.sin(i * math.pi / 5),
                    y - (s if i % 2 == 0 else s / 2.2) * math.cos(i * math.pi / 5),
                )
                for i in range(10)
            )
        )

    @property
    def path(self) -> str:
        """The two strokes of a plus."""
        x, y, s = self.x, self.y, self.size
        return f"M{x - s:.1f} {y:.1f}H{x + s:.1f}M{x:.1f} {y - s:.1f}V{y + s:.1f}"


@dataclass(frozen=True)
class Drop:
    """▼ where a rachat sends a line back to the restart score."""

    x: float
    y: float
    size: float = 4.5

    @property
    def points(self) -> str:
        x, y, s = self.x, self.y, self.size
        return polyline((x - s, y - s), (x + s, y - s), (x, y + s * 0.6))


@dataclass(frozen=True)
class Cross:
    """✕ where an elimination ends a line."""

    x: float
    y: float
    size: float = 5.5

    @property
    def path(self) -> str:
        x, y, s = self.x, self.y, self.size
        return (
            f"M{x - s:.1f} {y - s:.1f}L{x + s:.1f} {y + s:.1f}"
            f"M{x - s:.1f} {y + s:.1f}L{x + s:.1f} {y - s:.1f}"
        )


@dataclass(frozen=True)
class PlayerLine:
    player: str
    colour: str
    dash: str  # "" for a solid line
    points: str
    markers: list[Marker]


@dataclass(frozen=True)
class LegendEntry:
    """A player in the legend: a stretch of his line with his marker, then his name."""

    player: str
    colour: str
    dash: str
    x: int
    y: int
    marker: Marker

    @property
    def line_end(self) -> int:
        return self.x + 34

    @property
    def text_x(self) -> int:
        return self.x + 40

    @property
    def text_y(self) -> int:
        return self.y + 4


def _paths(players: Sequence[str], states: Sequence[DonneState]):
    """Each player's line as (donne, score) points, from 0 at donne 0; a rachat adds a second
    point at the same donne (the drop to the restart), and where the ▼ and ✕ go."""
    paths: dict[str, list[tuple[int, int]]] = {p: [(0, 0)] for p in players}
    drops: list[tuple[int, int]] = []
    crosses: list[tuple[int, int]] = []
    for state in states:
        for player in players:
            if player not in state.points:
                continue  # out of the partie: the line has ended
            crossed = state.totals_before_rachat[player]
            paths[player].append((state.number, crossed))
            if player in state.rachats:
                restart = state.rachats[player].restart
                paths[player].append((state.number, restart))
                drops.append((state.number, restart))
            if player in state.eliminated:
                crosses.append((state.number, crossed))
    return paths, drops, crosses


def player_line(
    index: int, player: str, points: list[tuple[float, float]], marked: list[tuple[float, float]]
) -> PlayerLine:
    """The line of the ``index``-th player, in his colour, dash and marker shape (the score
    chart and the money chart of the statistics draw their players alike)."""
    colour, dash, shape = COLOURS[index % 8], DASHES[index % 8], SHAPES[index % 8]
    return PlayerLine(
        player=player,
        colour=colour,
        dash=dash,
        points=polyline(*points),
        markers=[Marker(shape, colour, x, y) for x, y in marked],
    )


def legend_entry(index: int, player: str, x: float, y: float) -> LegendEntry:
    """The ``index``-th player in the legend, at (x, y), as his line is drawn."""
    colour, dash, shape = COLOURS[index % 8], DASHES[index % 8], SHAPES[index % 8]
    return LegendEntry(player, colour, dash, x, y, Marker(shape, colour, x + 17, y))


def _scale(values: list[int]) -> tuple[int, int, int]:
    """The score axis: round bounds around every value, and the step between gridlines."""
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step + (step if high % step == 0 else 0)
    return low, high, step


def score_chart(
    players: Sequence[str],
    states: Sequence[DonneState],
    *,
    seuil: int | None = None,
    colours: Sequence[int] | None = None,
) -> SafeString:
    """The SVG markup (escaped names) for a marque; an empty string before the first donne.
    ``colours``: each player's colour and marker (games/display/colours.py), else his seat."""
    colours = list(colours) if colours is not None else list(range(len(players)))
    if not states:
        return SafeString("")
    paths, drops, crosses = _paths(players, states)
    values = [score for path in paths.values() for _donne, score in path]
    low, high, step = _scale(values + ([seuil] if seuil is not None else []))
    count = len(states)
    # Two legend rows at least: the rachat and elimination symbols sit in the last column.
    legend_rows = max(2, math.ceil(len(players) / 4))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_h

    def x_of(donne: int) -> float:
        return LEFT + plot_w * donne / count

    def y_of(score: int) -> float:
        return TOP + plot_h * (high - score) / (high - low)

    # A marker every few donnes, so that a long partie does not turn into a smear of shapes.
    every = max(1, math.ceil(count / 12))
    lines = []
    for index, player in enumerate(players):
        path = paths[player]
        last = path[-1][0]
        marked = [(x_of(d), y_of(s)) for d, s in path[1:] if d % every == 0 or d == last]
        points = [(x_of(d), y_of(s)) for d, s in path]
        lines.append(player_line(colours[index], player, points, marked))
    # Legend: four players a row, then the rachat and elimination symbols.
    base = HEIGHT + 4
    legend = []
    for index, player in enumerate(players):
        x, y = LEFT + (index % 4) * LEGEND_COLUMN, base + (index // 4) * LEGEND_ROW
        legend.append(legend_entry(colours[index], player, x, y))
    symbols_x = LEFT + 4 * LEGEND_COLUMN - 30
    context = {
        "title": _("Courbe des scores"),
        "width": WIDTH,
        "height": HEIGHT + legend_rows * LEGEND_ROW,
        "left": LEFT,
        "top": TOP,
        "right": LEFT + plot_w,
        "bottom": bottom,
        "plot_w": plot_w,
        "plot_h": plot_h,
        "score_label_x": LEFT - 6,
        "score_ticks": [
            Tick(tenth(y_of(score)), number(score), tenth(y_of(score) + 4))
            for score in range(low, high + 1, step)
        ],
        "donne_ticks": [Tick(tenth(x_of(d)), d) for d in range(0, count + 1, nice_step(count, 10))],
        "donne_tick_end": bottom + 4,
        "donne_label_y": bottom + 16,
        "donne_title": _("Donne"),
        "donne_title_x": tenth(LEFT + plot_w / 2),
        "donne_title_y": bottom + 34,
        "points_title": _("Points"),
        "points_title_y": tenth(TOP + plot_h / 2),
        "seuil_label": None if seuil is None else _("seuil %(seuil)s") % {"seuil": seuil},
        "seuil_y": None if seuil is None else tenth(y_of(seuil)),
        "seuil_label_x": LEFT + plot_w - 4,
        "seuil_label_y": None if seuil is None else tenth(y_of(seuil) - 4),
        "lines": lines,
        "drops": [Drop(x_of(d), y_of(s)) for d, s in drops],
        "crosses": [Cross(x_of(d), y_of(s)) for d, s in crosses],
        "legend": legend,
        "legend_drop": Drop(symbols_x, base - 1),
        "legend_cross": Cross(symbols_x, base + LEGEND_ROW, 4.5),
        "legend_symbols_text_x": symbols_x + 9,
        "legend_rachat": _("rachat"),
        "legend_rachat_y": base + 4,
        "legend_eliminated": _("éliminé"),
        "legend_eliminated_y": base + LEGEND_ROW + 4,
    }
    return render_to_string("games/chart.svg", context)

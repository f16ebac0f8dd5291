"""The score chart: an SVG built on the server from the engine's states, one line per player.

Readable in black and white (a printed marque): each player has a dash pattern and a marker
shape of his own, not only a colour. The seuil is a dashed line; a rachat is the line dropping
back to the restart score with a ▼ there; an elimination ends the line with a cross.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

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


def nice_step(span: float, ticks: int = 6) -> int:
    """1, 2, 5, 10, 20, 50… so that about ``ticks`` ticks cover ``span``."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        if raw <= mult * power:
            return int(mult * power)
    return int(10 * power)


def _marker(shape: str, x: float, y: float, colour: str, size: float = 4.0) -> str:
    s = size
    fill = f'fill="{colour}" stroke="{colour}"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" {fill}/>'
    if shape == "ring":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" fill="#fff" stroke="{colour}"/>'
    if shape == "square":
        return (
            f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" '
            f'height="{2 * s:.1f}" {fill}/>'
        )
    if shape == "triangle":
        points = f"{x:.1f},{y - s:.1f} {x + s:.1f},{y + s:.1f} {x - s:.1f},{y + s:.1f}"
        return f'<polygon points="{points}" {fill}/>'
    if shape == "diamond":
        points = f"{x:.1f},{y - s:.1f} {x + s:.1f},{y:.1f} {x:.1f},{y + s:.1f} {x - s:.1f},{y:.1f}"
        return f'<polygon points="{points}" {fill}/>'
    if shape == "star":
        points = " ".join(
            f"{x + (s if i % 2 == 0 else s / 2.2) * math.sin(i * math.pi / 5):.1f},"
            f"{y - (s if i % 2 == 0 else s / 2.2) * math.cos(i * math.pi / 5):.1f}"
            for i in range(10)
        )
        return f'<polygon points="{points}" {fill}/>'
    if shape == "bar":
        return (
            f'<rect x="{x - s:.1f}" y="{y - s / 3:.1f}" width="{2 * s:.1f}" '
            f'height="{2 * s / 3:.1f}" {fill}/>'
        )
    # plus
    return (
        f'<path d="M{x - s:.1f} {y:.1f}H{x + s:.1f}M{x:.1f} {y - s:.1f}V{y + s:.1f}" '
        f'stroke="{colour}" stroke-width="2"/>'
    )


def _cross(x: float, y: float, s: float = 5.5) -> str:
    return (
        f'<path class="elimination" d="M{x - s:.1f} {y - s:.1f}L{x + s:.1f} {y + s:.1f}'
        f'M{x - s:.1f} {y + s:.1f}L{x + s:.1f} {y - s:.1f}" stroke="#000" stroke-width="2.2"/>'
    )


def _drop(x: float, y: float, s: float = 4.5) -> str:
    points = f"{x - s:.1f},{y - s:.1f} {x + s:.1f},{y - s:.1f} {x:.1f},{y + s * 0.6:.1f}"
    return (
        f'<polygon class="rachat" points="{points}" fill="#fff" stroke="#000" stroke-width="1.3"/>'
    )


def score_chart(
    players: Sequence[str], states: Sequence[DonneState], *, seuil: int | None = None
) -> str:
    """The SVG markup (escaped names) for a marque; an empty string before the first donne."""
    if not states:
        return ""
    # Each player's path: (donne, score) points; a rachat adds a second point at the same donne.
    paths: dict[str, list[tuple[int, int]]] = {p: [(0, 0)] for p in players}
    drops: list[tuple[int, int]] = []
    crosses: list[tuple[int, int]] = []
    values = [0]
    for state in states:
        for player in players:
            if player not in state.points:
                continue  # out of the partie: the line has ended
            crossed = state.totals_before_rachat[player]
            paths[player].append((state.number, crossed))
            values.append(crossed)
            if player in state.rachats:
                restart = state.rachats[player].restart
                paths[player].append((state.number, restart))
                drops.append((state.number, restart))
                values.append(restart)
            if player in state.eliminated:
                crosses.append((state.number, crossed))
    if seuil is not None:
        values.append(seuil)
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step + (step if high % step == 0 else 0)
    count = len(states)
    # Two legend rows at least: the rachat and elimination symbols sit in the last column.
    legend_rows = max(2, math.ceil(len(players) / 4))
    height = HEIGHT + legend_rows * LEGEND_ROW
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(donne: int) -> float:
        return LEFT + plot_w * donne / count

    def py(score: int) -> float:
        return TOP + plot_h * (high - score) / (high - low)

    title = escape(_("Courbe des scores"))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" '
        f'viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-label="{title}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="11">',
        f"<title>{title}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" '
        f'fill="#fff" stroke="#999"/>',
    ]
    for score in range(low, high + 1, step):
        y = py(score)
        label = number(score)
        out.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e5e5e5"/>'
        )
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    x_step = nice_step(count, 10)
    for donne in range(0, count + 1, x_step):
        x = px(donne)
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 4}" '
            f'stroke="#666"/>'
        )
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{donne}</text>')
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h + 34}" text-anchor="middle" '
        f'font-weight="bold">{escape(_("Donne"))}</text>'
    )
    out.append(
        f'<text transform="translate(14 {TOP + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
        f'font-weight="bold">{escape(_("Points"))}</text>'
    )
    if seuil is not None:
        y = py(seuil)
        out.append(
            f'<line class="seuil" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#b91c1c" stroke-width="1.5" stroke-dasharray="8 4"/>'
        )
        out.append(
            f'<text x="{LEFT + plot_w - 4}" y="{y - 4:.1f}" text-anchor="end" fill="#b91c1c">'
            f"{escape(_('seuil %(seuil)s') % {'seuil': seuil})}</text>"
        )
    # A marker every few donnes, so that a long partie does not turn into a smear of shapes.
    every = max(1, math.ceil(count / 12))
    for index, player in enumerate(players):
        colour, dash, shape = (
            COLOURS[index % 8],
            DASHES[index % 8],
            SHAPES[index % 8],
        )
        points = " ".join(f"{px(d):.1f},{py(s):.1f}" for d, s in paths[player])
        dasharray = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="player-line" data-player="{escape(player)}" points="{points}" '
            f'fill="none" stroke="{colour}" stroke-width="2"{dasharray}/>'
        )
        for d, s in paths[player][1:]:
            if d % every == 0 or d == paths[player][-1][0]:
                out.append(_marker(shape, px(d), py(s), colour, 3.2))
    out += [_drop(px(d), py(s)) for d, s in drops]
    out += [_cross(px(d), py(s)) for d, s in crosses]
    # Legend: four players a row, then the rachat and elimination symbols.
    base = HEIGHT + 4
    for index, player in enumerate(players):
        x = LEFT + (index % 4) * 150
        y = base + (index // 4) * LEGEND_ROW
        colour, dash, shape = COLOURS[index % 8], DASHES[index % 8], SHAPES[index % 8]
        dasharray = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{x}" x2="{x + 34}" y1="{y}" y2="{y}" stroke="{colour}" '
            f'stroke-width="2"{dasharray}/>'
        )
        out.append(_marker(shape, x + 17, y, colour, 3.2))
        out.append(f'<text x="{x + 40}" y="{y + 4}">{escape(player)}</text>')
    x = LEFT + 4 * 150 - 30
    out.append(_drop(x, base - 1))
    out.append(f'<text x="{x + 9}" y="{base + 4}">{escape(_("rachat"))}</text>')
    out.append(_cross(x, base + LEGEND_ROW, 4.5))
    out.append(f'<text x="{x + 9}" y="{base + LEGEND_ROW + 4}">{escape(_("éliminé"))}</text>')
    out.append("</svg>")
    return "\n".join(out)

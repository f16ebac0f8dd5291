"""The result of a finished partie as a picture to send in a family chat: the final ranking,
totals and money, and the score chart, drawn on the server (a PNG about 1080 px wide) from
the same data as the chart of the page (games/display/chart.py: the same paths, the same
colours and markers per player). Pillow draws it: see docs/decisions.md "The shared result
picture". The names and the winner are also written in the PNG's text chunks, for a reader
that cannot see the picture."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from games.centimes import from_centimes
from games.display.chart import COLOURS, SHAPES, _paths, _scale, nice_step
from games.display.marque import Marque
from games.display.numbers import format_money, number
from games.scoring import get_preset

WIDTH = 1080
MARGIN = 56
ROW = 64
PLOT_HEIGHT = 420
LEGEND_ROW = 40
PER_ROW = 3  # names in a row of the chart's legend
# Debian's fonts-dejavu-core (installed with WeasyPrint's fonts); Pillow's own font otherwise.
FONTS = Path("/usr/share/fonts/truetype/dejavu")
INK, GREY, PAPER, GREEN, RED = "#1a1a1a", "#5c5c5c", "#ffffff", "#14532d", "#b91c1c"


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONTS / name), size)
    except OSError:
        return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: float) -> str:
    """The text, cut with "…" if it is wider than ``width`` (a 30-letter name, a long title)."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _marker(draw: ImageDraw.ImageDraw, shape: str, colour: str, x: float, y: float, s: float):
    """A player's marker shape, as on the chart (colour is never alone)."""
    if shape == "circle":
        draw.ellipse((x - s, y - s, x + s, y + s), fill=colour)
    elif shape == "ring":
        draw.ellipse((x - s, y - s, x + s, y + s), fill=PAPER, outline=colour, width=3)
    elif shape == "square":
        draw.rectangle((x - s, y - s, x + s, y + s), fill=colour)
    elif shape == "bar":
        draw.rectangle((x - s, y - s / 3, x + s, y + s / 3), fill=colour)
    elif shape == "triangle":
        draw.polygon([(x, y - s), (x + s, y + s), (x - s, y + s)], fill=colour)
    elif shape == "diamond":
        draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=colour)
    elif shape == "plus":
        draw.line((x - s, y, x + s, y), fill=colour, width=4)
        draw.line((x, y - s, x, y + s), fill=colour, width=4)
    else:  # star
        points = []
        for i in range(10):
            r = s if i % 2 == 0 else s / 2.2
            points.append((x + r * math.sin(i * math.pi / 5), y - r * math.cos(i * math.pi / 5)))
        draw.polygon(points, fill=colour)


def _dashed(draw, start: tuple[float, float], end: tuple[float, float], colour: str, width: int):
    (x1, y), (x2, _y) = start, end
    x = x1
    while x < x2:
        draw.line((x, y, min(x + 14, x2), y), fill=colour, width=width)
        x += 22


def winner_sentence(marque: Marque) -> str:
    names = marque.winners
    if not marque.over:
        return ngettext("%(names)s en tête", "%(names)s en tête", len(names)) % {
            "names": _(" et ").join(names)
        }
    return ngettext("%(names)s gagne la partie", "%(names)s partagent la victoire", len(names)) % {
        "names": _(" et ").join(names)
    }


def describe(marque: Marque) -> str:
    """The picture in words (its text chunk, the page's alt text): winner, then each line."""
    net = marque.summary.final.net
    currency = marque.partie.currency
    lines = [winner_sentence(marque) + "."]
    for rank, name, total in marque.ranking:
        money = format_money(from_centimes(net.get(name, 0)), currency)
        lines.append(f"{rank}. {name} : {number(total)} ({money})")
    return "\n".join(lines)


def result_png(marque: Marque, states: Sequence | None = None) -> bytes:
    """The PNG of a finished partie. ``states``: every donne's state (the chart's data)."""
    states = list(states if states is not None else marque.states)
    partie = marque.partie
    names = marque.stored.names
    colour_of = {line.joueur.name: line.colour for line in marque.players}
    net = marque.summary.final.net
    has_money = any(net.values()) or marque.summary.final.pot > 0
    ranking = marque.ranking

    head = 210
    table = ROW * (len(ranking) + 1) + 24
    legend_rows = math.ceil(len(names) / PER_ROW)
    chart = PLOT_HEIGHT + 110 + legend_rows * LEGEND_ROW if states else 0
    height = head + table + chart + 80
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)

    # The title band, in the felt green of the app.
    draw.rectangle((0, 0, WIDTH, 150), fill=GREEN)
    draw.text(
        (MARGIN, 32),
        _fit(draw, partie.name, _font(52, True), WIDTH - 2 * MARGIN),
        font=_font(52, True),
        fill=PAPER,
    )
    donnes = ngettext("%(n)s donne", "%(n)s donnes", marque.recorded) % {"n": marque.recorded}
    subtitle = f"{_(get_preset(partie.preset).label)} · {donnes}"
    draw.text((MARGIN, 98), subtitle, font=_font(28), fill="#d7eadc")
    draw.text(
        (MARGIN, 160),
        _fit(draw, winner_sentence(marque), _font(40, True), WIDTH - 2 * MARGIN),
        font=_font(40, True),
        fill=GREEN,
    )

    # The ranking: rank, marker, name, total, money.
    y = head + 8
    small, body, bold = _font(26), _font(34), _font(34, True)
    draw.text((MARGIN, y), _("Classement"), font=small, fill=GREY)
    draw.text(
        (WIDTH - MARGIN - (300 if has_money else 0), y),
        _("Total"),
        font=small,
        fill=GREY,
        anchor="ra",
    )
    if has_money:
        draw.text((WIDTH - MARGIN, y), _("Argent"), font=small, fill=GREY, anchor="ra")
    y += 40
    for rank, name, total in ranking:
        colour = COLOURS[colour_of.get(name, 0) % len(COLOURS)]
        shape = SHAPES[colour_of.get(name, 0) % len(SHAPES)]
        font = bold if rank == 1 else body
        draw.text((MARGIN, y + 10), f"{rank}.", font=font, fill=INK)
        _marker(draw, shape, colour, MARGIN + 76, y + 30, 12)
        name_width = WIDTH - 2 * MARGIN - 110 - (480 if has_money else 200)
        draw.text((MARGIN + 100, y + 10), _fit(draw, name, font, name_width), font=font, fill=INK)
        total_x = WIDTH - MARGIN - (300 if has_money else 0)
        draw.text((total_x, y + 10), number(total), font=font, fill=INK, anchor="ra")
        if has_money:
            amount = net.get(name, 0)
            text = format_money(from_centimes(amount), partie.currency)
            tint = GREEN if amount > 0 else RED if amount < 0 else GREY
            draw.text((WIDTH - MARGIN, y + 10), text, font=font, fill=tint, anchor="ra")
        draw.line((MARGIN, y + ROW - 2, WIDTH - MARGIN, y + ROW - 2), fill="#e5e5e5", width=2)
        y += ROW

    if states:
        _chart(draw, names, states, colour_of, marque.rules.seuil, top=y + 24)
    draw.text((WIDTH - MARGIN, height - 44), "ramiscore", font=small, fill=GREY, anchor="ra")

    info = PngInfo()
    info.add_itxt("Title", partie.name)
    info.add_itxt("Description", describe(marque))
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info, optimize=True)
    return out.getvalue()


def _chart(draw, names, states, colour_of, seuil, *, top: int) -> None:
    """The score chart, from the chart's own paths (a rachat drops the line to its restart)."""
    paths, _drops, _crosses = _paths(names, states)
    values = [score for path in paths.values() for _donne, score in path]
    low, high, step = _scale(values + ([seuil] if seuil is not None else []))
    left, right = MARGIN + 70, WIDTH - MARGIN
    plot_top, bottom = top + 20, top + 20 + PLOT_HEIGHT
    count = len(states)
    small = _font(24)

    def x_of(donne: int) -> float:
        return left + (right - left) * donne / count

    def y_of(score: int) -> float:
        return plot_top + (bottom - plot_top) * (high - score) / (high - low)

    draw.rectangle((left, plot_top, right, bottom), outline="#999999", width=2)
    for score in range(low, high + 1, step):
        y = y_of(score)
        draw.line((left, y, right, y), fill="#e5e5e5", width=1)
        draw.text((left - 10, y), number(score), font=small, fill=GREY, anchor="rm")
    for donne in range(0, count + 1, nice_step(count, 8)):
        draw.text((x_of(donne), bottom + 10), str(donne), font=small, fill=GREY, anchor="ma")
    if seuil is not None:
        _dashed(draw, (left, y_of(seuil)), (right, y_of(seuil)), RED, 3)
    for name in names:
        index = colour_of.get(name, 0)
        colour = COLOURS[index % len(COLOURS)]
        points = [(x_of(d), y_of(s)) for d, s in paths[name]]
        if len(points) > 1:
            draw.line(points, fill=colour, width=5, joint="curve")
        x, y = points[-1]
        _marker(draw, SHAPES[index % len(SHAPES)], colour, x, y, 10)
    # The legend: each name with its marker, three a row.
    column = (right - MARGIN) // PER_ROW
    for i, name in enumerate(names):
        index = colour_of.get(name, 0)
        x = MARGIN + (i % PER_ROW) * column
        y = bottom + 70 + (i // PER_ROW) * LEGEND_ROW
        _marker(draw, SHAPES[index % len(SHAPES)], COLOURS[index % len(COLOURS)], x + 12, y, 10)
        draw.text(
            (x + 32, y), _fit(draw, name, small, column - 40), font=small, fill=INK, anchor="lm"
        )

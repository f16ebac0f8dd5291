"""The score chart (games/display/chart.py): its steps, a line per player, the seuil, the rachats
and the eliminations, and names escaped."""

from __future__ import annotations

import re

from games.display.chart import nice_step, score_chart
from games.scoring import replay
from tests.sheet_records import ABC, P1, points


def _states(preset, players, donnes, **kwargs):
    return replay(preset, players, donnes, kwargs.pop("config", None), **kwargs).states


def test_nice_steps() -> None:
    assert [nice_step(s) for s in (10, 60, 130, 250, 1200)] == [2, 10, 50, 50, 200]


def test_the_chart_draws_a_line_per_player_the_seuil_rachats_and_eliminations() -> None:
    svg = score_chart(ABC, _states("classique", ABC, P1), seuil=100)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="player-line"') == 3
    assert len(set(re.findall(r'stroke-dasharray="([^"]+)"', svg))) >= 3  # paper: dashes differ
    assert svg.count('class="seuil"') == 1 and "seuil 100" in svg
    assert svg.count('<polygon class="rachat"') == 1 + 1  # Bruno's rachat, and the legend
    assert svg.count('class="elimination"') == 2 + 1  # Bruno and Chloé, and the legend
    assert ">Donne</text>" in svg and ">Points</text>" in svg and ">Chloé</text>" in svg
    assert score_chart(ABC, [], seuil=100) == ""


def test_the_chart_escapes_names() -> None:
    names = ["<b>A", "B"]
    donnes = [{"winner": "<b>A", "win": "rami", "hands": {"B": points(3)}}]
    svg = score_chart(names, _states("classique", names, donnes), seuil=100)
    assert "<b>A" not in svg and "&lt;b&gt;A" in svg

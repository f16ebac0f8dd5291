"""Each player's colour and marker, the same on the scoreboard, the marque, the charts and
the statistics: a habitué keeps the one chosen when he first sat at a table (models.Habitue
.colour). Colour is never alone: each has its marker shape (and, on the charts, its dash),
so a colour-blind reader or a black-and-white print tells the players apart. The colours are
Okabe-Ito's (games/display/chart.py); the pages give each a lighter tone in the dark theme
(static/css/ramiscore.css .pc-N)."""

from __future__ import annotations

from collections.abc import Iterable

from games.display.chart import COLOURS, SHAPES
from games.models import Joueur

COUNT = len(COLOURS)
# The chart's marker shapes as characters, for the pages' text.
GLYPHS = {
    "circle": "●",
    "square": "■",
    "triangle": "▲",
    "diamond": "◆",
    "plus": "✚",
    "star": "✱",
    "ring": "○",
    "bar": "▬",
}


def first_free(taken: Iterable[int | None]) -> int:
    """The first colour not in ``taken`` (all taken: the least seen of them)."""
    taken = list(taken)
    free = [c for c in range(COUNT) if c not in taken]
    if free:
        return free[0]
    return min(range(COUNT), key=taken.count)


def player_colours(joueurs: Iterable[Joueur]) -> dict[int, int]:
    """The colour of each joueur (by pk) at this table: his habitué's, unless a player seated
    before him has it too (then the first free one, for this partie only); a joueur without
    a habitué takes the first free one."""
    joueurs = list(joueurs)
    chosen: dict[int, int] = {}
    # First everyone who can keep his own (in seat order), then the others take what is free.
    for joueur in joueurs:
        habitue = joueur.habitue if Joueur.habitue.is_cached(joueur) else None
        wanted = habitue.colour if habitue is not None else None
        if wanted is not None and wanted not in chosen.values():
            chosen[joueur.pk] = wanted
    for joueur in joueurs:
        if joueur.pk not in chosen:
            chosen[joueur.pk] = first_free(chosen.values())
    return {joueur.pk: chosen[joueur.pk] for joueur in joueurs}


def glyph(colour: int) -> str:
    return GLYPHS[SHAPES[colour % COUNT]]

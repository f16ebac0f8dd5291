"""What the donne being typed would do, said before it is saved: each player's total after
it, who would cross the seuil (docs/rules.md R4) or reach the target (R18). The engine
applies the typed donne on top of the stored state of the last one; nothing is written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.display.numbers import number
from games.models import Joueur
from games.scoring import RamiError, replay
from games.selectors import PartieState


@dataclass(frozen=True)
class Outlook:
    """One player's line: "Léa → 107 : franchit 100". ``alert``: a crossing, an exclusion or
    the end of the partie, shown as a warning."""

    name: str
    total: int
    text: str
    alert: bool


def _input(winner: Joueur | None, win: str, hands: dict[Joueur, dict[str, Any]]) -> dict:
    """The typed donne as the engine reads it (as the service sends it: services/donnes.py)."""
    return {
        "winner": winner.name if winner else None,
        "win": win,
        "hands": {joueur.name: hand for joueur, hand in hands.items()},
        "rachat": {},
    }


def donne_outlook(stored: PartieState, cleaned: dict[str, Any]) -> list[Outlook]:
    """The lines of every player the donne is dealt to, or [] when it cannot be told (a
    decision still to take, a partie over, a donne the engine refuses: the form says why).
    ``stored``: the partie with its latest state (selectors.partie_state, ``last=1``)."""
    partie = stored.partie
    if stored.summary.pending or stored.summary.over or stored.summary.blocked:
        return []
    if "winner_joueur" not in cleaned or "hands" not in cleaned:
        return []
    donne = _input(cleaned["winner_joueur"], cleaned["win"], cleaned["hands"])
    try:
        result = replay(
            partie.preset,
            stored.names,
            [donne],
            stored.config,
            lenient=True,
            after=stored.last,
        )
    except RamiError:
        return []
    state = result.states[0]
    config = stored.config
    lines = []
    before = stored.last.in_race if stored.last else stored.names
    for name in before:
        total = state.totals_before_rachat.get(name, state.totals[name])
        words = []
        if name in state.target_reached_by:
            words.append(_("atteint l'objectif %(target)s") % {"target": number(config.target)})
        elif name in state.crossings:
            words.append(_("franchit %(seuil)s") % {"seuil": number(config.seuil)})
            if state.eliminated.get(name) == "definitive_exclusion":
                words.append(_("plus de rachat : éliminé"))
        text = f"{name} → {number(total)}"
        if words:
            text += " : " + ", ".join(words)
        lines.append(Outlook(name=name, total=total, text=text, alert=bool(words)))
    return lines

"""The observations column of the printed marque: one sentence per donne, written from the
engine's states in the spirit of the rule book ("Anne fait RAMI DE LA MAIN ; Bruno, 137, se
rachète (1er rachat) et repart à 27"). States in, translated strings out; no database."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.display.numbers import number, ordinal
from games.scoring import TALON_EPUISE, DonneState, gave_up

# How the rule book says each way of winning; seed 000 writes RAMI DE LA MAIN in capitals.
WIN_PHRASES = {
    "rami": gettext_lazy("%(winner)s fait rami"),
    "rami_de_la_main": gettext_lazy("%(winner)s fait RAMI DE LA MAIN"),
    "sortie": gettext_lazy("%(winner)s sort"),
    "tout_d_un_coup": gettext_lazy("%(winner)s pose tout d'un coup"),
    "rami_sec": gettext_lazy("%(winner)s fait rami sec"),
    "sortie_rami": gettext_lazy("%(winner)s sort (rami)"),
    "going_rami": gettext_lazy("%(winner)s fait going rami"),
}
WINS = gettext_lazy("%(winner)s gagne")

END_PHRASES = {
    "fixed_manches": gettext_lazy("Fin de la partie : dernière manche jouée"),
    "all_crossed": gettext_lazy("Fin de la partie : tous les joueurs ont franchi le seuil"),
    "target_reached": gettext_lazy("Fin de la partie : %(names)s atteint l'objectif"),
    "manual": gettext_lazy("Fin de la partie : arrêtée par la table"),
}


def _win(state: DonneState) -> str:
    if state.win == TALON_EPUISE:
        # docs/rules.md §4: rami52_7, talon exhausted: every player en course counts his hand.
        return _("Talon épuisé : tout le monde compte")
    return str(WIN_PHRASES.get(state.win, WINS)) % {"winner": state.winner}


def _crossing(state: DonneState, name: str) -> str:
    total = number(state.totals_before_rachat[name])
    if name in state.rachats:
        rachat = state.rachats[name]
        return _("%(name)s, %(total)s, se rachète (%(nth)s rachat) et repart à %(restart)s") % {
            "name": name,
            "total": total,
            "nth": ordinal(rachat.number),
            "restart": number(rachat.restart),
        }
    reason = state.eliminated.get(name)
    if reason == "definitive_exclusion":
        # docs/rules.md R8: beyond max_rachats no choice is offered.
        return _("%(name)s, %(nth)s franchissement : exclusion définitive") % {
            "name": name,
            "nth": ordinal(state.crossings[name]),
        }
    if gave_up(reason or ""):
        return _("%(name)s abandonne") % {"name": name}
    if state.partie_over:
        # docs/rules.md R15 / R10: no rachat when the partie ends in this donne; he ranks by total.
        return _("%(name)s atteint %(total)s") % {"name": name, "total": total}
    return _("%(name)s, %(total)s : rachat à décider") % {"name": name, "total": total}


def _end(state: DonneState) -> str:
    reason = state.end_reason or "manual"
    if reason == "last_standing":
        # docs/rules.md R9: the last player en course wins, whatever his total.
        return _("Fin de la partie : %(name)s est le dernier joueur en course") % {
            "name": state.in_race[0]
        }
    # docs/rules.md R18: who reached the target, as the engine says.
    names = _(" et ").join(state.target_reached_by)
    return str(END_PHRASES[reason]) % {"names": names or _("un joueur")}


def observation(state: DonneState, seats: Sequence[str]) -> str:
    """What happened in one donne, in seat order, parts joined with " ; "."""
    parts = [_win(state)]
    parts += [_crossing(state, name) for name in seats if name in state.crossings]
    if state.partie_over:
        parts.append(_end(state))
    return _(" ; ").join(parts)


def observations(states: Sequence[DonneState], seats: Sequence[str]) -> list[str]:
    return [observation(state, seats) for state in states]

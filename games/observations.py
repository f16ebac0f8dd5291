"""The observations column of the printed marque: one French sentence per donne, written from
the engine's states in the spirit of the rule book ("Anne fait RAMI DE LA MAIN ; Bruno, 137, se
rachète (1er rachat) et repart à 27"). Pure functions: states in, strings out."""

from __future__ import annotations

from collections.abc import Sequence

from games.scoring import TALON_EPUISE, Config, DonneState

# How the rule book says each way of winning; seed 000 writes RAMI DE LA MAIN in capitals.
WIN_PHRASES = {
    "rami": "{winner} fait rami",
    "rami_de_la_main": "{winner} fait RAMI DE LA MAIN",
    "sortie": "{winner} sort",
    "tout_d_un_coup": "{winner} pose tout d'un coup",
    "rami_sec": "{winner} fait rami sec",
    "sortie_rami": "{winner} sort (rami)",
    "going_rami": "{winner} fait going rami",
}

END_PHRASES = {
    "fixed_manches": "Fin de la partie : dernière manche jouée",
    "all_crossed": "Fin de la partie : tous les joueurs ont franchi le seuil",
    "target_reached": "Fin de la partie : {names} atteint l'objectif",
    "manual": "Fin de la partie : arrêtée par la table",
}


def number(value: int) -> str:
    """A score with a real minus sign, as on the marque: −30."""
    return f"−{-value}" if value < 0 else str(value)


def ordinal(n: int) -> str:
    return "1er" if n == 1 else f"{n}e"


def _win(state: DonneState) -> str:
    if state.win == TALON_EPUISE:
        # RULES.md §4: rami52_7, talon exhausted: every player en course counts his hand.
        return "Talon épuisé : tout le monde compte"
    phrase = WIN_PHRASES.get(state.win, "{winner} gagne")
    return phrase.format(winner=state.winner)


def _crossing(state: DonneState, name: str) -> str:
    total = number(state.totals_before_rachat[name])
    if name in state.rachats:
        rachat = state.rachats[name]
        return (
            f"{name}, {total}, se rachète ({ordinal(rachat.number)} rachat) "
            f"et repart à {number(rachat.restart)}"
        )
    reason = state.eliminated.get(name)
    if reason == "definitive_exclusion":
        # RULES.md R8: beyond max_rachats no choice is offered.
        return f"{name}, {ordinal(state.crossings[name])} franchissement : exclusion définitive"
    if reason == "declined":
        return f"{name} abandonne"
    if state.partie_over:
        # RULES.md R15 / R10: no rachat when the partie ends in this donne; he ranks by total.
        return f"{name} atteint {total}"
    return f"{name}, {total} : rachat à décider"


def _end(state: DonneState, config: Config | None) -> str:
    reason = state.end_reason or "manual"
    if reason == "last_standing":
        # RULES.md R9: the last player en course wins, whatever his total.
        return f"Fin de la partie : {state.in_race[0]} est le dernier joueur en course"
    names = ""
    if reason == "target_reached" and config is not None and config.target is not None:
        # RULES.md R18: who reached the target (≥, or > when the table chose strict).
        names = " et ".join(
            n
            for n in state.in_race
            if state.totals[n] >= config.target
            and (config.target_inclusive or state.totals[n] > config.target)
        )
    return END_PHRASES[reason].format(names=names or "un joueur")


def observation(state: DonneState, seats: Sequence[str], *, config: Config | None = None) -> str:
    """What happened in one donne, in seat order, parts joined with " ; "."""
    parts = [_win(state)]
    parts += [_crossing(state, name) for name in seats if name in state.crossings]
    if state.partie_over:
        parts.append(_end(state, config))
    return " ; ".join(parts)


def observations(
    states: Sequence[DonneState], seats: Sequence[str], *, config: Config | None = None
) -> list[str]:
    return [observation(state, seats, config=config) for state in states]

"""Who deals, for the pages and the services: the engine's rotation (games/scoring/dealer.py,
docs/rules.md "Le donneur") applied to a partie's joueurs; who dealt before is read by
games/selectors/."""

from __future__ import annotations

from collections.abc import Sequence

from games.models import Joueur, Partie
from games.scoring.dealer import first_dealer, next_dealer


def dealer_after(
    partie: Partie,
    joueurs: Sequence[Joueur],
    in_race: Sequence[str] | None,
    previous_id: int | None,
) -> Joueur | None:
    """The dealer of a donne dealt to ``in_race`` (names; None: everyone), the donne before
    it dealt by the joueur ``previous_id`` (None: the first donne, or a donne recorded before
    the app asked who dealt)."""
    if not joueurs:
        return None
    names = [j.name for j in joueurs]
    previous = next((j.name for j in joueurs if j.pk == previous_id), None)
    first = first_dealer(names, partie.first_dealer)
    name = next_dealer(names, names if in_race is None else in_race, previous, first)
    return next((j for j in joueurs if j.name == name), None)

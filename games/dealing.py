"""Who deals, for the pages and the services: the engine's rotation (games/scoring/dealer.py,
docs/rules.md "Le donneur") applied to a partie's joueurs and its stored donnes."""

from __future__ import annotations

from collections.abc import Sequence

from games.models import Donne, Joueur, Partie
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


def dealer_of_next(
    partie: Partie, joueurs: Sequence[Joueur], in_race: Sequence[str] | None, number: int
) -> Joueur | None:
    """The dealer of donne ``number`` about to be recorded: one query, for the dealer of the
    donne before it."""
    previous_id = None
    if number > 1:
        row = Donne.objects.filter(partie=partie, number=number - 1).values("dealer_id").first()
        previous_id = row["dealer_id"] if row else None
    return dealer_after(partie, joueurs, in_race, previous_id)


def dealers_by_number(partie: Partie, joueurs: Sequence[Joueur]) -> dict[int, Joueur]:
    """Who dealt each recorded donne (those recorded before the app asked are left out):
    one query."""
    by_id = {j.pk: j for j in joueurs}
    rows = Donne.objects.filter(partie=partie, dealer__isnull=False).values_list(
        "number", "dealer_id"
    )
    return {number: by_id[dealer_id] for number, dealer_id in rows if dealer_id in by_id}


def dealer_names(partie: Partie, joueurs: Sequence[Joueur]) -> dict[int, str]:
    """Who dealt each recorded donne, by name, for the sheet and the CSV: one query."""
    return {number: j.name for number, j in dealers_by_number(partie, joueurs).items()}

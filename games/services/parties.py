"""A partie's life: create it, end it by hand (docs/rules.md R21), reopen it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from games import errors
from games.errors import PartieError
from games.models import Joueur, Partie
from games.scoring import RamiError, replay
from games.selectors import partie_config
from games.services.locked import (
    locked,
    replayed,
)

Hands = dict[Joueur, dict[str, Any]]


@transaction.atomic
def partie_create(
    *, owner: AbstractBaseUser, name: str, preset: str, joueurs: list[str], **options: Any
) -> Partie:
    partie = Partie(owner=owner, name=name, preset=preset, **options)
    partie.full_clean()
    try:
        # The engine checks the table: number of players, names, options (RULES.md §8).
        replay(preset, joueurs, [], partie_config(partie), lenient=True)
    except RamiError as err:
        raise PartieError.from_rami(err) from err
    seats = [Joueur(partie=partie, name=n, seat=seat) for seat, n in enumerate(joueurs, 1)]
    for joueur in seats:
        try:
            joueur.full_clean(exclude=["partie"], validate_constraints=False)
        except ValidationError as err:
            raise PartieError(err.messages[0], code="nom_invalide", player=joueur.name) from err
    partie.save()
    Joueur.objects.bulk_create(seats)
    return partie


@transaction.atomic
def partie_close(*, partie: Partie) -> Partie:
    """RULES.md R21: the table ends the partie by hand; the ranking uses the current totals."""
    data = locked(partie)
    current = replayed(data, data.inputs(), ended=data.partie.ended)
    if current.over:
        raise PartieError(errors.DEJA_FINIE, code="partie_terminee")
    if current.pending:
        raise PartieError(errors.DECISION_EN_ATTENTE, code="decision_en_attente")
    data.partie.ended = True
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


@transaction.atomic
def partie_reopen(*, partie: Partie) -> Partie:
    data = locked(partie)
    if not data.partie.ended:
        raise PartieError(errors.PAS_FINIE, code="pas_terminee")
    data.partie.ended = False
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie

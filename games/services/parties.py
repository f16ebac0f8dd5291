"""A partie's life: create it, end it by hand (docs/rules.md R21), reopen it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.errors import PartieError
from games.models import Joueur, Partie
from games.options import config_of
from games.scoring import check_players, get_preset
from games.services.locked import locked


@transaction.atomic
def partie_create(
    *, owner: AbstractBaseUser, name: str, preset: str, joueurs: list[str], **options: Any
) -> Partie:
    partie = Partie(owner=owner, name=name, preset=preset, **options)
    partie.full_clean()
    # The engine checks the table: the players (docs/rules.md R28) and the options (§8).
    check_players(get_preset(preset), joueurs)
    config_of(partie)
    partie.save()
    Joueur.objects.bulk_create(
        Joueur(partie=partie, name=name, seat=seat) for seat, name in enumerate(joueurs, 1)
    )
    return partie


@transaction.atomic
def partie_close(*, partie: Partie) -> Partie:
    """docs/rules.md R21: the table ends the partie by hand; the ranking uses the current
    totals."""
    data = locked(partie)
    current = data.replay()
    if current.over:
        raise PartieError("deja_terminee")
    if current.pending:
        raise PartieError("decision_en_attente")
    data.partie.ended = True
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


@transaction.atomic
def partie_reopen(*, partie: Partie) -> Partie:
    data = locked(partie)
    if not data.partie.ended:
        raise PartieError("pas_terminee")
    data.partie.ended = False
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie

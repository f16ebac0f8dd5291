"""A partie's life: create it, end it by hand (docs/rules.md R21), reopen it, note it."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games import replays
from games.errors import PartieError
from games.models import Joueur, Partie
from games.options import config_of
from games.scoring import check_players, get_preset
from games.selectors import tail
from games.services.habitues import link_habitues
from games.services.locked import locked, store_from
from games.validators import note_problem, note_text

# An account keeps at most this many parties (README "Limits"): a table playing every evening
# for five years stays under it, and the home page and the backup of an account stay bounded.
MAX_PARTIES_PER_ACCOUNT = 2000


def ensure_room(owner: AbstractBaseUser, adding: int = 1, *, lock: bool = True) -> None:
    """Refuse what would take the account past MAX_PARTIES_PER_ACCOUNT. ``lock``: inside
    the write's transaction, the owner's row is locked first, so that two writes for one
    account count one after the other (PostgreSQL; SQLite's IMMEDIATE transactions already
    serialise writers); an import also checks early, unlocked, before its long work."""
    if lock:
        list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values("pk"))
    count = Partie.objects.filter(owner=owner).count()
    room = MAX_PARTIES_PER_ACCOUNT - count
    if adding <= max(room, 0):
        return
    if room <= 0:
        raise PartieError("compte_plein", count=count, max=MAX_PARTIES_PER_ACCOUNT)
    raise PartieError(
        "compte_presque_plein", adding=adding, count=count, room=room, max=MAX_PARTIES_PER_ACCOUNT
    )


@transaction.atomic
def partie_create(
    *, owner: AbstractBaseUser, name: str, preset: str, joueurs: list[str], **options: Any
) -> Partie:
    partie = Partie(owner=owner, name=name, preset=preset, **options)
    partie.full_clean()
    # The engine checks the table: the players (docs/rules.md R28) and the options (§8).
    check_players(get_preset(preset), joueurs)
    config_of(partie)
    if partie.first_dealer > len(joueurs):
        # docs/rules.md "Le donneur": the first dealer sits at the table.
        raise PartieError("premier_donneur_invalide", count=len(joueurs))
    ensure_room(owner)
    partie.save()
    seated = [Joueur(partie=partie, name=name, seat=seat) for seat, name in enumerate(joueurs, 1)]
    link_habitues(owner, seated)
    Joueur.objects.bulk_create(seated)
    replays.rebuild(partie)
    return partie


def note_token(note: str) -> str:
    """The state token of the note form: the note it was built on. A note is no part of the
    marque and does not move the partie's revision (a donne recorded meanwhile leaves the note
    as it was); only another note written meanwhile makes the form stale."""
    return hashlib.sha256(note.encode()).hexdigest()[:20]


@transaction.atomic
def partie_note_set(*, partie: Partie, note: str, token: str | None = None) -> Partie:
    """The partie's free note (where, who brought the cake, a dispute settled): not part of
    the marque, so the stored replay stays as it is. ``token``: the token of the form
    (``note_token``); another phone's note written since refuses it, an empty one too."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    if token is not None and token != note_token(partie.note):
        raise PartieError("etat_perime")
    note = note_text(note)
    problem = note_problem(note)
    if problem is not None:
        raise problem
    partie.note = note
    partie.save(update_fields=["note", "updated_at"])
    return partie


@transaction.atomic
def partie_close(*, partie: Partie) -> Partie:
    """docs/rules.md R21: the table ends the partie by hand; the ranking uses the current
    totals. Only the last donne is replayed: the end is written after it."""
    partie, summary = locked(partie)
    if summary.over:
        raise PartieError("deja_terminee")
    if summary.pending:
        raise PartieError("decision_en_attente")
    return _set_ended(partie, summary, True)


@transaction.atomic
def partie_reopen(*, partie: Partie) -> Partie:
    partie, summary = locked(partie)
    if not partie.ended:
        raise PartieError("pas_terminee")
    return _set_ended(partie, summary, False)


def _set_ended(partie: Partie, summary, ended: bool) -> Partie:
    partie.ended = ended
    partie.save(update_fields=["ended", "updated_at"])
    last = tail(partie, summary, summary.recorded)
    store_from(last, last.replay(), recorded=summary.recorded)
    return partie

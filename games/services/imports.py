"""Creating parties from files: one export, one game record, or a whole backup. The engine
accepts each record whole before anything is created; a refused file creates nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games.errors import NOM_IMPORT, PartieError
from games.files import Uploaded
from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.options import fields_of
from games.scoring import RamiError
from games.scoring.record import Record, record_from_dict


@transaction.atomic
def parties_import(
    *, owner: AbstractBaseUser, records: list[Uploaded]
) -> tuple[list[Partie], list[str]]:
    """Restore a backup (or import one file): every partie or none. A refused one names
    its place in the file ("Partie 3 « Mardi » : Donne 7 : …"). From a backup, a partie the
    account already has (same name, same creation time: restored twice) is skipped, and
    named; a single file imported is a new copy, as asked."""
    parties, skipped = [], []
    for index, upload in enumerate(records, start=1):
        if _already_restored(owner, upload):
            skipped.append(upload.name)
            continue
        try:
            parties.append(partie_import(owner=owner, record=upload.record, name=upload.name))
        except RamiError as err:
            if len(records) == 1:
                raise
            raise PartieError("partie_refusee", n=index, name=upload.name or "", cause=err) from err
        _restore_extras(parties[-1], upload)
    return parties, skipped


def _already_restored(owner: AbstractBaseUser, upload: Uploaded) -> bool:
    if not upload.from_backup or upload.created_at is None or upload.name is None:
        return False
    return Partie.objects.filter(
        owner=owner, name=upload.name, created_at=upload.created_at
    ).exists()


def _restore_extras(partie: Partie, upload: Uploaded) -> None:
    """What an export carries beyond the game record: the creation time (the Comptes page
    groups parties by evening) and the payments already ticked."""
    if upload.from_backup and upload.created_at is not None:
        Partie.objects.filter(pk=partie.pk).update(created_at=upload.created_at)
    stakes = upload.payes.get("mises") or []
    if isinstance(stakes, list):
        partie.joueurs.filter(name__in=[m for m in stakes if isinstance(m, str)]).update(
            stake_paid=True
        )
    for item in upload.payes.get("rachats") or []:
        if isinstance(item, list) and len(item) == 2:
            Rachat.objects.filter(
                donne__partie=partie, donne__number=item[0], joueur__name=item[1], accepted=True
            ).update(paid=True)


def _strict_check(record: Record) -> None:
    """docs/rules.md §2 in strict mode: every hand and every decision must be there. The one
    thing let through is a decision still to take, as the app itself stores it (a donne
    saved, or an old donne edited, before the crosser answers): what comes before it must be
    sound."""
    try:
        record.replay(lenient=False)
    except RamiError as err:
        if err.code != "decision_manquante":
            raise
        record.replay(lenient=True)


def _first(err: ValidationError) -> str:
    if hasattr(err, "message_dict"):
        field_name, messages = next(iter(err.message_dict.items()))
        return f"{field_name} : {messages[0]}"
    return err.messages[0]


def _cleaned(rows: list[Any], **exclude: Any) -> None:
    """The model's own checks on rows about to be created (lengths, limits)."""
    for row in rows:
        try:
            row.full_clean(**exclude)
        except ValidationError as err:
            raise PartieError("import_invalide", detail=_first(err)) from err


@transaction.atomic
def partie_import(
    *, owner: AbstractBaseUser, record: dict[str, Any], name: str | None = None
) -> Partie:
    """Create a partie from a game record (``rami score``'s shape, or the record of an export),
    after the engine has accepted it whole."""
    parsed = record_from_dict(record)
    _strict_check(parsed)
    title = (name or "").strip() or gettext(NOM_IMPORT)
    partie = Partie(
        owner=owner,
        name=title[:80],
        preset=parsed.preset.key,
        ended=parsed.ended,
        **fields_of(parsed.config, parsed.preset),
    )
    joueurs = [Joueur(partie=partie, name=p, seat=seat) for seat, p in enumerate(parsed.players, 1)]
    _cleaned([partie])
    _cleaned(joueurs, exclude=["partie"], validate_constraints=False)
    partie.save()
    by_name = {j.name: j for j in Joueur.objects.bulk_create(joueurs)}
    donnes = Donne.objects.bulk_create(
        Donne(partie=partie, number=number, winner=by_name.get(d.winner or ""), win=d.win)
        for number, d in enumerate(parsed.donnes, 1)
    )
    hands, rachats = [], []
    for donne, d in zip(donnes, parsed.donnes, strict=True):
        rows = [
            Hand(
                donne=donne,
                joueur=by_name[player],
                cards=" ".join(held.cards or ()),
                points=held.points,
                jokers=held.jokers,
            )
            for player, held in d.hands.items()
        ]
        try:
            _cleaned(rows, exclude=["donne", "joueur"])
        except PartieError as err:
            raise err.at(donne=donne.number) from None
        hands += rows
        rachats += [
            Rachat(donne=donne, joueur=by_name[player], accepted=accepted)
            for player, accepted in d.rachat.items()
        ]
    Hand.objects.bulk_create(hands)
    Rachat.objects.bulk_create(rachats)
    return partie

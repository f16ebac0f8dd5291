"""Creating parties from files: one export, one record, or a whole backup."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games import errors
from games.centimes import from_centimes
from games.errors import PartieError
from games.files import Uploaded
from games.models import Donne, Joueur, Main, Partie, Rachat
from games.scoring import RamiError
from games.scoring.errors import DONNE_PREFIX
from games.scoring.record import Record, record_from_dict

Hands = dict[Joueur, dict[str, Any]]


def _import_options(record: Record) -> dict[str, Any]:
    """The record's table options as Partie fields: money back to Decimal, and a rule option
    left empty when it is the preset's default, as the new-partie form leaves it."""
    config, preset = record.config, record.preset
    prices = [from_centimes(p) for p in config.prix_rachat]
    options: dict[str, Any] = {
        "mise_initiale": from_centimes(config.mise_initiale),
        "prix_rachat": prices[0],
        "valeur_point": from_centimes(config.valeur_point),
        "reglement": config.reglement,
    }
    if len(prices) == 3:
        options["prix_rachat_2"], options["prix_rachat_3"] = prices[1], prices[2]
    overrides = {
        "seuil": (config.threshold, preset.threshold),
        "seuil_inclusif": (config.inclusive, preset.inclusive),
        "max_rachats": (config.max_rachats, preset.max_rachats),
        "nombre_manches": (config.fixed_manches, preset.fixed_manches),
        "objectif": (config.target, preset.target),
        "objectif_inclusif": (config.target_inclusive, preset.target_inclusive),
    }
    for field_name, (value, default) in overrides.items():
        if value != default:
            options[field_name] = value
    return options


def _strict_check(record: Record) -> None:
    """RULES.md §2 in strict mode: every hand and every decision must be there. The one thing
    let through is a decision still to take, as the app itself allows."""
    try:
        record.replay(lenient=False)
    except RamiError as err:
        if err.code != "decision_manquante":
            raise
        # A decision still to take, as the app itself stores it (a donne saved, or an old
        # donne edited, before the crosser answers): what comes before it must be sound.
        record.replay(lenient=True)


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
        if upload.from_backup and upload.created_at is not None and upload.name is not None:
            twin = Partie.objects.filter(
                owner=owner, name=upload.name, created_at=upload.created_at
            )
            if twin.exists():
                skipped.append(upload.name)
                continue
        try:
            parties.append(partie_import(owner=owner, record=upload.record, name=upload.name))
        except PartieError as err:
            if len(records) == 1:
                raise
            where = errors.PARTIE_N % {"n": index, "name": upload.name or ""}
            raise PartieError(f"{where} {err.message}", code=err.code) from err
        _restore_extras(parties[-1], upload)
    return parties, skipped


def _restore_extras(partie: Partie, upload: Uploaded) -> None:
    """What an export carries beyond the game record: the creation time (the Comptes page
    groups parties by evening) and the payments already ticked."""
    if upload.from_backup and upload.created_at is not None:
        Partie.objects.filter(pk=partie.pk).update(created_at=upload.created_at)
    mises = upload.payes.get("mises") or []
    if isinstance(mises, list):
        partie.joueurs.filter(name__in=[m for m in mises if isinstance(m, str)]).update(
            mise_payee=True
        )
    for item in upload.payes.get("rachats") or []:
        if isinstance(item, list) and len(item) == 2:
            Rachat.objects.filter(
                donne__partie=partie, donne__number=item[0], joueur__name=item[1], accepted=True
            ).update(paid=True)


@transaction.atomic
def partie_import(
    *, owner: AbstractBaseUser, record: dict[str, Any], name: str | None = None
) -> Partie:
    """Create a partie from a game record (``rami score``'s shape, or the record of an export),
    after the engine has accepted it whole; a refused record creates nothing."""
    try:
        parsed = record_from_dict(record)
        _strict_check(parsed)
    except RamiError as err:
        raise PartieError.from_rami(err) from err
    lowered = [p.lower() for p in parsed.players]
    for index, player in enumerate(lowered):
        if player in lowered[:index]:
            # The database compares names without case (joueur_name_unique); the engine does not.
            raise PartieError(
                errors.JOUEUR_EN_DOUBLE % {"player": parsed.players[index]},
                code="joueurs_en_double",
                player=parsed.players[index],
            )
    title = (name or "").strip() or errors.NOM_IMPORT
    partie = Partie(
        owner=owner,
        name=title[:80],
        preset=parsed.preset.key,
        ended=parsed.ended,
        **_import_options(parsed),
    )
    joueurs = [Joueur(partie=partie, name=p, seat=seat) for seat, p in enumerate(parsed.players, 1)]
    try:
        partie.full_clean()
        for joueur in joueurs:
            joueur.full_clean(exclude=["partie"], validate_constraints=False)
    except ValidationError as err:
        detail = _first(err)
        raise PartieError(errors.IMPORT_INVALIDE % {"detail": detail}, code="invalide") from err
    partie.save()
    joueurs = Joueur.objects.bulk_create(joueurs)
    by_name = {j.name: j for j in joueurs}
    donnes = Donne.objects.bulk_create(
        Donne(
            partie=partie,
            number=number,
            winner=by_name[d.winner] if d.winner else None,
            win=d.win,
        )
        for number, d in enumerate(parsed.donnes, 1)
    )
    mains, rachats = [], []
    for donne, d in zip(donnes, parsed.donnes, strict=True):
        for player, held in d.hands.items():
            main = Main(
                donne=donne,
                joueur=by_name[player],
                cards=" ".join(held.cards or ()),
                points=held.points,
                jokers=held.jokers,
            )
            try:
                main.full_clean(exclude=["donne", "joueur"])
            except ValidationError as err:
                message = errors.IMPORT_INVALIDE % {"detail": _first(err)}
                raise PartieError(
                    gettext(DONNE_PREFIX) % {"donne": donne.number, "message": message},
                    code="invalide",
                    player=player,
                ) from err
            mains.append(main)
        rachats += [
            Rachat(donne=donne, joueur=by_name[player], accepted=accepted)
            for player, accepted in d.rachat.items()
        ]
    Main.objects.bulk_create(mains)
    Rachat.objects.bulk_create(rachats)
    return partie


def _first(err: ValidationError) -> str:
    if hasattr(err, "message_dict"):
        field_name, messages = next(iter(err.message_dict.items()))
        return f"{field_name} : {messages[0]}"
    return err.messages[0]

"""Creating parties from files: one export, one game record, or a whole backup. The engine
accepts each record whole before anything is created; a refused file creates nothing.

Everything is read, replayed and turned into rows first, outside any transaction; then one
short transaction writes them all (bulk inserts) with their stored replays. A big file thus
holds SQLite's write lock for the inserts alone, not for the whole check: a phone recording
a donne meanwhile waits a moment, not seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games import replays
from games.centimes import from_centimes
from games.errors import NOM_IMPORT, PartieError
from games.files import Uploaded
from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.options import fields_of
from games.scoring import Config, Preset, RamiError, Replay, name_key, stored_name
from games.scoring.dealer import can_deal
from games.scoring.errors import N_, Detail
from games.scoring.players import shown
from games.scoring.record import Record, record_from_dict
from games.services.habitues import link_habitues
from games.services.parties import ensure_room

# full_clean without the checks that ask the database: the rows are new, and the engine has
# already made each hand either cards or points, one per joueur (the tables' constraints).
NO_QUERY = {"validate_unique": False, "validate_constraints": False}


@dataclass
class _Ready:
    """A partie the engine accepted, as rows not yet written, with its replay."""

    upload: Uploaded
    partie: Partie
    joueurs: list[Joueur]
    donnes: list[Donne]
    hands: list[Hand]
    rachats: list[Rachat]
    result: Replay


def parties_import(
    *, owner: AbstractBaseUser, records: list[Uploaded]
) -> tuple[list[Partie], list[str]]:
    """Restore a backup (or import one file): every partie or none. A refused one names
    its place in the file ("Partie 3 « Mardi » : Donne 7 : …"). From a backup, a partie the
    account already has (same name, same creation time: restored twice) is skipped, and
    named; a single file imported is a new copy, as asked."""
    there = _already_there(owner, records)
    skipped = [u.name or "" for u, done in zip(records, there, strict=True) if done]
    todo = [(n, u) for (n, u), done in zip(enumerate(records, 1), there, strict=True) if not done]
    ensure_room(owner, len(todo), lock=False)  # before the long work; checked again below
    ready = []
    for index, upload in todo:
        try:
            ready.append(_prepare(owner, upload))
        except RamiError as err:
            if len(records) == 1:
                raise
            raise PartieError(
                "partie_refusee", n=index, name=shown(upload.name or ""), cause=err
            ) from err
    with transaction.atomic():
        # The same backup restored meanwhile (another tab) may have come first.
        there = _already_there(owner, [r.upload for r in ready])
        skipped += [r.upload.name or "" for r, done in zip(ready, there, strict=True) if done]
        ready = [r for r, done in zip(ready, there, strict=True) if not done]
        ensure_room(owner, len(ready))
        _write(ready)
    return [r.partie for r in ready], skipped


def partie_import(
    *, owner: AbstractBaseUser, record: dict[str, Any], name: str | None = None
) -> Partie:
    """Create a partie from a game record (``rami score``'s shape, or the record of an export),
    after the engine has accepted it whole."""
    [partie], _skipped = parties_import(owner=owner, records=[Uploaded(record=record, name=name)])
    return partie


def _key(upload: Uploaded) -> tuple[str, datetime] | None:
    """What tells a partie of a backup restored already; None for a file imported."""
    if not upload.from_backup or upload.created_at is None or upload.name is None:
        return None
    return (upload.name, upload.created_at)


def _already_there(owner: AbstractBaseUser, uploads: list[Uploaded]) -> list[bool]:
    """For each upload, whether the account has it already, or the file had it before: one
    query."""
    keys = [_key(upload) for upload in uploads]
    names = {key[0] for key in keys if key is not None}
    there = set()
    if names:
        rows = Partie.objects.filter(owner=owner, name__in=names)
        there = set(rows.values_list("name", "created_at"))
    found = []
    for key in keys:
        found.append(key is not None and key in there)
        if key is not None:
            there.add(key)
    return found


def _checked_replay(record: Record) -> Replay:
    """docs/rules.md §2 in strict mode: every hand and every decision must be there. The one
    thing let through is a decision still to take, as the app itself stores it (a donne
    saved, or an old donne edited, before the crosser answers): what comes before it must be
    sound. Returns the lenient replay, which the app stores: when the strict one goes
    through, nothing is pending nor stale, and the two are the same."""
    try:
        return record.replay(lenient=False)
    except RamiError as err:
        if err.code != "decision_manquante":
            raise
        return record.replay(lenient=True)


def _first(err: ValidationError) -> str:
    if hasattr(err, "message_dict"):
        field_name, messages = next(iter(err.message_dict.items()))
        return f"{field_name} : {messages[0]}"
    return err.messages[0]


def _cleaned(rows: list[Any], **options: Any) -> None:
    """The model's own checks on rows about to be created (lengths, limits)."""
    for row in rows:
        try:
            row.full_clean(**options)
        except ValidationError as err:
            raise PartieError("import_invalide", detail=_first(err)) from err


def _option_fields(config: Config, preset: Preset) -> dict[str, Any]:
    """The partie's fields for ``config``, with a list of rachat prices of any length
    (docs/rules.md R25): the partie has three price fields, an empty one repeating the price
    before it. Prices past the third apply only beyond 3 rachats, which a partie never
    allows (``Partie.max_rachats``)."""
    fields = fields_of(config, preset)
    prices = [from_centimes(p) for p in config.rachat_prices]
    if len(prices) > 1:
        fields["rachat_price_2"] = prices[1]
        fields["rachat_price_3"] = prices[2] if len(prices) > 2 else None
    return fields


def _seated(seated: dict[str, str], name: str, field: str) -> str:
    """The stored name of the player ``name`` means, in a part of an export the engine does
    not read (the payment ticks)."""
    found = seated.get(name_key(name))
    if found is None:
        detail = Detail(
            N_("« %(field)s » nomme %(player)s, qui ne joue pas à cette table"),
            field=field,
            player=shown(name),
        )
        raise RamiError("enregistrement_invalide", detail=detail)
    return found


def _prepare(owner: AbstractBaseUser, upload: Uploaded) -> _Ready:
    """The partie of ``upload`` as rows to insert, with what an export carries beyond the
    game record (the payments already ticked). No query but the checks of full_clean."""
    parsed = record_from_dict(upload.record)
    result = _checked_replay(parsed)
    if not 1 <= upload.first_dealer <= len(parsed.players):
        # As the new-partie form: the first dealer is one of the players (docs/rules.md §2.4).
        raise PartieError("premier_donneur_invalide", count=len(parsed.players))
    title = (upload.name or "").strip() or gettext(NOM_IMPORT)
    partie = Partie(
        owner=owner,
        name=title,  # checked by full_clean below: at most 80 characters, all readable
        preset=parsed.preset.key,
        ended=parsed.ended,
        note=upload.note,
        first_dealer=upload.first_dealer,
        **_option_fields(parsed.config, parsed.preset),
    )
    # docs/rules.md R28: each player stored under his trimmed, NFC name; every name in the
    # file (donnes, payment ticks) means the player with the same key.
    seated = {name_key(p): stored_name(p) for p in parsed.players}
    paid_mises = {_seated(seated, m, "payes.mises") for m in upload.payes.get("mises", [])}
    joueurs = [
        Joueur(partie=partie, name=name, seat=seat, mise_paid=name in paid_mises)
        for seat, name in enumerate(seated.values(), 1)
    ]
    # The owner is the account importing: no query per partie to find it exists.
    _cleaned([partie], exclude=["owner"])
    _cleaned(joueurs, exclude=["partie"], **NO_QUERY)
    by_name = {j.name: j for j in joueurs}
    paid = set()
    for number, player in upload.payes.get("rachats", []):
        if number > len(parsed.donnes):
            detail = Detail(N_("« payes.rachats » : il n'y a pas de donne %(n)s"), n=number)
            raise RamiError("enregistrement_invalide", detail=detail)
        paid.add((number, _seated(seated, player, "payes.rachats")))
    donnes, hands, rachats = [], [], []
    checked: set[tuple[str, int | None, int]] = set()
    for number, given in enumerate(parsed.donnes, 1):
        # The donnes after a decision still to take were not replayed (lenient): their names
        # are checked here too.
        try:
            d = given.named(seated)
        except RamiError as err:
            raise err.at(donne=number) from None
        donne = Donne(partie=partie, number=number, winner=by_name.get(d.winner or ""), win=d.win)
        dealer = upload.dealers[number - 1] if number <= len(upload.dealers) else None
        if dealer is not None:
            # docs/rules.md "Le donneur": as the donne form, one of those it is dealt to.
            name = seated.get(name_key(dealer))
            if name is None or not can_deal(result.in_race_before(number), name):
                raise PartieError("donneur_invalide").at(donne=number)
            donne.dealer = by_name[name]
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
        # A hand's own checks depend on its values alone: each one once.
        fresh = [r for r in rows if (r.cards, r.points, r.jokers) not in checked]
        try:
            _cleaned([donne], exclude=["partie", "winner", "dealer"], **NO_QUERY)
            _cleaned(fresh, exclude=["donne", "joueur"], **NO_QUERY)
        except PartieError as err:
            raise err.at(donne=number) from None
        checked.update((r.cards, r.points, r.jokers) for r in fresh)
        donnes.append(donne)
        hands += rows
        rachats += [
            Rachat(
                donne=donne,
                joueur=by_name[player],
                accepted=accepted,
                paid=accepted and (number, player) in paid,
            )
            for player, accepted in d.rachat.items()
        ]
    return _Ready(upload, partie, joueurs, donnes, hands, rachats, result)


def _write(ready: list[_Ready]) -> None:
    """Insert the rows of every partie, then store each one's replay: a few queries per
    table, whatever the number of donnes. Inside the caller's transaction."""
    Partie.objects.bulk_create([r.partie for r in ready])
    # A restored partie keeps its creation time (the Comptes page groups parties by
    # evening), which auto_now_add set aside on insert.
    restored = [r for r in ready if r.upload.from_backup and r.upload.created_at is not None]
    for r in restored:
        r.partie.created_at = r.upload.created_at
    Partie.objects.bulk_update([r.partie for r in restored], ["created_at"])
    joueurs = [j for r in ready for j in r.joueurs]
    if ready:
        link_habitues(ready[0].partie.owner, joueurs)  # the account's habitués
    Joueur.objects.bulk_create(joueurs)
    Donne.objects.bulk_create([d for r in ready for d in r.donnes])
    Hand.objects.bulk_create([h for r in ready for h in r.hands])
    Rachat.objects.bulk_create([x for r in ready for x in r.rachats])
    replays.store_new([(r.partie, r.result, len(r.donnes)) for r in ready])

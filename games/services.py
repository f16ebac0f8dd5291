"""Every write. Each one locks the partie, replays the would-be donnes through the engine
(games.scoring) and saves everything or nothing."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from games import errors
from games.errors import PartieError
from games.exports import Uploaded
from games.models import Donne, Joueur, Main, Partie, Rachat
from games.money import from_centimes
from games.scoring import RamiError, Replay, replay
from games.scoring.errors import DONNE_PREFIX
from games.scoring.record import Record, record_from_dict
from games.selectors import PartieData, partie_config, partie_load

Hands = dict[Joueur, dict[str, Any]]


@dataclass
class Change:
    """What an edit did to the partie, for the page to say."""

    totals: dict[str, tuple[int, int]] = field(default_factory=dict)  # name: (before, after)
    removed_decisions: list[tuple[int, str]] = field(default_factory=list)  # (donne, name)
    pending: list[tuple[int, str]] = field(default_factory=list)  # (donne, name), new ones
    # Rachats marked paid whose line went away: (donne, name, amount to give back).
    refunds: list[tuple[int, str, Decimal]] = field(default_factory=list)


@dataclass
class Repriced:
    """A payment marked before a price change: it was ``old``, it is now ``new``."""

    name: str
    donne: int | None  # None for the stake
    old: Decimal
    new: Decimal


def _locked(partie: Partie, etat: str | None = None) -> PartieData:
    # Two phones writing at once queue here (PostgreSQL row lock; SQLite's IMMEDIATE
    # transactions already serialise writers).
    data = partie_load(Partie.objects.select_for_update().get(pk=partie.pk))
    # A form built on an older state is refused rather than silently overwriting.
    if etat is not None and etat != data.etat:
        raise PartieError(errors.ETAT_PERIME, code="etat_perime")
    return data


def _replay(data: PartieData, inputs: list[dict[str, Any]], *, ended: bool = False) -> Replay:
    try:
        return data.replay(inputs, ended=ended)
    except RamiError as err:
        raise PartieError.from_rami(err) from err


def _input(winner: Joueur | None, win: str, hands: Hands) -> dict[str, Any]:
    return {
        "winner": winner.name if winner else None,
        "win": win,
        "hands": {joueur.name: hand for joueur, hand in hands.items()},
        "rachat": {},
    }


def _save_hands(donne: Donne, hands: Hands) -> list[Main]:
    mains = [
        Main(
            donne=donne,
            joueur=joueur,
            cards=" ".join(hand.get("cards") or []),
            points=hand.get("points"),
            jokers=hand.get("jokers", 0),
        )
        for joueur, hand in hands.items()
    ]
    for main in mains:
        main.full_clean(exclude=["donne", "joueur"])
    return Main.objects.bulk_create(mains)


def _change(
    before: Replay,
    after: Replay,
    removed: list[tuple[int, str]],
    refunds: list[tuple[int, str, Decimal]],
) -> Change:
    old = before.states[-1].totals if before.states else {}
    new = after.states[-1].totals if after.states else {}
    totals = {
        name: (old.get(name, 0), new.get(name, 0))
        for name in {**old, **new}
        if old.get(name, 0) != new.get(name, 0)
    }
    if len(before.states) != len(after.states):
        # One replay stops at a pending decision and the other does not: their last totals
        # are not after the same donne, so comparing them would mislead.
        totals = {}
    already = {(p.donne, p.player) for p in before.pending}
    return Change(
        totals=totals,
        removed_decisions=removed,
        pending=[(p.donne, p.player) for p in after.pending if (p.donne, p.player) not in already],
        refunds=refunds,
    )


def _rachat_prices(data: PartieData, result: Replay) -> dict[tuple[int, str], int]:
    """The price of every rachat the replay applied, by (donne pk, name), in centimes."""
    return {
        (donne.pk, name): info.price
        for state, donne in zip(result.states, data.donnes, strict=False)
        for name, info in state.rachats.items()
    }


def _refund(rachat: Rachat, number: int, prices: dict[tuple[int, str], int]):
    price = prices.get((rachat.donne_id, rachat.joueur.name), 0)
    if rachat.paid and rachat.accepted and price:
        return (number, rachat.joueur.name, from_centimes(price))
    return None


def _drop_stale_decisions(
    data: PartieData, result: Replay, prices: dict[tuple[int, str], int]
) -> tuple[list[tuple[int, str]], list[tuple[int, str, Decimal]]]:
    """RULES.md R5: a decision only exists for a crossing; an edit can take the crossing away.
    A rachat already marked paid then has money to give back (RULES.md R11)."""
    removed, refunds = [], []
    for number, name in result.stale_decisions:
        donne = data.donnes[number - 1]
        for rachat in data.rachats_of(donne):
            if rachat.joueur.name == name and (refund := _refund(rachat, number, prices)):
                refunds.append(refund)
        Rachat.objects.filter(donne=donne, joueur=data.by_name(name)).delete()
        removed.append((number, name))
    return removed, refunds


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
def donne_create(
    *,
    partie: Partie,
    winner: Joueur | None,
    win: str,
    hands: Hands,
    cle: uuid.UUID | None = None,
    etat: str | None = None,
) -> Donne:
    if cle is not None:
        # A double tap or a resend after a network drop: the donne is already there.
        Partie.objects.select_for_update().get(pk=partie.pk)
        done = Donne.objects.filter(partie=partie, cle=cle).first()
        if done is not None:
            return done
    data = _locked(partie, etat)
    if data.partie.ended:
        raise PartieError(errors.PARTIE_FINIE, code="partie_terminee")
    number = len(data.donnes) + 1
    # One replay checks everything: the new donne after the stored ones.
    try:
        after = data.replay([*data.inputs(), _input(winner, win, hands)], ended=False)
    except RamiError as err:
        if err.code == "partie_terminee":  # the engine ended it (last standing, manches…)
            raise PartieError(errors.PARTIE_FINIE, code="partie_terminee") from err
        raise PartieError.from_rami(err) from err
    if any(p.donne < number for p in after.pending):
        # RULES.md R5: the crossers of an earlier donne answer before the next deal.
        raise PartieError(errors.DECISION_EN_ATTENTE, code="decision_en_attente")
    donne = Donne(partie=data.partie, number=number, winner=winner, win=win, cle=cle)
    donne.full_clean(exclude=["partie", "winner"])
    donne.save()
    mains = _save_hands(donne, hands)
    data.partie.save(update_fields=["updated_at"])
    # The page shows the partie as it now is: hand it over instead of loading it again.
    data.donnes.append(donne)
    data.mains[donne.pk] = mains
    donne.replayed = (data, after)
    return donne


@transaction.atomic
def donne_update(
    *, donne: Donne, winner: Joueur | None, win: str, hands: Hands, etat: str | None = None
) -> Change:
    data = _locked(donne.partie, etat)
    inputs = data.inputs()
    before = _replay(data, inputs, ended=data.partie.ended)
    index = donne.number - 1
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = _replay(data, inputs, ended=data.partie.ended)
    stored = data.donnes[index]
    stored.winner, stored.win = winner, win
    stored.full_clean(exclude=["partie", "winner"])
    stored.save()
    Main.objects.filter(donne=stored).delete()
    _save_hands(stored, hands)
    removed, refunds = _drop_stale_decisions(data, after, _rachat_prices(data, before))
    data.partie.save(update_fields=["updated_at"])
    return _change(before, after, removed, refunds)


@transaction.atomic
def donne_delete(*, donne: Donne, etat: str | None = None) -> Change:
    data = _locked(donne.partie, etat)
    inputs = data.inputs()
    before = _replay(data, inputs, ended=data.partie.ended)
    del inputs[donne.number - 1]
    after = _replay(data, inputs, ended=data.partie.ended)
    number = donne.number
    prices = _rachat_prices(data, before)
    # The deleted donne's own rachats go with it (cascade): give back what was paid.
    refunds = [
        refund
        for rachat in data.rachats_of(data.donnes[number - 1])
        if (refund := _refund(rachat, number, prices))
    ]
    Donne.objects.filter(pk=donne.pk).delete()
    # Renumber in two steps so that no moment has two donnes with one number (constraint).
    later = Donne.objects.filter(partie=data.partie, number__gt=number)
    later.update(number=F("number") + 1_000_000)
    later = Donne.objects.filter(partie=data.partie, number__gt=1_000_000)
    later.update(number=F("number") - 1_000_001)
    data = partie_load(data.partie)
    removed, stale_refunds = _drop_stale_decisions(data, after, prices)
    data.partie.save(update_fields=["updated_at"])
    return _change(before, after, removed, refunds + stale_refunds)


@transaction.atomic
def rachat_decide(*, partie: Partie, joueur: Joueur, accepted: bool) -> Rachat:
    data = _locked(partie)
    inputs = data.inputs()
    current = _replay(data, inputs, ended=data.partie.ended)
    pending = next((p for p in current.pending if p.player == joueur.name), None)
    if pending is None:
        # The same answer tapped twice: the first one counted, the second changes nothing.
        made = [r for d in data.donnes for r in data.rachats_of(d) if r.joueur_id == joueur.pk]
        latest = max(made, key=lambda r: r.pk, default=None)
        if latest is not None and latest.accepted == accepted:
            return latest
    if pending is None:
        raise PartieError(errors.PAS_DE_DECISION % {"player": joueur.name}, code="pas_de_rachat")
    inputs[pending.donne - 1]["rachat"][joueur.name] = accepted
    # Declining can make later donnes impossible (he won one of them): the engine says so.
    _replay(data, inputs, ended=data.partie.ended)
    rachat = Rachat(donne=data.donnes[pending.donne - 1], joueur=joueur, accepted=accepted)
    rachat.save()
    data.partie.save(update_fields=["updated_at"])
    return rachat


@transaction.atomic
def partie_close(*, partie: Partie) -> Partie:
    """RULES.md R21: the table ends the partie by hand; the ranking uses the current totals."""
    data = _locked(partie)
    current = _replay(data, data.inputs(), ended=data.partie.ended)
    if current.over:
        raise PartieError(errors.DEJA_FINIE, code="partie_terminee")
    if current.pending:
        raise PartieError(errors.DECISION_EN_ATTENTE, code="decision_en_attente")
    data.partie.ended = True
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


@transaction.atomic
def partie_reopen(*, partie: Partie) -> Partie:
    data = _locked(partie)
    if not data.partie.ended:
        raise PartieError(errors.PAS_FINIE, code="pas_terminee")
    data.partie.ended = False
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


# -- money (RULES.md §2 "Money", R11) ---------------------------------------------------------


@transaction.atomic
def mise_mark_paid(*, joueur: Joueur, paid: bool) -> Joueur:
    """The scorekeeper ticks a stake when its money is on the table."""
    partie = Partie.objects.select_for_update().get(pk=joueur.partie_id)
    if paid and not partie.mise_initiale:
        raise PartieError(errors.PAS_DE_MISE, code="pas_de_mise")
    joueur = Joueur.objects.get(pk=joueur.pk, partie=partie)
    joueur.mise_payee = paid
    joueur.save(update_fields=["mise_payee"])
    partie.save(update_fields=["updated_at"])
    return joueur


@transaction.atomic
def rachat_mark_paid(*, rachat: Rachat, paid: bool) -> Rachat:
    """The scorekeeper ticks a rachat when its price is on the table."""
    partie = Partie.objects.select_for_update().get(pk=rachat.donne.partie_id)
    rachat = Rachat.objects.select_related("joueur", "donne").get(pk=rachat.pk)
    if paid and not rachat.accepted:
        # Declining costs nothing (RULES.md §2 step 9): there is no price to pay.
        raise PartieError(
            errors.RACHAT_REFUSE % {"player": rachat.joueur.name}, code="rachat_refuse"
        )
    rachat.paid = paid
    rachat.save(update_fields=["paid"])
    partie.save(update_fields=["updated_at"])
    return rachat


@transaction.atomic
def partie_update_money(
    *,
    partie: Partie,
    mise_initiale: Decimal,
    prix_rachat: Decimal,
    valeur_point: Decimal,
    reglement: str,
) -> list[Repriced]:
    """Change the stakes of a partie, even in progress. Nothing owed is stored: the next
    replay recomputes it. Returns the payments already marked whose amount changed."""
    data = _locked(partie)
    before = _replay(data, data.inputs(), ended=data.partie.ended)
    old_mise = data.partie.mise_initiale
    stored = data.partie
    stored.mise_initiale, stored.prix_rachat = mise_initiale, prix_rachat
    stored.valeur_point, stored.reglement = valeur_point, reglement
    stored.full_clean()
    after = _replay(data, data.inputs(), ended=stored.ended)  # the engine checks the options
    stored.save(
        update_fields=["mise_initiale", "prix_rachat", "valeur_point", "reglement", "updated_at"]
    )
    repriced = [
        Repriced(j.name, None, old_mise, stored.mise_initiale)
        for j in data.joueurs
        if j.mise_payee and old_mise != stored.mise_initiale
    ]
    old_prices, new_prices = _rachat_prices(data, before), _rachat_prices(data, after)
    for donne in data.donnes:
        for rachat in data.rachats_of(donne):
            key = (donne.pk, rachat.joueur.name)
            if rachat.paid and old_prices.get(key, 0) != new_prices.get(key, 0):
                repriced.append(
                    Repriced(
                        rachat.joueur.name,
                        donne.number,
                        from_centimes(old_prices.get(key, 0)),
                        from_centimes(new_prices.get(key, 0)),
                    )
                )
    return repriced


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


@transaction.atomic
def partie_share(*, partie: Partie) -> Partie:
    """Issue #7: give the partie a new share link. Sharing again replaces the token, so a link
    that went too far stops working."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    locked.share_token = secrets.token_urlsafe(24)  # 192 bits: not guessable
    locked.save(update_fields=["share_token", "updated_at"])
    return locked


@transaction.atomic
def partie_unshare(*, partie: Partie) -> Partie:
    """Revoke the share link: /suivre/<token>/ answers 404 from now on."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    locked.share_token = None
    locked.save(update_fields=["share_token", "updated_at"])
    return locked

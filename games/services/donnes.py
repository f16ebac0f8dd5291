"""Recording, editing and deleting a donne, and the crossers' rachat decisions."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.db.models import F

from games import errors
from games.errors import PartieError
from games.models import Donne, Joueur, Main, Partie, Rachat
from games.scoring import RamiError
from games.selectors import partie_load
from games.services.locked import (
    Change,
    change,
    drop_stale_decisions,
    locked,
    rachat_prices,
    refund,
    replayed,
)

Hands = dict[Joueur, dict[str, Any]]


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
    data = locked(partie, etat)
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
    data = locked(donne.partie, etat)
    inputs = data.inputs()
    before = replayed(data, inputs, ended=data.partie.ended)
    index = donne.number - 1
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = replayed(data, inputs, ended=data.partie.ended)
    stored = data.donnes[index]
    stored.winner, stored.win = winner, win
    stored.full_clean(exclude=["partie", "winner"])
    stored.save()
    Main.objects.filter(donne=stored).delete()
    _save_hands(stored, hands)
    removed, refunds = drop_stale_decisions(data, after, rachat_prices(data, before))
    data.partie.save(update_fields=["updated_at"])
    return change(before, after, removed, refunds)


@transaction.atomic
def donne_delete(*, donne: Donne, etat: str | None = None) -> Change:
    data = locked(donne.partie, etat)
    inputs = data.inputs()
    before = replayed(data, inputs, ended=data.partie.ended)
    del inputs[donne.number - 1]
    after = replayed(data, inputs, ended=data.partie.ended)
    number = donne.number
    prices = rachat_prices(data, before)
    # The deleted donne's own rachats go with it (cascade): give back what was paid.
    refunds = [
        refund_due
        for rachat in data.rachats_of(data.donnes[number - 1])
        if (refund_due := refund(rachat, number, prices))
    ]
    Donne.objects.filter(pk=donne.pk).delete()
    # Renumber in two steps so that no moment has two donnes with one number (constraint).
    later = Donne.objects.filter(partie=data.partie, number__gt=number)
    later.update(number=F("number") + 1_000_000)
    later = Donne.objects.filter(partie=data.partie, number__gt=1_000_000)
    later.update(number=F("number") - 1_000_001)
    data = partie_load(data.partie)
    removed, stale_refunds = drop_stale_decisions(data, after, prices)
    data.partie.save(update_fields=["updated_at"])
    return change(before, after, removed, refunds + stale_refunds)


@transaction.atomic
def rachat_decide(*, partie: Partie, joueur: Joueur, accepted: bool) -> Rachat:
    data = locked(partie)
    inputs = data.inputs()
    current = replayed(data, inputs, ended=data.partie.ended)
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
    replayed(data, inputs, ended=data.partie.ended)
    rachat = Rachat(donne=data.donnes[pending.donne - 1], joueur=joueur, accepted=accepted)
    rachat.save()
    data.partie.save(update_fields=["updated_at"])
    return rachat

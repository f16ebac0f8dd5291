"""Recording, editing and deleting a donne, and the crossers' rachat decisions. The engine
checks each write by replaying the partie as it would be; a refusal saves nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from games.errors import PartieError
from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.scoring import RamiError
from games.selectors import PartieData
from games.services.locked import (
    Change,
    Replayed,
    change,
    drop_stale_decisions,
    ensure_fresh,
    locked,
    rachat_prices,
    refund,
)

Hands = dict[Joueur, dict[str, Any]]


@dataclass(frozen=True)
class DonneRecorded:
    """A new donne, and the partie after it. ``repeated``: the same form was sent twice (a
    double tap, a resend after a network drop) and the donne was already there."""

    donne: Donne
    partie: Replayed
    repeated: bool = False


@dataclass(frozen=True)
class RachatDecided:
    rachat: Rachat
    partie: Replayed


def _input(winner: Joueur | None, win: str, hands: Hands) -> dict[str, Any]:
    return {
        "winner": winner.name if winner else None,
        "win": win,
        "hands": {joueur.name: hand for joueur, hand in hands.items()},
        "rachat": {},
    }


def _save_hands(donne: Donne, hands: Hands) -> list[Hand]:
    rows = [
        Hand(
            donne=donne,
            joueur=joueur,
            cards=" ".join(hand.get("cards") or []),
            points=hand.get("points"),
            jokers=hand.get("jokers", 0),
        )
        for joueur, hand in hands.items()
    ]
    for row in rows:
        row.full_clean(exclude=["donne", "joueur"])
    return Hand.objects.bulk_create(rows)


@transaction.atomic
def donne_create(
    *,
    partie: Partie,
    winner: Joueur | None,
    win: str,
    hands: Hands,
    idempotency_key: uuid.UUID | None = None,
    etat: str | None = None,
) -> DonneRecorded:
    data = locked(partie)
    # A double tap or a resend after a network drop: the donne is already there.
    done = next((d for d in data.donnes if d.idempotency_key == idempotency_key), None)
    if idempotency_key is not None and done is not None:
        return DonneRecorded(done, Replayed(data, data.replay()), repeated=True)
    ensure_fresh(data, etat)
    if data.partie.ended:
        raise PartieError("partie_terminee")
    number = len(data.donnes) + 1
    # One replay checks everything: the new donne after the stored ones.
    try:
        after = data.replay([*data.inputs(), _input(winner, win, hands)], ended=False)
    except RamiError as err:
        if err.code == "partie_terminee":  # the engine ended it (last standing, manches…)
            raise PartieError("partie_terminee") from err
        raise
    if any(p.donne < number for p in after.pending):
        # docs/rules.md R5: the crossers of an earlier donne answer before the next deal.
        raise PartieError("decision_en_attente")
    donne = Donne(
        partie=data.partie, number=number, winner=winner, win=win, idempotency_key=idempotency_key
    )
    donne.full_clean(exclude=["partie", "winner"])
    donne.save()
    saved = _save_hands(donne, hands)
    data.partie.save(update_fields=["updated_at"])
    # The page shows the partie as it now is: hand it over instead of loading it again.
    data.donnes.append(donne)
    data.hands[donne.pk] = saved
    return DonneRecorded(donne, Replayed(data, after))


@transaction.atomic
def donne_update(
    *, donne: Donne, winner: Joueur | None, win: str, hands: Hands, etat: str | None = None
) -> Change:
    data = locked(donne.partie, etat)
    inputs = data.inputs()
    before = data.replay(inputs)
    index = donne.number - 1
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = data.replay(inputs)
    stored = data.donnes[index]
    stored.winner, stored.win = winner, win
    stored.full_clean(exclude=["partie", "winner"])
    stored.save()
    Hand.objects.filter(donne=stored).delete()
    _save_hands(stored, hands)
    removed, refunds = drop_stale_decisions(data, after, rachat_prices(data, before))
    data.partie.save(update_fields=["updated_at"])
    return change(before, after, removed, refunds)


@transaction.atomic
def donne_delete(*, donne: Donne, etat: str | None = None) -> Change:
    data = locked(donne.partie, etat)
    inputs = data.inputs()
    before = data.replay(inputs)
    number = donne.number
    del inputs[number - 1]
    after = data.replay(inputs)
    prices = rachat_prices(data, before)
    # The deleted donne's own rachats go with it (cascade): give back what was paid.
    refunds = [
        due
        for rachat in data.rachats_of(data.donnes[number - 1])
        if (due := refund(rachat, number, prices))
    ]
    Donne.objects.filter(pk=donne.pk).delete()
    # Renumber in two steps so that no moment has two donnes with one number (constraint).
    later = Donne.objects.filter(partie=data.partie, number__gt=number)
    later.update(number=F("number") + 1_000_000)
    later = Donne.objects.filter(partie=data.partie, number__gt=1_000_000)
    later.update(number=F("number") - 1_000_001)
    _renumbered(data, number)
    removed, stale_refunds = drop_stale_decisions(data, after, prices)
    data.partie.save(update_fields=["updated_at"])
    return change(before, after, removed, refunds + stale_refunds)


def _renumbered(data: PartieData, number: int) -> None:
    """The loaded partie as the database now holds it: donne ``number`` gone, later ones
    one lower (what the two updates above did)."""
    gone = data.donnes.pop(number - 1)
    data.hands.pop(gone.pk, None)
    data.rachats.pop(gone.pk, None)
    for later in data.donnes[number - 1 :]:
        later.number -= 1


@transaction.atomic
def rachat_decide(*, partie: Partie, joueur: Joueur, accepted: bool) -> RachatDecided:
    data = locked(partie)
    inputs = data.inputs()
    current = data.replay(inputs)
    pending = next((p for p in current.pending if p.player == joueur.name), None)
    if pending is None:
        # The same answer tapped twice: the first one counted, the second changes nothing.
        made = [r for d in data.donnes for r in data.rachats_of(d) if r.joueur_id == joueur.pk]
        latest = max(made, key=lambda r: r.pk, default=None)
        if latest is not None and latest.accepted == accepted:
            return RachatDecided(latest, Replayed(data, current))
        raise PartieError("pas_de_decision", player=joueur.name)
    inputs[pending.donne - 1]["rachat"][joueur.name] = accepted
    # Declining can make later donnes impossible (he won one of them): the engine says so.
    after = data.replay(inputs)
    donne = data.donnes[pending.donne - 1]
    rachat = Rachat(donne=donne, joueur=joueur, accepted=accepted)
    rachat.save()
    data.partie.save(update_fields=["updated_at"])
    data.rachats.setdefault(donne.pk, []).append(rachat)
    return RachatDecided(rachat, Replayed(data, after))

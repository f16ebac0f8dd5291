"""Recording, editing and deleting a donne, and the crossers' rachat decisions. The engine
checks each write by replaying the partie as it would be, from the first donne that changes
(the states before it are stored: games/replays.py); a refusal saves nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from games import replays
from games.dealing import dealer_of_next
from games.errors import PartieError
from games.models import DeletedDonneKey, Donne, Hand, Joueur, Partie, Rachat
from games.options import config_of
from games.scoring import replay
from games.scoring.dealer import can_deal
from games.services.locked import (
    Change,
    change,
    drop_stale_decisions,
    locked,
    rachat_prices,
    refund,
    tail,
)

Hands = dict[Joueur, dict[str, Any]]


@dataclass(frozen=True)
class DonneRecorded:
    """A new donne. ``repeated``: the same form was sent twice (a double tap, a resend after
    a network drop) and the donne was already there."""

    donne: Donne
    repeated: bool = False


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
    after_key: uuid.UUID | None = None,
    players: list[Joueur] | None = None,
    dealer: Joueur | None = None,
) -> DonneRecorded:
    """Append a donne: the engine replays only it, from the state after the last one.

    A donne typed offline after another one still on its way names that one (``after_key``)
    instead of a state: it is recorded only right behind it, and only if ``players``, whom
    the form was built for, are still the ones en course (docs/decisions.md "Offline")."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    if idempotency_key is not None:
        done = Donne.objects.filter(partie=partie, idempotency_key=idempotency_key).first()
        if done is not None:
            return DonneRecorded(done, repeated=True)
        if DeletedDonneKey.objects.filter(partie=partie, idempotency_key=idempotency_key).exists():
            # A queue's resend of a donne deleted since: the key stays used.
            raise PartieError("donne_supprimee")
    partie, summary = locked(partie, etat)
    if partie.ended or summary.over:
        raise PartieError("partie_terminee")
    if summary.pending:
        # docs/rules.md R5: the crossers of an earlier donne answer before the next deal.
        raise PartieError("decision_en_attente")
    number = summary.recorded + 1
    last = replays.states_of(partie, last=1) if summary.applied else []
    joueurs = list(partie.joueurs.all())
    if after_key is not None:
        _check_follows(partie, after_key, players, last[0].in_race if last else joueurs)
    after = replay(
        partie.preset,
        [j.name for j in joueurs],
        [_input(winner, win, hands)],
        config_of(partie),
        lenient=True,
        after=last[0] if last else None,
    )
    in_race = last[0].in_race if last else [j.name for j in joueurs]
    donne = Donne(
        partie=partie,
        number=number,
        winner=winner,
        win=win,
        idempotency_key=idempotency_key,
        dealer=_dealer(partie, joueurs, in_race, number, dealer),
    )
    donne.full_clean(exclude=["partie", "winner", "dealer"])
    donne.save()
    _save_hands(donne, hands)
    partie.save(update_fields=["updated_at"])
    replays.store(partie, after, recorded=number, first=number, earlier=summary)
    return DonneRecorded(donne)


def _dealer(
    partie: Partie, joueurs: list[Joueur], in_race: list[str], number: int, chosen: Joueur | None
) -> Joueur | None:
    """docs/rules.md "Le donneur": the dealer the scorekeeper chose, or the next one."""
    if chosen is None:
        return dealer_of_next(partie, joueurs, in_race, number)
    if chosen.partie_id != partie.pk or not can_deal(in_race, chosen.name):
        raise PartieError("donneur_invalide")
    return chosen


def _check_follows(
    partie: Partie, after_key: uuid.UUID, players: list[Joueur] | None, in_race: list
) -> None:
    latest = partie.donnes.order_by("-number").values_list("idempotency_key", flat=True)[:1]
    if list(latest) != [after_key]:
        raise PartieError("donne_intercalee")
    names = {getattr(j, "name", j) for j in in_race}
    if players is not None and {j.name for j in players} != names:
        raise PartieError("joueurs_changes")


@transaction.atomic
def donne_update(
    *,
    donne: Donne,
    winner: Joueur | None,
    win: str,
    hands: Hands,
    etat: str | None = None,
    dealer: Joueur | None = None,
) -> Change:
    """Edit donne k: the partie is replayed from k (the states before it do not change)."""
    partie, summary = locked(donne.partie, etat)
    later = tail(partie, summary, donne.number)
    inputs = later.data.inputs()
    index = donne.number - later.data.first
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = later.replay(inputs)
    stored = later.data.donne(donne.number)
    stored.winner, stored.win = winner, win
    if dealer is not None:
        # docs/rules.md "Le donneur": corrected by hand; the replay does not read it.
        if dealer.partie_id != partie.pk:
            raise PartieError("donneur_invalide")
        stored.dealer = dealer
    stored.full_clean(exclude=["partie", "winner", "dealer"])
    stored.save()
    Hand.objects.filter(donne=stored).delete()
    _save_hands(stored, hands)
    removed, refunds = drop_stale_decisions(later.data, after, rachat_prices(later.before))
    partie.save(update_fields=["updated_at"])
    summary_after = later.store(after, recorded=summary.recorded)
    return change(later, after, summary_after, removed, refunds)


@transaction.atomic
def donne_delete(*, donne: Donne, etat: str | None = None) -> Change:
    """Delete donne k: the later ones move down one number and are replayed from k."""
    partie, summary = locked(donne.partie, etat)
    number = donne.number
    later = tail(partie, summary, number)
    inputs = later.data.inputs()
    del inputs[number - later.data.first]
    after = later.replay(inputs)
    prices = rachat_prices(later.before)
    # The deleted donne's own rachats go with it (cascade): give back what was paid.
    refunds = [
        due
        for rachat in later.data.rachats_of(later.data.donne(number))
        if (due := refund(rachat, number, prices))
    ]
    key = later.data.donne(number).idempotency_key
    if key is not None:
        # Kept after the donne: a resend of the same form is refused (donne_create).
        DeletedDonneKey.objects.create(partie=partie, idempotency_key=key)
    Donne.objects.filter(pk=donne.pk).delete()
    # Renumber in two steps so that no moment has two donnes with one number (constraint).
    moved = Donne.objects.filter(partie=partie, number__gt=number)
    moved.update(number=F("number") + 1_000_000)
    moved = Donne.objects.filter(partie=partie, number__gt=1_000_000)
    moved.update(number=F("number") - 1_000_001)
    _renumbered(later, number)
    removed, stale_refunds = drop_stale_decisions(later.data, after, prices)
    partie.save(update_fields=["updated_at"])
    summary_after = later.store(after, recorded=summary.recorded - 1)
    return change(later, after, summary_after, removed, refunds + stale_refunds)


def _renumbered(later, number: int) -> None:
    """The loaded donnes as the database now holds them: donne ``number`` gone, later ones
    one lower (what the two updates above did)."""
    data = later.data
    gone = data.donnes.pop(number - data.first)
    data.hands.pop(gone.pk, None)
    data.rachats.pop(gone.pk, None)
    for moved in data.donnes[number - data.first :]:
        moved.number -= 1


@transaction.atomic
def rachat_decide(*, partie: Partie, joueur: Joueur, accepted: bool) -> Rachat:
    """A crosser's answer (docs/rules.md R5); the partie is replayed from his donne."""
    partie, summary = locked(partie)
    pending = next((p for p in summary.pending if p.player == joueur.name), None)
    if pending is None:
        # The same answer tapped twice: the first one counted, the second changes nothing.
        latest = Rachat.objects.filter(joueur=joueur).order_by("-pk").first()
        if latest is not None and latest.accepted == accepted:
            return latest
        raise PartieError("pas_de_decision", player=joueur.name)
    later = tail(partie, summary, pending.donne)
    inputs = later.data.inputs()
    inputs[pending.donne - later.data.first]["rachat"][joueur.name] = accepted
    # Declining can make later donnes impossible (he won one of them): the engine says so.
    after = later.replay(inputs)
    rachat = Rachat(donne=later.data.donne(pending.donne), joueur=joueur, accepted=accepted)
    rachat.save()
    partie.save(update_fields=["updated_at"])
    later.store(after, recorded=summary.recorded)
    return rachat


@transaction.atomic
def rachat_change(
    *,
    partie: Partie,
    donne_number: int,
    joueur: Joueur,
    accepted: bool,
    etat: str | None = None,
) -> Change:
    """Change a crosser's answer at donne ``donne_number`` (a mis-tap on "Abandonner", or a
    table that changes its mind): the partie is replayed from that donne, as an edit is.
    The engine refuses when later donnes no longer fit (he declined, then won a later one;
    he buys back, but later donnes have no hand of his)."""
    partie, summary = locked(partie, etat)
    later = tail(partie, summary, donne_number)
    donne = later.data.donne(donne_number)
    rachat = next((r for r in later.data.rachats_of(donne) if r.joueur_id == joueur.pk), None)
    if rachat is None:
        raise PartieError("pas_de_decision", player=joueur.name)
    if rachat.accepted == accepted:
        return Change()  # the same answer tapped twice
    inputs = later.data.inputs()
    inputs[donne_number - later.data.first]["rachat"][joueur.name] = accepted
    after = later.replay(inputs)
    prices = rachat_prices(later.before)
    # A rachat marked paid that becomes an abandon: its money goes back (R11).
    refunds = [due] if not accepted and (due := refund(rachat, donne_number, prices)) else []
    rachat.accepted = accepted
    rachat.paid = False
    rachat.save(update_fields=["accepted", "paid"])
    removed, stale_refunds = drop_stale_decisions(later.data, after, prices)
    partie.save(update_fields=["updated_at"])
    summary_after = later.store(after, recorded=summary.recorded)
    return change(later, after, summary_after, removed, refunds + stale_refunds)

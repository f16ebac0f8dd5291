"""Recording, editing and deleting a donne, and the crossers' rachat decisions. The engine
checks each write by replaying the partie as it would be, from the first donne that changes
(the states before it are stored: games/replays.py); a refusal saves nothing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F

from games import replays
from games.errors import PartieError
from games.models import DeletedDonneKey, Donne, Hand, Joueur, Partie, Rachat
from games.scoring import RamiError, check_next_donne, replay
from games.scoring.dealer import can_deal
from games.selectors import PartieState, partie_state, tail_from
from games.services.locked import (
    Change,
    change,
    claim,
    drop_stale_decisions,
    ensure_fresh,
    locked,
    rachat_prices,
    refund,
    store_from,
)

Hands = dict[Joueur, dict[str, Any]]
# The latest states a write reads again under the lock (the page shows as many).
RECENT = 30


@dataclass(frozen=True)
class DonneRecorded:
    """A new donne, and the partie as the write left it (its page renders from it, with no
    second read). ``repeated``: the same form was sent twice (a double tap, a resend after
    a network drop) and the donne was already there."""

    donne: Donne
    state: PartieState
    change: Change = field(default_factory=Change)
    repeated: bool = False


def _input(winner: Joueur | None, win: str, hands: Hands) -> dict[str, Any]:
    return {
        "winner": winner.name if winner else None,
        "win": win,
        "hands": {joueur.name: hand for joueur, hand in hands.items()},
        "rachat": {},
    }


def _hand_rows(donne: Donne, hands: Hands) -> list[Hand]:
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
        row.full_clean(exclude=["donne", "joueur"], validate_constraints=False)
        if row.points is not None and row.cards:
            # The model's constraint, checked here rather than by a query per hand.
            raise ValidationError(Hand._meta.constraints[1].get_violation_error_message())
    return rows


def _save_hands(donne: Donne, hands: Hands) -> list[Hand]:
    return Hand.objects.bulk_create(_hand_rows(donne, hands))


@transaction.atomic
def donne_create(
    *,
    partie: Partie,
    winner: Joueur | None,
    win: str,
    hands: Hands,
    idempotency_key: uuid.UUID | None = None,
    revision: str | None = None,
    after_key: uuid.UUID | None = None,
    players: list[Joueur] | None = None,
    dealer: Joueur | None = None,
    state: PartieState | None = None,
) -> DonneRecorded:
    """Append a donne: the engine replays only it, from the state after the last one.

    ``state``: the partie as the page read it (selectors.partie_state_of, with this key),
    used as it is when nothing changed since (``claim``), read again under the lock if
    something did. A donne typed offline after another one still on its way names that one
    (``after_key``) instead of a state: it is recorded only right behind it, and only if
    ``players``, whom the form was built for, are still the ones en course
    (docs/decisions.md "Offline")."""
    if state is None or not claim(state):
        state = _locked_state(partie, idempotency_key)
    partie = state.partie
    if idempotency_key is not None:
        if state.done_id is not None:
            return DonneRecorded(Donne.objects.get(pk=state.done_id), state, repeated=True)
        if state.deleted:
            # A queue's resend of a donne deleted since: the key stays used.
            raise PartieError("donne_supprimee")
    ensure_fresh(partie, revision)
    summary = state.summary
    # docs/rules.md R5, R18: the engine says whether the partie takes another donne.
    try:
        check_next_donne(over=summary.over, ended=partie.ended, pending=summary.pending)
    except RamiError as err:
        raise PartieError(err.code) from err  # said in the app's words (games/errors.py)
    number = summary.recorded + 1
    last = state.last if summary.applied else None
    joueurs = state.joueurs
    names = [j.name for j in joueurs]
    in_race = last.in_race if last else names
    if after_key is not None:
        _check_follows(state, after_key, players, in_race)
    after = replay(
        partie.preset,
        names,
        [_input(winner, win, hands)],
        state.config,
        lenient=True,
        after=last,
    )
    donne = Donne(
        partie=partie,
        number=number,
        winner=winner,
        win=win,
        idempotency_key=idempotency_key,
        dealer=_dealer(state, in_race, number, dealer),
    )
    _clean_donne(donne)
    donne.save()
    _save_hands(donne, hands)
    summary = replays.store_appended(state, after)
    return DonneRecorded(donne, _appended(state, after, summary, donne))


def _locked_state(partie: Partie, key: uuid.UUID | None) -> PartieState:
    """The partie read again under its lock (another write came between the page's read and
    this one), its stored replay rebuilt first if its tag moved."""
    partie, _summary = locked(partie)
    partie.save(update_fields=["updated_at"])  # what ``claim`` does on the way it takes
    state = partie_state(partie, last=RECENT)
    state.read_latest()
    if key is not None:
        done = partie.donnes.filter(idempotency_key=key).values_list("pk", flat=True).first()
        state.done_id = done
        state.deleted = DeletedDonneKey.objects.filter(partie=partie, idempotency_key=key).exists()
    return state


def _appended(state: PartieState, after, summary, donne: Donne) -> PartieState:
    """The state as the write left it: the new donne's state after the ones loaded."""
    return replace(
        state,
        summary=summary,
        states=state.within_window(state.states + list(after.states)),
        last_dealer_id=donne.dealer_id,
        last_key=donne.idempotency_key,
        done_id=None,
        deleted=False,
        accepted=None if state.accepted is None else list(state.accepted),
    )


def _clean_donne(donne: Donne) -> None:
    """The model's field checks; its constraints are the database's (checking them here
    would cost a query each), and the number is ours."""
    donne.full_clean(exclude=["partie", "winner", "dealer"], validate_constraints=False)


def _dealer(
    state: PartieState, in_race: list[str], number: int, chosen: Joueur | None
) -> Joueur | None:
    """docs/rules.md "Le donneur": the dealer the scorekeeper chose, or the next one."""
    if chosen is None:
        return state.next_dealer(in_race, number)
    if chosen.partie_id != state.partie.pk or not can_deal(in_race, chosen.name):
        raise PartieError("donneur_invalide")
    return chosen


def _check_follows(
    state: PartieState, after_key: uuid.UUID, players: list[Joueur] | None, in_race: list
) -> None:
    if state.latest_key() != after_key:
        raise PartieError("donne_intercalee")
    names = {getattr(j, "name", j) for j in in_race}
    if players is not None and {j.name for j in players} != names:
        raise PartieError("joueurs_changes")


def _claimed(partie: Partie, state: PartieState | None, revision: str | None) -> PartieState:
    """The state a write works on: the page's, claimed, or read again under the lock."""
    if state is None or not claim(state):
        state = _locked_state(partie, None)
    ensure_fresh(state.partie, revision)
    return state


@transaction.atomic
def donne_update(
    *,
    donne: Donne | None = None,
    winner: Joueur | None,
    win: str,
    hands: Hands,
    revision: str | None = None,
    dealer: Joueur | None = None,
    number: int | None = None,
    state: PartieState | None = None,
) -> Change:
    """Edit donne k (``donne``, or ``number`` of the partie of ``state``): the partie is
    replayed from k (the states before it do not change)."""
    number = donne.number if donne is not None else number
    state = _claimed(donne.partie if donne is not None else state.partie, state, revision)
    partie, summary = state.partie, state.summary
    if not 1 <= number <= summary.recorded:
        raise PartieError("etat_perime")  # deleted meanwhile: the page shows the fresh state
    later = tail_from(state, number)
    inputs = later.inputs()
    index = number - later.first
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = later.replay(inputs)
    stored = later.donne(number)
    row = (stored.winner_id, stored.win, stored.dealer_id)
    stored.winner, stored.win = winner, win
    if dealer is not None:
        # docs/rules.md "Le donneur": corrected by hand, one of those dealt to (the engine's
        # can_deal); the replay does not read it.
        in_race = later.after.in_race if later.after else later.names
        if dealer.partie_id != partie.pk or not can_deal(in_race, dealer.name):
            raise PartieError("donneur_invalide")
        stored.dealer = dealer
    _clean_donne(stored)
    if (stored.winner_id, stored.win, stored.dealer_id) != row:
        stored.save(update_fields=["winner", "win", "dealer", "updated_at"])
    _replace_hands(stored, hands, later.hands_of(stored))
    removed, refunds = drop_stale_decisions(later, after, rachat_prices(later.before))
    summary_after = store_from(later, after, recorded=summary.recorded)
    return change(later, after, summary_after, removed, refunds)


def _replace_hands(donne: Donne, hands: Hands, old: list[Hand]) -> None:
    """The donne's hands as typed: replaced in place (one statement), the hands of players
    no longer in it deleted."""
    gone = [h.pk for h in old if h.joueur not in hands]
    if gone:
        Hand.objects.filter(pk__in=gone).delete()
    rows = _hand_rows(donne, hands)
    Hand.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["donne", "joueur"],
        update_fields=["cards", "points", "jokers"],
    )


@transaction.atomic
def donne_delete(
    *,
    donne: Donne | None = None,
    revision: str | None = None,
    number: int | None = None,
    state: PartieState | None = None,
) -> Change:
    """Delete donne k (``donne``, or ``number`` of the partie of ``state``): the later ones
    move down one number and are replayed from k."""
    number = donne.number if donne is not None else number
    state = _claimed(donne.partie if donne is not None else state.partie, state, revision)
    partie, summary = state.partie, state.summary
    if not 1 <= number <= summary.recorded:
        raise PartieError("etat_perime")
    later = tail_from(state, number, with_hands=False)
    inputs = later.inputs()
    del inputs[number - later.first]
    after = later.replay(inputs)
    prices = rachat_prices(later.before)
    gone = later.donne(number)
    decisions = later.rachats_of(gone)
    # The deleted donne's own rachats go with it: give back what was paid.
    refunds = [due for rachat in decisions if (due := refund(rachat, number, prices))]
    if gone.idempotency_key is not None:
        # Kept after the donne: a resend of the same form is refused (donne_create).
        DeletedDonneKey.objects.create(partie=partie, idempotency_key=gone.idempotency_key)
    _delete_donne(gone, bool(decisions))
    if number < summary.recorded:
        # Renumber in two steps so that no moment has two donnes with one number (constraint).
        moved = Donne.objects.filter(partie=partie, number__gt=number)
        moved.update(number=F("number") + 1_000_000)
        moved = Donne.objects.filter(partie=partie, number__gt=1_000_000)
        moved.update(number=F("number") - 1_000_001)
    _renumbered(later, number)
    removed, stale_refunds = drop_stale_decisions(later, after, prices)
    summary_after = store_from(later, after, recorded=summary.recorded - 1)
    return change(later, after, summary_after, removed, refunds + stale_refunds)


def _delete_donne(donne: Donne, decided: bool) -> None:
    """The donne, its hands and its decisions (if it has any), one statement each: Django's
    cascade would look for each kind of row first."""
    Hand.objects.filter(donne_id=donne.pk)._raw_delete(Hand.objects.db)
    if decided:
        Rachat.objects.filter(donne_id=donne.pk)._raw_delete(Rachat.objects.db)
    Donne.objects.filter(pk=donne.pk)._raw_delete(Donne.objects.db)


def _renumbered(later, number: int) -> None:
    """The loaded donnes as the database now holds them: donne ``number`` gone, later ones
    one lower (what the two updates above did)."""
    gone = later.donnes.pop(number - later.first)
    later.hands.pop(gone.pk, None)
    later.rachats.pop(gone.pk, None)
    for moved in later.donnes[number - later.first :]:
        moved.number -= 1


@dataclass(frozen=True)
class RachatDecided:
    """A crosser's answer, and the partie as it left it (its page renders from it)."""

    rachat: Rachat
    state: PartieState


@transaction.atomic
def rachat_decide(
    *, partie: Partie, joueur: Joueur, accepted: bool, state: PartieState | None = None
) -> RachatDecided:
    """A crosser's answer (docs/rules.md R5); the partie is replayed from his donne.
    ``state``: the partie as the page read it, used as donne_create uses it."""
    if state is None or not claim(state):
        state = _locked_state(partie, None)
    partie, summary = state.partie, state.summary
    pending = next((p for p in summary.pending if p.player == joueur.name), None)
    if pending is None:
        # The same answer tapped twice: the first one counted, the second changes nothing.
        latest = Rachat.objects.filter(joueur=joueur).order_by("-pk").first()
        if latest is not None and latest.accepted == accepted:
            return RachatDecided(latest, state)
        raise PartieError("pas_de_decision", player=joueur.name)
    later = tail_from(state, pending.donne)
    inputs = later.inputs()
    inputs[pending.donne - later.first]["rachat"][joueur.name] = accepted
    # Declining can make later donnes impossible (he won one of them): the engine says so.
    after = later.replay(inputs)
    rachat = Rachat(donne=later.donne(pending.donne), joueur=joueur, accepted=accepted)
    rachat.save()
    summary = store_from(later, after, recorded=summary.recorded)
    if accepted and state.accepted is not None:
        state.accepted.append(rachat)
    return RachatDecided(rachat, _replayed(state, later, after, summary))


def _replayed(state: PartieState, later, after, summary) -> PartieState:
    """The state as a write from donne ``later.first`` left it: the states before it
    kept, its replay's after them, as many as the read asked for."""
    first = later.first
    kept = [s for s in state.states if s.number < first]
    return replace(state, summary=summary, states=state.within_window(kept + list(after.states)))


@dataclass(frozen=True)
class RachatChanged:
    """What changing an answer did, and the partie as it left it."""

    change: Change
    state: PartieState


@transaction.atomic
def rachat_change(
    *,
    partie: Partie,
    donne_number: int,
    joueur: Joueur,
    accepted: bool,
    revision: str | None = None,
    state: PartieState | None = None,
) -> RachatChanged:
    """Change a crosser's answer at donne ``donne_number`` (a mis-tap on "Abandonner", or a
    table that changes its mind): the partie is replayed from that donne, as an edit is.
    The engine refuses when later donnes no longer fit (he declined, then won a later one;
    he buys back, but later donnes have no hand of his). ``state``: the partie as the page
    read it, used as donne_create uses it."""
    state = _claimed(partie, state, revision)
    summary = state.summary
    later = tail_from(state, donne_number)
    donne = later.donne(donne_number)
    rachat = next((r for r in later.rachats_of(donne) if r.joueur_id == joueur.pk), None)
    if rachat is None:
        raise PartieError("pas_de_decision", player=joueur.name)
    if rachat.accepted == accepted:
        return RachatChanged(Change(), state)  # the same answer tapped twice
    inputs = later.inputs()
    inputs[donne_number - later.first]["rachat"][joueur.name] = accepted
    after = later.replay(inputs)
    prices = rachat_prices(later.before)
    # A rachat marked paid that becomes an abandon: its money goes back (R11).
    refunds = [due] if not accepted and (due := refund(rachat, donne_number, prices)) else []
    rachat.accepted = accepted
    rachat.paid = False
    rachat.save(update_fields=["accepted", "paid"])
    removed, stale_refunds = drop_stale_decisions(later, after, prices)
    summary_after = store_from(later, after, recorded=summary.recorded)
    changed = change(later, after, summary_after, removed, refunds + stale_refunds)
    # The rachats bought back are no longer those read: the cagnotte reads them again.
    left = replace(_replayed(state, later, after, summary_after), accepted=None)
    return RachatChanged(changed, left)

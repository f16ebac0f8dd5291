"""One partie: for its page, for a write (read once, then the donnes it replays), for
its file, and the small reads its pages make."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.expressions import RawSQL

from games.models import (
    DeletedDonneKey,
    Donne,
    Hand,
    Joueur,
    Partie,
    Rachat,
)
from games.options import config_of
from games.selectors.donnes import _donnes_of, partie_load
from games.selectors.state import UNKNOWN, PartieState, Summary
from games.selectors.stored import (
    read_summary,
    states_of,
)


def _state_of(partie: Partie, joueurs: list[Joueur], last: int | None) -> PartieState:
    summary, stale = read_summary(partie)
    if stale:
        # The stored states may be stale as well: the ones of this replay, in memory.
        data = partie_load(partie)
        states = data.replay().states
        states = states if last is None else states[-last:] if last else []
    else:
        # As of the summary read with the partie: a donne committed since is not shown
        # beside a summary that does not count it (the next read has both).
        states = states_of(partie, last=last, upto=summary.applied) if last != 0 else []
    return PartieState(
        partie=partie,
        joueurs=joueurs,
        config=config_of(partie),
        summary=summary,
        states=states,
        stale=stale,
        window=last,
    )


def partie_state(partie: Partie, *, last: int | None = None) -> PartieState:
    """The partie for a page: summary, players, and its ``last`` states (all with None), in
    a fixed number of queries whatever the number of donnes. ``partie`` comes with its
    ``result`` (select_related) when the caller wants no extra query."""
    joueurs = list(partie.joueurs.select_related("habitue"))  # his colour (display/colours.py)
    return _state_of(partie, joueurs, last)


def _key_or_none(key: Any) -> Any:
    try:
        return uuid.UUID(str(key)) if key else None
    except ValueError:
        return None


def partie_state_of(
    owner, pk: int, *, last: int | None, key: Any = None, latest: bool = True
) -> PartieState | None:
    """The partie ``pk`` of ``owner`` (None: not his) as a write reads it before taking its
    lock, in two queries: the partie, its stored result and its players in one, with who
    dealt the latest donne, its key and id and whether it has decisions (``latest``: a new
    donne needs none of them, the dealer chosen on its form, and leaves them UNKNOWN: what
    asks for one reads it) and whether ``key`` was recorded or deleted; then its ``last``
    states. The write then checks that the revision read is still the partie's
    (services/locked.py ``claim``): whatever changed since moved it."""
    key = _key_or_none(key)
    rows = (
        Joueur.objects.filter(partie_id=pk, partie__owner=owner)
        .select_related("partie", "partie__result", "habitue")
        .order_by("seat")
    )
    if latest:
        rows = _with_latest(rows)
    if key is not None:
        rows = rows.annotate(**_key_checks(key))
    joueurs = list(rows)
    if not joueurs:
        return None
    partie = joueurs[0].partie
    for joueur in joueurs:
        joueur.partie = partie
    state = _state_of(partie, joueurs, last)
    first = joueurs[0]
    if latest:
        state.last_dealer_id = first.latest_dealer
        state.last_key = first.latest_key
        state.last_decided = first.latest_decided
        state.last_pk = first.latest_pk
    if key is not None:
        state.done_id, state.deleted = first.done, first.gone
    return state


def _key_checks(key: uuid.UUID) -> dict[str, RawSQL]:
    """The id of the partie's donne recorded with ``key`` (``done``, None if none) and whether
    a deleted donne had it (``gone``), as two correlated subqueries of the players' query. In
    SQL, with its names and the key's value taken from the models: the same two subqueries
    built by the ORM (Subquery, Exists) took about 0.5 ms of every write to build and compile,
    several times the statements' own time."""
    quote = connection.ops.quote_name
    partie = f"{quote(Joueur._meta.db_table)}.{quote(Joueur._meta.get_field('partie').column)}"

    def where(model) -> tuple[str, Any]:
        meta = model._meta
        key_field = meta.get_field("idempotency_key")
        sql = (
            f"FROM {quote(meta.db_table)} WHERE {quote(meta.get_field('partie').column)} = "
            f"{partie} AND {quote(key_field.column)} = %s"
        )
        return sql, key_field.get_db_prep_value(key, connection)

    done, done_key = where(Donne)
    gone, gone_key = where(DeletedDonneKey)
    pk = quote(Donne._meta.pk.column)
    return {
        "done": RawSQL(f"SELECT {pk} {done} LIMIT 1", [done_key], output_field=IntegerField()),
        "gone": RawSQL(f"EXISTS (SELECT 1 {gone})", [gone_key], output_field=BooleanField()),
    }


def _with_latest(rows: QuerySet[Joueur]) -> QuerySet[Joueur]:
    """Who dealt the partie's latest donne, its key, its id, and whether it has decisions."""
    latest = Donne.objects.filter(partie=OuterRef("partie_id")).order_by("-number")
    return rows.annotate(
        latest_dealer=Subquery(latest.values("dealer_id")[:1]),
        latest_key=Subquery(latest.values("idempotency_key")[:1]),
        latest_pk=Subquery(latest.values("pk")[:1]),
        latest_decided=Exists(
            Rachat.objects.filter(
                donne=Subquery(
                    Donne.objects.filter(partie=OuterRef(OuterRef("partie_id")))
                    .order_by("-number")
                    .values("pk")[:1]
                )
            )
        ),
    )


def partie_shared(token: str) -> Partie | None:
    """The partie behind a share link, with its number of donnes (``n_donnes``) and its
    stored replay, in one query: enough for the live view's ETag before anything else is
    loaded. The stored replay is read in the same statement as the partie's revision, so a
    donne committed between two reads of a follower's poll does not make it look stale."""
    return (
        Partie.objects.filter(share_token=token)
        .select_related("result")
        .annotate(n_donnes=Count("donnes"))
        .first()
    )


def partie_export(partie: Partie) -> PartieState:
    """The partie for its file (games/files.py): every state, and every donne with its hands
    and decisions (three queries more than ``partie_state``)."""
    state = partie_state(partie)
    state.donnes, state.hands, state.rachats = _donnes_of(partie, state.joueurs, 1)
    return state


def tail(partie: Partie, summary: Summary, first: int) -> PartieState:
    """What a write from donne ``first`` needs, under the lock it took: those donnes and the
    stored states from the one before. The states are stored up to the last applied donne:
    past it (donnes waiting for a decision) the replay starts after that one."""
    first = min(first, summary.applied + 1)
    state = partie_load(partie, first=first)
    state.summary = summary
    state.states = states_of(partie, since=max(first - 1, 1))
    return state


def tail_from(state: PartieState, first: int, *, with_hands: bool = True) -> PartieState:
    """``tail`` for a write that claimed the state it read (services/locked.py ``claim``):
    the stored states it holds are the partie's, so the ones from ``first`` - 1 on come from
    it when it loaded them. The state read is left as it was, but for the rachats bought
    back (``accepted``) when the load reads them."""
    summary = state.summary
    first = min(first, summary.applied + 1)
    since = max(first - 1, 1)
    if state.states and state.states[0].number <= since:
        rows = [s for s in state.states if s.number >= since]
    else:
        rows = states_of(state.partie, since=since)
    loaded = _tail_load(state, first, with_hands=with_hands)
    loaded.summary, loaded.states = summary, rows
    return loaded


def _tail_load(state: PartieState, first: int, *, with_hands: bool = True) -> PartieState:
    """The donnes from ``first`` on with their hands and decisions, for a write that replays
    from there, in two queries: the hands with their donne (every donne keeps at least one
    hand; one that would not is read again on its own), then the decisions from ``first``
    on together with every rachat bought back (the cagnotte's ticks, kept on the state)."""
    partie = state.partie
    by_id = {j.pk: j for j in state.joueurs}
    if not with_hands and first == state.summary.recorded and state.last_pk is not UNKNOWN:
        # The latest donne, going away (a delete): what the read before told of it is enough.
        gone = Donne(pk=state.last_pk, partie=partie, number=first, idempotency_key=state.last_key)
        rachats = (
            []
            if state.last_decided is False
            else list(Rachat.objects.filter(donne_id=gone.pk).order_by("pk"))
        )
        for rachat in rachats:
            rachat.joueur, rachat.donne = by_id[rachat.joueur_id], gone
        return replace(
            state,
            donnes=[gone],
            hands={},
            rachats={gone.pk: rachats} if rachats else {},
            first=first,
        )
    hands = list(
        Hand.objects.filter(donne__partie=partie, donne__number__gte=first)
        .select_related("donne")
        .order_by("donne__number", "pk")
    )
    donnes: dict[int, Donne] = {}
    for hand in hands:
        donnes.setdefault(hand.donne_id, hand.donne)
        hand.donne = donnes[hand.donne_id]
        hand.joueur = by_id[hand.joueur_id]
    if len(donnes) != max(state.summary.recorded - first + 1, 0):
        state.accepted = None
        return partie_load(partie, first=first)
    if first == state.summary.recorded and state.last_decided is False:
        rachats: list[Rachat] = []  # the latest donne alone, known to have no decision
        state.accepted = None
    else:
        rachats = list(
            Rachat.objects.filter(donne__partie=partie)
            .filter(Q(donne__number__gte=first) | Q(accepted=True))
            .select_related("donne")
            .order_by("pk")
        )
        state.accepted = [r for r in rachats if r.accepted]
    for donne in donnes.values():
        donne.partie = partie
        donne.winner = by_id.get(donne.winner_id)
    hands_by: dict[int, list[Hand]] = {}
    for hand in hands:
        hands_by.setdefault(hand.donne_id, []).append(hand)
    rachats_by: dict[int, list[Rachat]] = {}
    for rachat in rachats:
        rachat.joueur = by_id[rachat.joueur_id]
        if rachat.donne.number >= first:
            rachat.donne = donnes.get(rachat.donne_id, rachat.donne)
            rachats_by.setdefault(rachat.donne_id, []).append(rachat)
    return replace(
        state,
        donnes=list(donnes.values()),
        hands=hands_by,
        rachats=rachats_by,
        first=first,
    )


def accepted_rachats(partie: Partie) -> list[Rachat]:
    """The rachats bought back, with their donne: a few per player, whatever the donnes."""
    return list(Rachat.objects.filter(donne__partie=partie, accepted=True).select_related("donne"))


def bought_back(state: PartieState) -> list[Rachat]:
    """The rachats bought back the cagnotte ticks: those the state holds, else read."""
    return state.accepted if state.accepted is not None else accepted_rachats(state.partie)


def with_rachats(state: PartieState) -> PartieState:
    """The state with the rachats its cagnotte ticks (none to read when the engine applied
    no rachat with a price: the cagnotte lists only those)."""
    if state.accepted is None:
        priced = any(line.price for line in state.summary.rachats)
        state.accepted = accepted_rachats(state.partie) if priced else []
    return state


def dealer_names(partie: Partie, joueurs: list[Joueur]) -> dict[int, str]:
    """Who dealt each recorded donne, by number and name, for the sheet and the CSV (those
    recorded before the app asked are left out): one query."""
    by_id = {j.pk: j for j in joueurs}
    rows = Donne.objects.filter(partie=partie, dealer__isnull=False).values_list(
        "number", "dealer_id"
    )
    return {number: by_id[dealer_id].name for number, dealer_id in rows if dealer_id in by_id}


def donne_hands(donne: Donne) -> list[Hand]:
    """The hands of one stored donne (its edit form shows them): one query."""
    return list(donne.hands.all())


def decisions_of(donne: Donne | None) -> QuerySet[Rachat]:
    """The rachat decisions of one stored donne with their players (its edit page)."""
    return Rachat.objects.filter(donne=donne).select_related("joueur")

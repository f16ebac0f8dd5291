"""Reads: a partie loaded in a fixed number of queries, in the shape the engine replays."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery

from games.dealing import dealer_after
from games.models import (
    DeletedDonneKey,
    Donne,
    DonneResult,
    Habitue,
    Hand,
    Joueur,
    Partie,
    PartieResult,
    Rachat,
)
from games.options import config_of
from games.scoring import ENGINE_VERSION, Config, DonneState, Final, PendingRachat, Replay, replay


@dataclass(frozen=True)
class RachatLine:
    """A rachat the engine applied: who, after which donne, which one, at what price."""

    donne: int
    player: str
    number: int
    price: int  # centimes


@dataclass
class Summary:
    """The partie as a whole, from its stored replay."""

    recorded: int  # donnes stored
    applied: int  # donnes the replay went through (it stops at a decision still to take)
    over: bool
    end_reason: str | None
    pending: list[PendingRachat]
    final: Final
    rachats: list[RachatLine]

    @property
    def blocked(self) -> int:
        """Donnes stored after a decision still to take: replayed once it is taken."""
        return self.recorded - self.applied

    def to_json(self) -> dict[str, Any]:
        final = self.final
        return {
            "recorded": self.recorded,
            "applied": self.applied,
            "over": self.over,
            "end_reason": self.end_reason,
            "pending": [vars(p) for p in self.pending],
            "final": {
                **final.to_dict(),
                "provisional": final.provisional,
                "shares": final.shares,
                "into_pot": final.into_pot,
            },
            "rachats": [vars(r) for r in self.rachats],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        final = dict(data["final"])
        final["ranking"] = [tuple(row) for row in final["ranking"]]
        return cls(
            recorded=data["recorded"],
            applied=data["applied"],
            over=data["over"],
            end_reason=data["end_reason"],
            pending=[PendingRachat(**p) for p in data["pending"]],
            final=Final(**final),
            rachats=[RachatLine(**r) for r in data["rachats"]],
        )


log = logging.getLogger(__name__)


# What a read does not know until asked (a page that never shows the next dealer).
UNKNOWN: Any = object()


@dataclass
class PartieState:
    """A partie as every page and every write reads it: its players, options, summary, and
    the states loaded (the latest ones, or all); with its donnes, hands and decisions only
    when a write replays them or a file exports them (``donnes``). A write service returns
    it as it left the partie, so that its page renders with no second read."""

    partie: Partie
    joueurs: list[Joueur]
    config: Config
    # None: not read (a load of the donnes alone, ``partie_load``: its replay says it).
    summary: Summary | None = None
    # Consecutive, the last one is the latest applied donne. For a write that replays from
    # donne ``first``, they start at the state before it (``after``).
    states: list[DonneState] = field(default_factory=list)
    # Who dealt the latest donne (docs/rules.md "Le donneur"), and its idempotency key.
    last_dealer_id: Any = UNKNOWN
    last_key: Any = UNKNOWN
    # The donne already recorded under the key a write carries, or that key deleted since.
    done_id: int | None = None
    deleted: bool = False
    # The summary's tag no longer matches: computed in memory; a write stores it afresh.
    stale: bool = False
    # The rachats bought back with their donne (the cagnotte's payment ticks), once loaded.
    accepted: list[Rachat] | None = None
    # Whether the latest donne has decisions (False: a write of it reads none).
    last_decided: Any = UNKNOWN
    last_pk: Any = UNKNOWN  # the latest donne's id
    # The donnes loaded (from donne ``first`` on) with their hands and decisions by donne
    # id: what the engine replays. None: not loaded (a page reads the stored states).
    donnes: list[Donne] | None = None
    hands: dict[int, list[Hand]] = field(default_factory=dict)
    rachats: dict[int, list[Rachat]] = field(default_factory=dict)
    first: int = 1  # the number of the first donne loaded (a write replays from it)

    @property
    def names(self) -> list[str]:
        return [j.name for j in self.joueurs]

    @property
    def last(self) -> DonneState | None:
        return self.states[-1] if self.states else None

    @property
    def revision(self) -> str:
        """The fingerprint a form carries: the partie's revision (a payment tick does not
        move it; a donne, a decision, an option or the end does)."""
        return str(self.partie.revision)

    def next_dealer(self, in_race: list[str], number: int) -> Joueur | None:
        """The dealer of donne ``number`` about to be recorded (games/dealing.py)."""
        if self.last_dealer_id is UNKNOWN or number != self.summary.recorded + 1:
            previous = dealer_id_of(self.partie, number - 1)
        else:
            previous = self.last_dealer_id
        return dealer_after(self.partie, self.joueurs, in_race, previous)

    # -- the donnes loaded, for a replay ------------------------------------------------------

    @property
    def after(self) -> DonneState | None:
        """The stored state before the first donne loaded: a replay from ``first`` starts
        after it (None: from the first donne)."""
        if self.first <= 1:
            return None
        return next(s for s in self.states if s.number == self.first - 1)

    @property
    def before(self) -> list[DonneState]:
        """The stored states of the donnes loaded, as they were before the write."""
        return [s for s in self.states if s.number >= self.first]

    def donne(self, number: int) -> Donne:
        return self.donnes[number - self.first]

    def hands_of(self, donne: Donne) -> list[Hand]:
        return self.hands.get(donne.pk, [])

    def rachats_of(self, donne: Donne) -> list[Rachat]:
        return self.rachats.get(donne.pk, [])

    def by_name(self, name: str) -> Joueur:
        return next(j for j in self.joueurs if j.name == name)

    def inputs(self) -> list[dict[str, Any]]:
        return [self.input_of(d) for d in self.donnes]

    def input_of(self, donne: Donne) -> dict[str, Any]:
        """A stored donne as the engine's input (docs/rules.md §1)."""
        hands = {}
        for hand in self.hands_of(donne):
            if hand.points is not None:
                hands[hand.joueur.name] = {"points": hand.points, "jokers": hand.jokers}
            else:
                hands[hand.joueur.name] = {"cards": hand.cards.split(), "jokers": hand.jokers}
        return {
            "winner": donne.winner.name if donne.winner else None,
            "win": donne.win,
            "hands": hands,
            "rachat": {r.joueur.name: r.accepted for r in self.rachats_of(donne)},
        }

    def replay(
        self, inputs: list[dict[str, Any]] | None = None, *, ended: bool | None = None
    ) -> Replay:
        """Lenient replay (the web flow decides rachats after saving a donne): of the loaded
        donnes, or of ``inputs`` in their place, after the stored state before them."""
        return replay(
            self.partie.preset,
            self.names,
            self.inputs() if inputs is None else inputs,
            self.config,
            lenient=True,
            ended=self.partie.ended if ended is None else ended,
            after=self.after,
        )


def partie_load(partie: Partie, *, first: int = 1) -> PartieState:
    """Four queries: players, donnes, hands, rachats; from donne ``first`` on (a write that
    changes donne k replays from k). No summary nor state: its replay says them."""
    joueurs = list(partie.joueurs.all())
    donnes, hands, rachats = _donnes_of(partie, joueurs, first)
    return PartieState(
        partie=partie,
        joueurs=joueurs,
        config=config_of(partie),
        donnes=donnes,
        hands=hands,
        rachats=rachats,
        first=first,
    )


def _donnes_of(
    partie: Partie, joueurs: list[Joueur], first: int
) -> tuple[list[Donne], dict[int, list[Hand]], dict[int, list[Rachat]]]:
    """Three queries: donnes, hands, rachats from donne ``first`` on. Plain queries grouped
    here in Python: prefetch_related costs three times as much per row."""
    by_id = {j.pk: j for j in joueurs}
    donnes = list(partie.donnes.filter(number__gte=first))
    later = {"donne__partie": partie, "donne__number__gte": first}
    hands = list(Hand.objects.filter(**later).order_by("pk"))
    rachats = list(Rachat.objects.filter(**later).order_by("pk"))
    # Attach the objects we already have instead of letting each relation query again.
    for donne in donnes:
        donne.partie = partie
        donne.winner = by_id.get(donne.winner_id)
    hands_by: dict[int, list[Hand]] = {}
    for hand in hands:
        hand.joueur = by_id[hand.joueur_id]
        hands_by.setdefault(hand.donne_id, []).append(hand)
    rachats_by: dict[int, list[Rachat]] = {}
    for rachat in rachats:
        rachat.joueur = by_id[rachat.joueur_id]
        rachats_by.setdefault(rachat.donne_id, []).append(rachat)
    return donnes, hands_by, rachats_by


def partie_export(partie: Partie) -> PartieState:
    """The partie for its file (games/files.py): every state, and every donne with its hands
    and decisions (three queries more than ``partie_state``)."""
    state = partie_state(partie)
    state.donnes, state.hands, state.rachats = _donnes_of(partie, state.joueurs, 1)
    return state


def parties_loaded(parties: list[Partie]) -> list[PartieState]:
    """Several parties with every state and every donne (an account's backup): the states
    in one query (``parties_states``), then donnes, hands and rachats of them all in three,
    grouped here. The parties come with their players (``parties_of``)."""
    loaded = parties_states(parties)
    ids = [p.pk for p in parties]
    donnes: dict[int, list[Donne]] = {}
    for donne in Donne.objects.filter(partie__in=ids).order_by("partie", "number"):
        donnes.setdefault(donne.partie_id, []).append(donne)
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(donne__partie__in=ids).order_by("pk"):
        hands.setdefault(hand.donne_id, []).append(hand)
    rachats: dict[int, list[Rachat]] = {}
    for rachat in Rachat.objects.filter(donne__partie__in=ids).order_by("pk"):
        rachats.setdefault(rachat.donne_id, []).append(rachat)
    for state in loaded:
        partie = state.partie
        by_id = {j.pk: j for j in state.joueurs}
        for donne in donnes.get(partie.pk, []):
            donne.partie, donne.winner = partie, by_id.get(donne.winner_id)
            for row in (*hands.get(donne.pk, []), *rachats.get(donne.pk, [])):
                row.joueur = by_id[row.joueur_id]
        mine = donnes.get(partie.pk, [])
        state.donnes = mine
        state.hands = {d.pk: hands.get(d.pk, []) for d in mine}
        state.rachats = {d.pk: rachats.get(d.pk, []) for d in mine}
    return loaded


def partie_replay(partie: Partie) -> tuple[PartieState, Replay]:
    data = partie_load(partie)
    return data, data.replay()


def parties_of(owner) -> QuerySet[Partie]:
    """An account's parties with their stored results and players (games/replays.py)."""
    return (
        Partie.objects.filter(owner=owner)
        .select_related("result")
        .prefetch_related("joueurs")
        .order_by("-created_at", "-pk")
    )


def partie_shared(token: str) -> Partie | None:
    """The partie behind a share link, with its number of donnes (``n_donnes``), in one query:
    enough for the live view's ETag before anything else is loaded."""
    return Partie.objects.filter(share_token=token).annotate(n_donnes=Count("donnes")).first()


# -- the state of a partie --------------------------------------------------------------------


def rachat_lines(states: list[DonneState]) -> list[RachatLine]:
    return [
        RachatLine(state.number, player, info.number, info.price)
        for state in states
        for player, info in state.rachats.items()
    ]


def summary_from(result: Replay, recorded: int, first: int, kept: list[RachatLine]) -> Summary:
    """The summary of a replay of the donnes from ``first`` on, after the rachats ``kept``
    of the donnes before."""
    return Summary(
        recorded=recorded,
        applied=first - 1 + len(result.states),
        over=result.over,
        end_reason=result.end_reason,
        pending=list(result.pending),
        final=result.final,
        rachats=kept + rachat_lines(result.states),
    )


def is_fresh(partie: Partie, result: PartieResult | None) -> bool:
    return (
        result is not None
        and result.engine == ENGINE_VERSION
        and result.revision == partie.revision
    )


def stored_result(partie: Partie) -> PartieResult | None:
    try:
        return partie.result
    except PartieResult.DoesNotExist:
        return None


def read_summary(partie: Partie) -> tuple[Summary, bool]:
    """The partie's summary and whether it was stale. A stale one (a new engine, a change
    made outside the app) is replayed here in memory: a read never writes, the next write
    stores it (games/replays.py)."""
    result = stored_result(partie)
    if is_fresh(partie, result):
        return Summary.from_json(json.loads(result.summary)), False
    if result is not None:
        log.warning(
            "Stored replay of partie %s is stale (engine %s, revision %s; now %s, %s)",
            partie.pk,
            result.engine,
            result.revision,
            ENGINE_VERSION,
            partie.revision,
        )
    data = partie_load(partie)
    return summary_from(data.replay(), len(data.donnes), 1, []), True


def _states(rows) -> list[DonneState]:
    return [DonneState.from_storage(json.loads(r.state)) for r in rows]


def states_of(
    partie: Partie, *, last: int | None = None, since: int | None = None
) -> list[DonneState]:
    """Stored states in order: all, the ``last`` ones, or those from donne ``since`` on."""
    rows = DonneResult.objects.filter(partie=partie)
    if since is not None:
        rows = rows.filter(number__gte=since)
    if last is not None:
        return _states(reversed(list(rows.order_by("-number")[:last])))
    return _states(rows.order_by("number"))


def _state_of(partie: Partie, joueurs: list[Joueur], last: int | None) -> PartieState:
    summary, stale = read_summary(partie)
    if stale:
        # The stored states may be stale as well: the ones of this replay, in memory.
        data = partie_load(partie)
        states = data.replay().states
        states = states if last is None else states[-last:] if last else []
    else:
        states = states_of(partie, last=last) if last != 0 else []
    return PartieState(
        partie=partie,
        joueurs=joueurs,
        config=config_of(partie),
        summary=summary,
        states=states,
        stale=stale,
    )


def partie_state(partie: Partie, *, last: int | None = None) -> PartieState:
    """The partie for a page: summary, players, and its ``last`` states (all with None), in
    a fixed number of queries whatever the number of donnes. ``partie`` comes with its
    ``result`` (select_related) when the caller wants no extra query."""
    joueurs = list(partie.joueurs.select_related("habitue"))  # his colour (display/colours.py)
    return _state_of(partie, joueurs, last)


def dealer_id_of(partie: Partie, number: int) -> int | None:
    """Who dealt donne ``number`` (None: none yet, or recorded before the app asked): one
    query."""
    if number < 1:
        return None
    row = Donne.objects.filter(partie=partie, number=number).values("dealer_id").first()
    return row["dealer_id"] if row else None


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


def partie_listed(partie: Partie) -> PartieState:
    """A partie for a list (the home page, the Comptes page): its summary and players, no
    state. ``partie`` comes with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    return PartieState(
        partie=partie,
        joueurs=list(partie.joueurs.all()),
        config=config_of(partie),
        summary=summary_of(partie),
        states=[],
    )


def parties_money(parties: Iterable[Partie]) -> list[PartieState]:
    """The parties of the Comptes page, oldest first: each listed (``partie_listed``) with
    its rachats bought back (``accepted``), those of every partie in one query. The parties
    come with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    parties = list(parties)
    rachats: dict[int, list[Rachat]] = {}
    owners = {p.owner_id for p in parties}
    accepted = Rachat.objects.filter(donne__partie__owner__in=owners, accepted=True)
    for rachat in accepted.select_related("donne"):
        rachats.setdefault(rachat.donne.partie_id, []).append(rachat)
    states = []
    for partie in sorted(parties, key=lambda p: p.created_at):
        state = partie_listed(partie)
        state.accepted = rachats.get(partie.pk, [])
        states.append(state)
    return states


def parties_states(parties: list[Partie]) -> list[PartieState]:
    """Several parties with every state (an account's backup, the statistics), in one query
    more. The parties come with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    summaries = {p.pk: read_summary(p) for p in parties}
    states: dict[int, list[DonneState]] = {}
    rows = DonneResult.objects.filter(partie__in=[p.pk for p in parties])
    for row in rows.order_by("partie", "number"):
        states.setdefault(row.partie_id, []).append(DonneState.from_storage(json.loads(row.state)))
    loaded = []
    for p in parties:
        summary, stale = summaries[p.pk]
        mine = partie_load(p).replay().states if stale else states.get(p.pk, [])
        loaded.append(
            PartieState(
                partie=p,
                joueurs=list(p.joueurs.all()),
                config=config_of(p),
                summary=summary,
                states=mine,
                stale=stale,
            )
        )
    return loaded


def statistics_parties(owner, *, preset: str, since) -> tuple[list[PartieState], int]:
    """The account's parties for the Statistiques page (``preset``: "" for every preset;
    created from ``since`` on, None: all), oldest first: the finished ones with every state
    and their players with their habitué, and how many are not over yet. The parties with
    their results and players (two queries), the states of the finished ones (one more),
    the habitués (one more)."""
    rows = Partie.objects.filter(owner=owner)
    if preset:
        rows = rows.filter(preset=preset)
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    parties = list(
        rows.select_related("result").prefetch_related("joueurs").order_by("created_at", "pk")
    )
    summaries = {p.pk: summary_of(p) for p in parties}
    finished = [p for p in parties if summaries[p.pk].over]
    everything = parties_states(finished)
    habitues = list(Habitue.objects.filter(owner=owner).order_by("key"))
    by_id = {h.pk: h for h in habitues}
    for p in parties:
        # The prefetched players point at their habitué by id: give them the one loaded.
        for j in p.joueurs.all():
            j.habitue = by_id.get(j.habitue_id)
    return everything, len(parties) - len(finished)


def summary_of(partie: Partie) -> Summary:
    """The partie's summary for a read: never written here (see ``read_summary``)."""
    return read_summary(partie)[0]


def state_at(partie: Partie, number: int) -> DonneState | None:
    """The stored state after donne ``number`` (one the page did not load)."""
    row = DonneResult.objects.filter(partie=partie, number=number).first()
    return DonneState.from_storage(json.loads(row.state)) if row else None


def _key_or_none(key: Any) -> Any:
    try:
        return uuid.UUID(str(key)) if key else None
    except ValueError:
        return None


def partie_state_of(owner, pk: int, *, last: int | None, key: Any = None) -> PartieState | None:
    """The partie ``pk`` of ``owner`` (None: not his) as a write reads it before taking its
    lock, in two queries: the partie, its stored result and its players in one, with who
    dealt the latest donne, its key and whether ``key`` was recorded or deleted; then its
    ``last`` states. The write then checks that the revision read is still the partie's
    (services/locked.py ``claim``): whatever changed since moved it."""
    key = _key_or_none(key)
    latest = Donne.objects.filter(partie=OuterRef("partie_id")).order_by("-number")
    rows = (
        Joueur.objects.filter(partie_id=pk, partie__owner=owner)
        .select_related("partie", "partie__result", "habitue")
        .order_by("seat")
        .annotate(
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
    )
    if key is not None:
        rows = rows.annotate(
            done=Subquery(
                Donne.objects.filter(partie=OuterRef("partie_id"), idempotency_key=key).values(
                    "pk"
                )[:1]
            ),
            gone=Exists(
                DeletedDonneKey.objects.filter(partie=OuterRef("partie_id"), idempotency_key=key)
            ),
        )
    joueurs = list(rows)
    if not joueurs:
        return None
    partie = joueurs[0].partie
    for joueur in joueurs:
        joueur.partie = partie
    state = _state_of(partie, joueurs, last)
    first = joueurs[0]
    state.last_dealer_id = first.latest_dealer
    state.last_key = first.latest_key
    state.last_decided = first.latest_decided
    state.last_pk = first.latest_pk
    if key is not None:
        state.done_id, state.deleted = first.done, first.gone
    return state


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

"""The stored replay: what the engine derived from a partie, kept so that no page replays it.

The donnes, hands and decisions stay the source of truth. Each write stores, in the same
transaction, the state after each donne it replayed (DonneResult) and a summary of the partie
(PartieResult: the final ranking and money, the end, the decisions still to take, the rachats
and their prices). Both are tagged with the engine's version and the partie's revision, which
the database moves on whenever anything the replay reads changes (migration 0006): a stored
replay whose tag no longer matches (a new engine, a change made outside the app, an old
partie) is rebuilt on first read, and the mismatch is logged. It is never shown stale.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from games.models import DonneResult, Joueur, Partie, PartieResult
from games.options import config_of
from games.scoring import ENGINE_VERSION, Config, DonneState, Final, PendingRachat, Replay
from games.selectors import PartieData, partie_load

log = logging.getLogger(__name__)


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


@dataclass
class Stored:
    """A partie as the pages read it: its players, options, summary, and the states loaded
    (the latest ones, or all), without its donnes and hands."""

    partie: Partie
    joueurs: list[Joueur]
    config: Config
    summary: Summary
    states: list[DonneState]  # consecutive, the last one is the latest applied donne

    @property
    def names(self) -> list[str]:
        return [j.name for j in self.joueurs]

    @property
    def last(self) -> DonneState | None:
        return self.states[-1] if self.states else None

    @property
    def etat(self) -> str:
        """The fingerprint a form carries: the partie's revision (a payment tick does not
        move it; a donne, a decision, an option or the end does)."""
        return str(self.partie.revision)


# -- writing --------------------------------------------------------------------------------


def _rachat_lines(states: list[DonneState]) -> list[RachatLine]:
    return [
        RachatLine(state.number, player, info.number, info.price)
        for state in states
        for player, info in state.rachats.items()
    ]


def _summary(result: Replay, recorded: int, first: int, kept: list[RachatLine]) -> Summary:
    return Summary(
        recorded=recorded,
        applied=first - 1 + len(result.states),
        over=result.over,
        end_reason=result.end_reason,
        pending=list(result.pending),
        final=result.final,
        rachats=kept + _rachat_lines(result.states),
    )


def store(
    partie: Partie,
    result: Replay,
    *,
    recorded: int,
    first: int = 1,
    earlier: Summary | None = None,
) -> Summary:
    """Store what the engine derived: ``result.states`` are the donnes from ``first`` on (the
    earlier ones are stored already and unchanged, and ``earlier`` is their summary). Call it
    in the write's transaction, after the write: the tag is the revision it left."""
    kept = [r for r in (earlier.rachats if earlier else []) if r.donne < first]
    summary = _summary(result, recorded, first, kept)
    DonneResult.objects.filter(partie=partie, number__gte=first).delete()
    DonneResult.objects.bulk_create(
        DonneResult(partie=partie, number=state.number, state=json.dumps(state.to_storage()))
        for state in result.states
    )
    partie.refresh_from_db(fields=["revision"])
    PartieResult.objects.update_or_create(
        partie=partie,
        defaults={
            "engine": ENGINE_VERSION,
            "revision": partie.revision,
            "summary": json.dumps(summary.to_json()),
        },
    )
    return summary


def store_new(parties: list[tuple[Partie, Replay, int]]) -> None:
    """``store`` for parties just created in this transaction (an import, a backup restored),
    each with its replay and its number of donnes recorded, none stored yet: their states and
    summaries in three queries whatever the number of parties, not a few per partie."""
    DonneResult.objects.bulk_create(
        DonneResult(partie=partie, number=state.number, state=json.dumps(state.to_storage()))
        for partie, result, _recorded in parties
        for state in result.states
    )
    # Tagged with the revision their inserts left, read after them (see ``store``).
    pks = [partie.pk for partie, _result, _recorded in parties]
    revisions = dict(Partie.objects.filter(pk__in=pks).values_list("pk", "revision"))
    for partie, _result, _recorded in parties:
        partie.revision = revisions[partie.pk]  # as ``store`` leaves it: fresh for a read
    PartieResult.objects.bulk_create(
        PartieResult(
            partie=partie,
            engine=ENGINE_VERSION,
            revision=revisions[partie.pk],
            summary=json.dumps(_summary(result, recorded, 1, []).to_json()),
        )
        for partie, result, recorded in parties
    )


def rebuild(partie: Partie) -> tuple[PartieData, Replay, Summary]:
    """Replay the whole partie from what was recorded and store the result."""
    data = partie_load(partie)
    result = data.replay()
    summary = store(partie, result, recorded=len(data.donnes))
    return data, result, summary


def _is_fresh(partie: Partie, result: PartieResult | None) -> bool:
    return (
        result is not None
        and result.engine == ENGINE_VERSION
        and result.revision == partie.revision
    )


def summary_of(partie: Partie) -> Summary:
    """The partie's summary, rebuilt first when its tag no longer matches. ``partie`` comes
    with its ``result`` (select_related) when the caller wants no extra query."""
    try:
        result = partie.result
    except PartieResult.DoesNotExist:
        result = None
    if _is_fresh(partie, result):
        return Summary.from_json(json.loads(result.summary))
    if result is not None:
        log.warning(
            "Stored replay of partie %s was stale (engine %s, revision %s; now %s, %s): rebuilt",
            partie.pk,
            result.engine,
            result.revision,
            ENGINE_VERSION,
            partie.revision,
        )
    _data, _result, summary = rebuild(partie)
    partie.result = PartieResult.objects.get(partie=partie)
    return summary


# -- reading --------------------------------------------------------------------------------


def states_of(
    partie: Partie, *, last: int | None = None, since: int | None = None
) -> list[DonneState]:
    """Stored states in order: all, the ``last`` ones, or those from donne ``since`` on."""
    rows = DonneResult.objects.filter(partie=partie)
    if since is not None:
        rows = rows.filter(number__gte=since)
    if last is not None:
        rows = rows.order_by("-number")[:last]
        return [DonneState.from_storage(json.loads(r.state)) for r in reversed(list(rows))]
    return [DonneState.from_storage(json.loads(r.state)) for r in rows.order_by("number")]


def state_at(partie: Partie, number: int) -> DonneState | None:
    row = DonneResult.objects.filter(partie=partie, number=number).first()
    return DonneState.from_storage(json.loads(row.state)) if row else None


def load(partie: Partie, *, last: int | None = None) -> Stored:
    """The partie for a page: summary, players, and its ``last`` states (all with None), in
    a fixed number of queries whatever the number of donnes."""
    summary = summary_of(partie)
    joueurs = list(partie.joueurs.select_related("habitue"))  # his colour (display/colours.py)
    return Stored(
        partie=partie,
        joueurs=joueurs,
        config=config_of(partie),
        summary=summary,
        states=states_of(partie, last=last),
    )


def listed(partie: Partie) -> Stored:
    """A partie for a list (the home page, the Comptes page): its summary and players, no
    state. ``partie`` comes with ``result`` and ``joueurs`` loaded (selectors.parties_of)."""
    return Stored(
        partie=partie,
        joueurs=list(partie.joueurs.all()),
        config=config_of(partie),
        summary=summary_of(partie),
        states=[],
    )


def loaded_all(parties: list[Partie]) -> list[Stored]:
    """Several parties with every state (an account's backup), in one query more. The
    parties come with ``result`` and ``joueurs`` loaded (selectors.parties_of)."""
    summaries = {p.pk: summary_of(p) for p in parties}
    states: dict[int, list[DonneState]] = {}
    rows = DonneResult.objects.filter(partie__in=[p.pk for p in parties])
    for row in rows.order_by("partie", "number"):
        states.setdefault(row.partie_id, []).append(DonneState.from_storage(json.loads(row.state)))
    return [
        Stored(
            partie=p,
            joueurs=list(p.joueurs.all()),
            config=config_of(p),
            summary=summaries[p.pk],
            states=states.get(p.pk, []),
        )
        for p in parties
    ]


def agrees(partie: Partie) -> bool:
    """Whether the stored replay is what a fresh replay of the partie gives (the test of the
    stored replay, and ``rami rebuild --check``)."""
    partie = Partie.objects.select_related("result").get(pk=partie.pk)
    summary = summary_of(partie)
    data = partie_load(partie)
    fresh = data.replay()
    stored = states_of(partie)
    return (
        stored == fresh.states
        and [(s.eliminated_at, s.left) for s in stored]
        == [(s.eliminated_at, s.left) for s in fresh.states]
        and summary.to_json()
        == Summary(
            recorded=len(data.donnes),
            applied=len(fresh.states),
            over=fresh.over,
            end_reason=fresh.end_reason,
            pending=list(fresh.pending),
            final=fresh.final,
            rachats=_rachat_lines(fresh.states),
        ).to_json()
    )

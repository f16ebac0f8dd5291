"""The stored replay as a read sees it: its summary (replayed in memory when stale)
and its states."""

from __future__ import annotations

import json
import logging

from games.models import (
    DonneResult,
    Partie,
    PartieResult,
)
from games.scoring import ENGINE_VERSION, DonneState, Replay
from games.selectors.donnes import partie_load
from games.selectors.state import RachatLine, Summary

log = logging.getLogger("games.selectors")  # one logger for every read


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


def summary_of(partie: Partie) -> Summary:
    """The partie's summary for a read: never written here (see ``read_summary``)."""
    return read_summary(partie)[0]


def _states(stored) -> list[DonneState]:
    return [DonneState.from_storage(json.loads(state)) for state in stored]


def states_of(
    partie: Partie,
    *,
    last: int | None = None,
    since: int | None = None,
    upto: int | None = None,
) -> list[DonneState]:
    """Stored states in order: all, the ``last`` ones, or those from donne ``since`` on; none
    after donne ``upto``."""
    rows = DonneResult.objects.filter(partie=partie)
    if since is not None:
        rows = rows.filter(number__gte=since)
    if upto is not None:
        rows = rows.filter(number__lte=upto)
    # The JSON alone: a page reads thirty of them on every request, and no model is needed.
    if last is not None:
        newest = rows.order_by("-number").values_list("state", flat=True)[:last]
        return _states(reversed(list(newest)))
    return _states(rows.order_by("number").values_list("state", flat=True))


def state_at(partie: Partie, number: int) -> DonneState | None:
    """The stored state after donne ``number`` (one the page did not load)."""
    row = DonneResult.objects.filter(partie=partie, number=number).first()
    return DonneState.from_storage(json.loads(row.state)) if row else None

"""The stored replay: what the engine derived from a partie, kept so that no page replays it.

The donnes, hands and decisions stay the source of truth. Each write stores, in the same
transaction, the state after each donne it replayed (DonneResult) and a summary of the partie
(PartieResult: the final ranking and money, the end, the decisions still to take, the rachats
and their prices). Both are tagged with the engine's version and the partie's revision, which
the database moves on whenever anything the replay reads changes (migration 0006): a stored
replay whose tag no longer matches (a new engine, a change made outside the app, an old
partie) is replayed in memory on a read (games/selectors/) and rebuilt by the next write,
and the mismatch is logged. It is never shown stale. Reads live in games/selectors/.
"""

from __future__ import annotations

import json
import logging

from django.db import connection

from games.models import DonneResult, Partie, PartieResult
from games.scoring import ENGINE_VERSION, Replay
from games.selectors import (
    PartieState,
    Summary,
    is_fresh,
    partie_load,
    read_summary,
    states_of,
    stored_result,
    summary_from,
)

log = logging.getLogger(__name__)


# -- writing --------------------------------------------------------------------------------


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
    summary = summary_from(result, recorded, first, kept)
    rows = [
        DonneResult(partie=partie, number=state.number, state=json.dumps(state.to_storage()))
        for state in result.states
    ]
    last = first - 1 + len(rows)
    if earlier is None or earlier.applied > last:
        DonneResult.objects.filter(partie=partie, number__gt=last).delete()
    # The states from ``first`` on replaced in place: one statement, whatever their number.
    DonneResult.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["partie", "number"], update_fields=["state"]
    )
    tag_result(partie, summary)
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
            summary=json.dumps(summary_from(result, recorded, 1, []).to_json()),
        )
        for partie, result, recorded in parties
    )


def rebuild(partie: Partie) -> tuple[PartieState, Replay, Summary]:
    """Replay the whole partie from what was recorded and store the result."""
    data = partie_load(partie)
    result = data.replay()
    summary = store(partie, result, recorded=len(data.donnes))
    return data, result, summary


def fresh_summary(partie: Partie) -> Summary:
    """The partie's summary for a write, under its lock: rebuilt and stored first when its tag
    no longer matches (a new engine, a change made outside the app), and the mismatch logged."""
    summary, stale = read_summary(partie)
    if stale:
        _data, _result, summary = rebuild(partie)
        partie.result = PartieResult.objects.get(partie=partie)
    return summary


def store_appended(state: PartieState, result: Replay) -> Summary:
    """``store`` for one donne appended after the last applied one (nothing stored after it),
    the partie's row already updated by this write: its new state inserted and the summary
    tagged with the revision the write left, read back by the same statement."""
    partie = state.partie
    number = state.summary.recorded + 1
    summary = summary_from(result, number, number, state.summary.rachats)
    DonneResult.objects.bulk_create(
        DonneResult(partie=partie, number=s.number, state=json.dumps(s.to_storage()))
        for s in result.states
    )
    tag_result(partie, summary)
    return summary


def tag_result(partie: Partie, summary: Summary) -> None:
    """The summary stored, tagged with the revision in the same statement (the triggers
    moved it during the write; RETURNING reads it back: SQLite 3.35+, PostgreSQL)."""
    result = stored_result(partie)
    text = json.dumps(summary.to_json())
    if result is None:
        store_summary(partie, summary)
        return
    table = PartieResult._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET engine = %s, summary = %s, revision = "  # noqa: S608
            f"(SELECT revision FROM {Partie._meta.db_table} WHERE id = %s) "
            "WHERE partie_id = %s RETURNING revision",
            [ENGINE_VERSION, text, partie.pk, partie.pk],
        )
        (revision,) = cursor.fetchone()
    partie.revision = result.revision = revision
    result.engine, result.summary = ENGINE_VERSION, text


def store_summary(partie: Partie, summary: Summary) -> None:
    partie.refresh_from_db(fields=["revision"])
    partie.result, _created = PartieResult.objects.update_or_create(
        partie=partie,
        defaults={
            "engine": ENGINE_VERSION,
            "revision": partie.revision,
            "summary": json.dumps(summary.to_json()),
        },
    )


# -- checking -------------------------------------------------------------------------------


def agrees(partie: Partie) -> bool:
    """Whether the stored replay is what a fresh replay of the partie gives (the test of the
    stored replay, and ``rami rebuild --check``). It reads what is stored as it is: a stale
    tag or a missing summary is a disagreement, never healed here."""
    partie = Partie.objects.select_related("result").get(pk=partie.pk)
    result = stored_result(partie)
    if not is_fresh(partie, result):
        return False
    summary = Summary.from_json(json.loads(result.summary))
    data = partie_load(partie)
    fresh = data.replay()
    stored = states_of(partie)
    return (
        stored == fresh.states
        and [(s.eliminated_at, s.left) for s in stored]
        == [(s.eliminated_at, s.left) for s in fresh.states]
        and summary.to_json() == summary_from(fresh, len(data.donnes), 1, []).to_json()
    )

"""A replay resumed from a stored state gives what the whole replay gives: the app stores the
state after each donne and replays only from the first donne that changed. Checked on every
accepted record of the golden file, from several points, through the storage format."""

from __future__ import annotations

from typing import Any

import pytest

from games.scoring import DonneState, RamiError, replay
from games.scoring.record import record_from_dict
from tests.games.scoring.golden import load_golden


def _records() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for case in load_golden():
        if case["exit"] != 0 or not isinstance(case["record"], dict):
            continue
        found.append((case["name"], case["record"]))
    return found


RECORDS = _records()


def test_there_are_records_to_resume() -> None:
    assert len(RECORDS) >= 300


@pytest.mark.parametrize(("name", "data"), RECORDS, ids=[name for name, _ in RECORDS])
def test_resuming_from_a_stored_state_gives_the_whole_replay(name: str, data: dict) -> None:
    record = record_from_dict(data)
    try:
        whole = record.replay(lenient=True)
    except RamiError:
        pytest.skip("refused in lenient mode too")
    n = len(whole.states)
    for k in sorted({1, n // 2, n - 1}):
        if not 1 <= k < n:
            continue
        stored = DonneState.from_storage(whole.states[k - 1].to_storage())
        rest = replay(
            record.preset,
            record.players,
            record.donnes[k:],
            record.config,
            lenient=True,
            ended=record.ended,
            after=stored,
        )
        assert rest.states == whole.states[k:], f"resumed after donne {k}"
        assert [(s.eliminated_at, s.left) for s in rest.states] == [
            (s.eliminated_at, s.left) for s in whole.states[k:]
        ]
        assert rest.final.to_dict() == whole.final.to_dict()
        assert (rest.over, rest.end_reason, rest.pending) == (
            whole.over,
            whole.end_reason,
            whole.pending,
        )

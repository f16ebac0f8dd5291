"""games/selectors/partie.py: what a page reads of a partie."""

from __future__ import annotations

import logging

import pytest

from games import services
from games.selectors import partie_shared, partie_state, summary_of
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db


def test_a_shared_partie_comes_with_its_stored_replay_as_of_the_same_read(caplog) -> None:
    """A follower's read of the partie and of its stored replay, with a donne committed in
    between (the scorekeeper records while a follower polls): both as they were at the first
    read, so the replay is not taken for stale (and replayed again in memory)."""
    partie = make_partie(make_user("alice"))
    play(partie, "Alice", "rami", Bruno=hand("K Q 5"), Chloé=hand("9 8"))
    token = services.partie_share(partie=partie).share_token
    shared = partie_shared(token)
    play(partie, "Bruno", "rami", Alice=hand("5 2"), Chloé=hand("6 4"))
    with caplog.at_level(logging.WARNING, logger="games.selectors"):
        summary = summary_of(shared)
    assert summary.recorded == 1
    assert shared.n_donnes == 1
    assert "stale" not in caplog.text


def test_a_read_shows_no_state_its_summary_does_not_count() -> None:
    """The partie and its summary read first, its states after, with a donne committed in
    between: the rows stop where the summary does, so a follower's page never shows a
    donne its totals and its count leave out."""
    partie = make_partie(make_user("alice"))
    play(partie, "Alice", "rami", Bruno=hand("K Q 5"), Chloé=hand("9 8"))
    token = services.partie_share(partie=partie).share_token
    shared = partie_shared(token)
    play(partie, "Bruno", "rami", Alice=hand("5 2"), Chloé=hand("6 4"))
    state = partie_state(shared, last=30)
    assert (state.summary.recorded, [s.number for s in state.states]) == (1, [1])
    assert state.last.totals == {"Alice": -10, "Bruno": 25, "Chloé": 17}  # §3.3: the rami's −10
    assert [s.number for s in partie_state(partie_shared(token), last=30).states] == [1, 2]

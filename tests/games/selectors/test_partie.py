"""games/selectors/partie.py: what a page reads of a partie."""

from __future__ import annotations

import logging

import pytest

from games import services
from games.selectors import partie_shared, summary_of
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

"""The marks the proxy answers unchanged share polls from (games/follow_marks.py): published
by a poll the app answers, withdrawn by every write and by a revoked link, never published
for a state a write has moved. Cast: alice owns the partie; the follower holds its link."""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.follow import follow_state, mark, mark_names
from games.follow_marks import _locked
from games.models import Partie
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def marks(settings, tmp_path) -> Path:
    settings.FOLLOW_MARKS_DIR = str(tmp_path)
    return tmp_path


@pytest.fixture
def partie(alice) -> Partie:
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand(points=7))
    return services.partie_share(partie=partie)


def held(marks: Path, partie: Partie) -> list[str]:
    folder = marks / partie.share_token
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def poll(partie: Partie, etag: str = "") -> tuple[int, str]:
    headers = {**HTMX, "HTTP_IF_NONE_MATCH": etag} if etag else HTMX
    response = Client().get(reverse("partie_follow", args=[partie.share_token]), **headers)
    return response.status_code, response.headers.get("ETag", "")


def test_a_poll_the_app_answers_leaves_the_marks_of_its_live_etags(marks, partie) -> None:
    status, etag = poll(partie)
    assert status == 200
    assert held(marks, partie) == sorted(mark_names(follow_state(partie.share_token)))
    # The fragment's ETag, as the follower's phone sends it back, is one of them.
    assert etag in held(marks, partie) and etag.startswith('"')
    assert poll(partie, etag) == (304, etag)


def test_a_donne_withdraws_the_marks_and_the_next_poll_marks_the_new_state(marks, partie) -> None:
    _status, etag = poll(partie)
    play(partie, "Bruno", "rami", Anne=hand(points=4), Chloé=hand(points=5))
    assert held(marks, partie) == []
    status, new = poll(partie, etag)
    assert status == 200 and new != etag
    assert new in held(marks, partie) and etag not in held(marks, partie)


def test_a_poll_that_read_the_state_before_a_write_publishes_nothing_after_it(
    marks, partie
) -> None:
    before = follow_state(partie.share_token)
    play(partie, "Bruno", "rami", Anne=hand(points=4), Chloé=hand(points=5))
    mark(partie.share_token, before)
    assert held(marks, partie) == []


def test_a_revoked_link_keeps_no_mark_and_is_refused(marks, partie) -> None:
    _status, etag = poll(partie)
    state = follow_state(partie.share_token)
    token = partie.share_token
    services.partie_unshare(partie=partie)
    partie.share_token = token  # the follower still holds it
    assert not (marks / token).exists()
    mark(token, state)
    assert not (marks / token).exists()
    assert poll(partie, etag)[0] == 404


def test_without_the_folder_setting_nothing_is_written(settings, tmp_path, partie) -> None:
    settings.FOLLOW_MARKS_DIR = ""
    assert poll(partie)[0] == 200
    assert list(tmp_path.iterdir()) == []


def test_a_name_that_is_no_token_is_never_a_folder(marks, partie) -> None:
    state = follow_state(partie.share_token)
    for token in ("..", "../x", "a" * 8, "a/" * 10):
        mark(token, state)
    assert list(marks.iterdir()) == []


def test_a_lock_that_waited_on_a_removed_folder_is_taken_on_the_new_one(tmp_path) -> None:
    """A withdrawal that waited while a revoked link's folder was removed and made again must
    lock the folder now at that path, or a poll's marks could go in beside it unseen."""
    folder = tmp_path / ("x" * 16)
    folder.mkdir()
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _locked(folder):
            taken.set()
            release.wait(30)

    with _locked(folder):
        waiting = threading.Thread(target=hold)
        waiting.start()
        # The other thread has opened the folder it waits on: the one about to be removed.
        while _opened(folder) < 2:
            waiting.join(0.01)
        folder.rmdir()
        folder.mkdir()
    try:
        assert taken.wait(30)
        other = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    finally:
        release.set()
        waiting.join(30)


def _opened(folder: Path) -> int:
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if _target(fd) == str(folder))


def _target(fd: Path) -> str:
    try:
        return os.readlink(fd)
    except OSError:
        return ""

"""Unchanged share polls answered by the proxy, without the app. For each followed link the
app keeps, in settings.FOLLOW_MARKS_DIR, an empty file named by each live ETag its followers
may hold while that ETag is still current: `<dir>/<token>/"<etag>"`. deploy/Caddyfile answers a
poll whose If-None-Match names such a file with a 304, and sends everything else to the app.
A Python worker costs about 1 ms of a core per request whatever it answers (README "An
evening"), and a thousand tables send a thousand polls a second.

One rule keeps the files true: a mark exists only while no write has touched the partie since
its state was current.
- A write moves the cache's state first (games/follow.py), then withdraws the token's marks.
- A mark is published only if the cache still holds its state (games/follow.py ``mark``
  asks), under the token folder's lock, which the withdrawal takes too.
A poll that read the old state before a write and publishes after it finds the new state and
publishes nothing; a mark published just before the write is withdrawn by it, which waits for
the lock. Removing a mark is always safe (the poll then goes to the app), so every failure
here ends in fewer marks, never a stale one, and is only logged.

The folder holds the share tokens in its names, as the database does: readable by the app
and the proxy only (docs/deploy.md)."""

from __future__ import annotations

import fcntl
import logging
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

# The share tokens' alphabet (secrets.token_urlsafe): anything else is never a folder name.
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _folder(token: str) -> Path | None:
    root = settings.FOLLOW_MARKS_DIR
    if not root or not TOKEN.fullmatch(token):
        return None
    return Path(root) / token


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """flock on the folder itself: every worker and server of this machine shares it. A folder
    removed (and made again) while this waited is another lock: taken again on the one now at
    that path, or FileNotFoundError when there is none."""
    while True:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.path.samestat(os.fstat(fd), os.stat(folder)):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        yield
    finally:
        os.close(fd)


def publish(token: str, names: list[str], *, current: Callable[[], bool]) -> None:
    """The token's marks become ``names`` (the live ETags of one state) if ``current()`` still
    says so once the lock is held. Costs one stat once the marks are there."""
    folder = _folder(token)
    if folder is None or (folder / names[0]).exists():
        return
    try:
        folder.mkdir(mode=0o750, exist_ok=True)
        with _locked(folder):
            if not current():
                # A write came since this poll read the state. An empty folder goes too (a
                # revoked link keeps nothing); one that holds marks is the write's to withdraw.
                with suppress(OSError):
                    folder.rmdir()
                return
            for old in folder.iterdir():
                if old.name not in names:
                    old.unlink(missing_ok=True)
            for name in names:
                (folder / name).touch(mode=0o640)
    except OSError:
        logger.warning("follow marks: %s not published", folder, exc_info=True)


def withdraw(token: str, *, forget: bool = False) -> None:
    """Every mark of the token removed: called after the cache's state moved. ``forget``: the
    link is revoked, its folder goes too (a poll that waits for the lock then finds the link
    revoked and publishes nothing)."""
    folder = _folder(token)
    if folder is None or not folder.is_dir():
        # A poll that publishes makes the folder before it reads the state: if the folder is
        # not there yet, that read comes after this write's and finds the new state.
        return
    try:
        with _locked(folder):
            for mark in folder.iterdir():
                mark.unlink(missing_ok=True)
            if forget:
                folder.rmdir()
    except FileNotFoundError:
        pass  # removed meanwhile, with its marks
    except OSError:
        # A mark that stays would answer 304 to a changed partie: that one is an error.
        logger.error("follow marks: %s not withdrawn", folder, exc_info=True)

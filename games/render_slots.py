"""How many PDFs are rendered at once, across every worker process and every server: at most
settings.PDF_RENDERS_AT_ONCE, each render holding one numbered slot while it works.

A slot is a lock that its holder's death frees at once, so a render killed half-way (kill -9,
the out-of-memory killer, a timeout) never leaves a slot taken for minutes:
- PostgreSQL: a session advisory lock, released by the server the moment the holder's
  connection drops; every server of the setup shares the database, so the limit is global.
- SQLite: an flock() on a file beside the database file, released by the kernel when the
  holder's process ends; SQLite means one machine, so that is global too.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

# The advisory locks' namespace (their first key): "RAMI" in ASCII, apart from any other lock.
NAMESPACE = 0x52414D49


_mine: set[int] = set()
_mine_lock = threading.Lock()


def limit() -> int:
    return max(1, int(settings.PDF_RENDERS_AT_ONCE))


def _try_postgresql(slot: int) -> Callable[[], None] | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [NAMESPACE, slot])
        (taken,) = cursor.fetchone()
    if not taken:
        return None

    def release() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [NAMESPACE, slot])

    return release


def lock_path(slot: int) -> Path:
    return Path(f"{connection.settings_dict['NAME']}.render-{slot}.lock")


def _try_file(slot: int) -> Callable[[], None] | None:
    fd = os.open(lock_path(slot), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None

    def release() -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    return release


def try_slot() -> tuple[int, Callable[[], None]] | None:
    """A free slot, taken, with what frees it; None when every slot is taken."""
    take = _try_postgresql if connection.vendor == "postgresql" else _try_file
    for slot in range(limit()):
        with _mine_lock:
            # PostgreSQL grants a session the advisory lock it already holds: a slot this
            # process holds (another thread's render) is not offered again.
            if slot in _mine:
                continue
            release = take(slot)
            if release is None:
                continue
            _mine.add(slot)

        def free(slot: int = slot, release: Callable[[], None] = release) -> None:
            with _mine_lock:
                _mine.discard(slot)
            release()

        return slot, free
    return None


@contextmanager
def render_slot(
    *, wait: float = 0.0, poll: float = 0.2, sleep: Callable[[float], None] = time.sleep
) -> Iterator[int | None]:
    """Hold a slot for the block: its number, or None when none came free within ``wait``
    seconds (asked again every ``poll``)."""
    tries = max(1, int(wait / poll) + 1)
    held = None
    for attempt in range(tries):
        held = try_slot()
        if held is not None or attempt == tries - 1:
            break
        sleep(poll)
    if held is None:
        yield None
        return
    slot, release = held
    try:
        yield slot
    finally:
        release()

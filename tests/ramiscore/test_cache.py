"""The shared cache on a real Redis server that goes away and comes back
(ramiscore/cache.py): while it is away a read is a miss, a write is dropped, a lock is
refused; nothing raises. Skipped without Debian's redis-server, except in CI."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from ramiscore.cache import FailSafeRedisCache

REDIS = shutil.which("redis-server")
if REDIS is None and os.environ.get("CI"):
    raise RuntimeError("CI needs redis-server (apt-get install redis-server)")
pytestmark = pytest.mark.skipif(REDIS is None, reason="needs redis-server (apt-get install)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Redis:
    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def cache(redis: Redis) -> FailSafeRedisCache:
    return FailSafeRedisCache(f"redis://127.0.0.1:{redis.port}/0", {})


def test_with_redis_there_the_cache_keeps_and_locks(cache) -> None:
    cache.set("marque", "kept", 60)
    assert cache.get("marque") == "kept"
    assert cache.add("verrou", 1, 60) is True
    assert cache.add("verrou", 1, 60) is False
    assert cache.get_many(["marque", "rien"]) == {"marque": "kept"}
    assert cache.delete("marque") is True


def test_while_redis_is_away_reads_miss_writes_drop_and_locks_are_refused(cache, redis) -> None:
    cache.set("marque", "kept", 60)
    redis.stop()
    assert cache.get("marque", "absent") == "absent"
    assert cache.get_many(["marque"]) == {}
    assert cache.add("verrou", 1, 60) is False  # fail closed: nothing runs twice
    cache.set("marque", "new", 60)  # dropped, no exception
    assert cache.delete("marque") is False


def test_once_redis_is_back_the_cache_works_again(cache, redis) -> None:
    redis.stop()
    assert cache.get("marque") is None
    redis.start()
    cache.set("marque", "again", 60)
    assert cache.get("marque") == "again"


def test_a_redis_that_never_answers_is_away_within_the_socket_timeout() -> None:
    """A listener that takes the connection and says nothing (a host gone mid-way): with the
    settings' socket timeouts the read is a miss, and the worker is free again."""
    from django.conf import settings

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        cache = FailSafeRedisCache(f"redis://127.0.0.1:{port}/0", settings.REDIS_OPTIONS)
        answers = []
        reader = threading.Thread(
            target=lambda: answers.append(cache.get("marque", "absent")), daemon=True
        )
        reader.start()
        reader.join(timeout=60)  # far beyond the 1 s timeout; without one, it never returns
        assert answers == ["absent"]

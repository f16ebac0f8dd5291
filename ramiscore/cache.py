"""Redis as the shared cache, failing safe while Redis is away (a restart, a full disk): a
read is a miss, a write is dropped, and ``add`` (what the locks take) says no, so that
whatever waits for a lock waits rather than runs twice. Nothing that must hold is kept only
here: the login limits are in the database (games/throttle.py). Without this, Django's
RedisCache raises on every request that touches the cache: a 500 for each page until Redis
is back."""

from __future__ import annotations

import logging

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("ramiscore.cache")
AWAY = (RedisConnectionError, RedisTimeoutError, OSError)


class KeptClients(RedisCacheClient):
    """Django's client builds a redis-py client object for every command, and redis-py's
    constructor is a good part of an unchanged share poll (games/follow_gate.py). One is kept
    per pool: it holds no connection of its own (each command takes one from the pool), so
    the threads of a worker can share it, and a pool re-made after a fork is checked by its
    process id."""

    def __init__(self, servers, **options) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


class FailSafeRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = KeptClients

    def _away(self, operation: str, err: Exception) -> None:
        log.warning("Redis away during %s: %s", operation, err)

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except AWAY as err:
            self._away("get", err)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except AWAY as err:
            self._away("get_many", err)
            return {}

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except AWAY as err:
            self._away("add", err)
            return False

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except AWAY as err:
            self._away("set", err)

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except AWAY as err:
            self._away("delete", err)
            return False

"""With REDIS_URL set (the Redis pass of .ci/run), Django's cache is that Redis: what one
process keeps there, another process reads. Skipped without REDIS_URL."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")


def test_the_cache_is_redis_and_shared_with_another_connection() -> None:
    import redis

    cache = caches["default"]
    # Django's RedisCache, failing safe while Redis is away (ramiscore/cache.py).
    assert type(cache).__name__ == "FailSafeRedisCache"
    assert isinstance(cache, RedisCache)
    assert cache.add("sheet-render:42", 1, 120) is True
    assert cache.add("sheet-render:42", 1, 120) is False  # the lock is taken
    other = redis.Redis.from_url(os.environ["REDIS_URL"])
    assert other.ttl(cache.make_key("sheet-render:42")) == 120
    cache.delete("sheet-render:42")
    assert other.exists(cache.make_key("sheet-render:42")) == 0

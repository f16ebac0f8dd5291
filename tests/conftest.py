from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:
    # Tests create many accounts; MD5 keeps them quick. Never used outside tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    # The login failure counters live in the cache (games/login.py): each test starts clean.
    from django.core.cache import cache

    cache.clear()

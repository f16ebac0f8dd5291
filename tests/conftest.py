from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:
    # Tests create many accounts; MD5 keeps them quick. Never used outside tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

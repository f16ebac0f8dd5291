"""The production settings for the gunicorn servers of test_two_servers.py, with two changes
that only make the run quick: MD5 passwords (a hundred password checks in seconds), and static
files from the finders rather than a collectstatic manifest."""

from __future__ import annotations

from ramiscore.settings import *  # noqa: F403
from ramiscore.settings import STORAGES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

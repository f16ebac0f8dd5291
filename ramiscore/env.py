"""Strict readers for settings taken from the environment.

A wrong value stops start-up with a message that names the variable, instead of
silently falling back to a default nobody asked for.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in TRUE_WORDS:
        return True
    if raw in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r}: expected one of {sorted(TRUE_WORDS | FALSE_WORDS)}"
    )


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None


def envstr(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def require_secret_key() -> None:
    """The servers call this before serving: sessions, CSRF and share links all sign."""
    from django.conf import settings

    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django refuses to read an empty key
        key = ""
    if not key:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it, or set DJANGO_DEBUG=True for development."
        )
    if not settings.DEBUG and weak_secret_key(key):
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is too weak: {len(key)} characters, {len(set(key))} different "
            f"ones. Production needs at least {SECRET_KEY_MIN_LENGTH} characters, at least "
            f"{SECRET_KEY_MIN_UNIQUE} of them different, not Django's 'django-insecure-' "
            "development key, e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )


# Django's own test (check --deploy, security.W009), which only warns: the server refuses.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5


def weak_secret_key(key: str) -> bool:
    return (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE
        or key.startswith("django-insecure-")
    )

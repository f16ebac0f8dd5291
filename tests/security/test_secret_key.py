"""Production refuses to serve with a weak DJANGO_SECRET_KEY, as Django's own
security.W009 judges one (shorter than 50 characters, fewer than 5 different ones, or Django's
``django-insecure-`` development key); ``check --deploy`` only warns."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start(key: str, debug: str = "False") -> subprocess.CompletedProcess[str]:
    """What gunicorn does first: import the WSGI application."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", "import ramiscore.wsgi"],
        cwd=ROOT,
        env={**clean, "DJANGO_DEBUG": debug, "DJANGO_SECRET_KEY": key},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("abcde", "5 characters, 5 different ones"),  # the issue's
        ("x" * 64, "64 characters, 1 different ones"),
        ("ab12" * 16, "64 characters, 4 different ones"),
        ("django-insecure-" + "k" * 40, "56 characters, 14 different ones"),
    ],
)
def test_production_refuses_a_weak_secret_key(key: str, why: str) -> None:
    result = start(key)
    assert result.returncode == 1
    assert f"DJANGO_SECRET_KEY is too weak: {why}." in result.stderr


def test_production_serves_with_a_random_key_of_fifty_characters() -> None:
    result = start(secrets.token_urlsafe(38))  # 51 characters
    assert result.returncode == 0, result.stderr


def test_development_starts_with_any_key() -> None:
    assert start("abcde", debug="True").returncode == 0

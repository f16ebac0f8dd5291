from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from ramiscore.env import envbool, envint

ROOT = Path(__file__).resolve().parents[2]


def test_home_page_is_in_french(client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert '<html lang="fr">' in response.content.decode()


def test_envbool_refuses_a_word_it_does_not_know(monkeypatch) -> None:
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='maybe'"):
        envbool("X_FLAG", False)


def test_envint_reads_a_number_and_refuses_words(monkeypatch) -> None:
    monkeypatch.setenv("X_NUM", "12")
    assert envint("X_NUM", 3) == 12
    monkeypatch.setenv("X_NUM", "douze")
    with pytest.raises(ImproperlyConfigured, match="expected a whole number"):
        envint("X_NUM", 3)


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_serve_without_a_secret_key() -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [sys.executable, "-c", "import ramiscore.wsgi"],
        cwd=ROOT,
        env={**clean, "DJANGO_DEBUG": "False"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "DJANGO_SECRET_KEY is not set" in result.stderr
    deploy = _manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="False")
    assert deploy.returncode == 1 and "security.W009" in deploy.stderr


def test_commands_that_sign_nothing_run_without_any_environment(tmp_path) -> None:
    # A player scoring a file, or an admin migrating, needs no secret key.
    record = tmp_path / "partie.json"
    record.write_text(
        '{"preset": "classique", "players": ["Anne", "Bruno"], "donnes": '
        '[{"winner": "Anne", "win": "rami", "hands": {"Bruno": {"cards": ["K"]}}}]}'
    )
    result = _manage("rami", "score", str(record), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert '"totals": {' in result.stdout and '"Bruno": 10' in result.stdout


def test_check_deploy_is_clean_in_production() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="False",
        DJANGO_SECRET_KEY="x" * 60 + "-a-real-looking-secret-for-the-deploy-check",
        DJANGO_ALLOWED_HOSTS="rami.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout

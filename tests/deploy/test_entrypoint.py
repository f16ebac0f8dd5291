"""deploy/entrypoint.sh, the container's entrypoint, run for real against a fresh database (a
SQLite file, or a new PostgreSQL database next to DATABASE_URL's): it migrates, makes the
cache table, then becomes the command, whose exit status is the container's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.production.stack import ROOT, manage, postgres_database, production_env

ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"
CHECK = (
    "from django.db import connection\n"
    "tables = set(connection.introspection.table_names())\n"
    "print(sorted(tables & {'games_partie', 'ramiscore_cache', 'django_migrations'}))\n"
)


@pytest.fixture
def env(tmp_path):
    env = production_env(tmp_path, PYTHON=sys.executable)
    drop = None
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"], drop = postgres_database(env["DATABASE_URL"], "entrypoint")
    yield env
    if drop:
        drop()


def run(env: dict[str, str], *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ENTRYPOINT), *command], env=env, capture_output=True, text=True, timeout=300
    )


def test_it_migrates_makes_the_cache_table_then_runs_the_command(env) -> None:
    first = run(env, sys.executable, "-c", "import sys; print('gunicorn ici'); sys.exit(3)")
    assert first.returncode == 3, first.stderr
    assert "Applying games.0001_initial... OK" in first.stdout
    assert first.stdout.endswith("gunicorn ici\n")
    assert manage(env, "shell", "--no-imports", "-c", CHECK) == (
        "['django_migrations', 'games_partie', 'ramiscore_cache']\n"
    )
    # Every start runs it again: nothing to do, nothing broken.
    again = run(env, "true")
    assert (again.returncode, again.stderr) == (0, "")
    assert "No migrations to apply." in again.stdout


def test_a_second_app_container_may_skip_the_migration(env) -> None:
    skipped = run(env | {"RAMISCORE_SKIP_MIGRATE": "1"}, sys.executable, "-c", "print('ok')")
    assert (skipped.returncode, skipped.stdout) == (0, "ok\n")
    assert manage(env, "shell", "--no-imports", "-c", CHECK) == "[]\n"

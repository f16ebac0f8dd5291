"""The production stage (`make test-production`): one ramiscore for the whole session,
started as docs/deploy.md says, behind Caddy over HTTPS (tests/production/stack.py). Skipped
with the reason when Caddy or Chromium is missing; under CI=true that is a failure."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS
from tests.production import stack


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.production)


def need(program: str, package: str) -> None:
    if not shutil.which(program):
        message = f"{program} is missing: install it with `apt-get install -y {package}`."
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@dataclass
class Stack:
    env: dict[str, str]
    gunicorn: stack.Service
    caddy: stack.Service
    partie: int
    token: str
    marks: Path

    @property
    def url(self) -> str:
        return f"https://localhost:{self.caddy.port}"


@pytest.fixture(scope="session")
def production(tmp_path_factory) -> Iterator[Stack]:
    need("caddy", "caddy")
    tmp = tmp_path_factory.mktemp("production")
    marks = tmp / "follow-marks"
    marks.mkdir()
    env = stack.production_env(tmp, DJANGO_TRUSTED_PROXIES="1", RAMISCORE_FOLLOW_MARKS=str(marks))
    drop = None
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"], drop = stack.postgres_database(env["DATABASE_URL"], "production")
    try:
        server = stack.gunicorn(tmp, env)
        proxy = stack.caddy(tmp, server.port, marks=str(marks))
        origin = f"https://localhost:{proxy.port}"
        env |= {"DJANGO_ALLOWED_HOSTS": "localhost", "DJANGO_CSRF_TRUSTED_ORIGINS": origin}
        server.env |= env
        stack.manage(env, "migrate", "--no-input")
        stack.manage(env, "createcachetable")
        stack.manage(env, "collectstatic", "--no-input")
        stack.manage(env, "check", "--deploy", "--fail-level", "WARNING")
        seeded = stack.seed(env)
        worker = stack.db_worker(tmp, env)
        with stack.running(server, worker, proxy):
            yield Stack(env, server, proxy, seeded["partie"], seeded["token"], marks)
    finally:
        if drop:
            drop()


@pytest.fixture(scope="session")
def tls_chromium() -> Iterator[object]:
    """Chromium trusting any certificate, for this profile only: Caddy's test authority is
    new at each run and installed nowhere."""
    need(CHROMIUM, "chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*LAUNCH_ARGS, "--ignore-certificate-errors"]
        )
        yield browser
        browser.close()

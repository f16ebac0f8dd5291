"""The cast of every test, named once: alice owns the parties, bob is another account (who
must never see alice's), and an anonymous visitor has no account at all."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_user


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def anonymous() -> Client:
    return Client()


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:
    # Tests create many accounts; MD5 keeps them quick. Never used outside tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The fixtures that give a test the database. Not django_db_setup: pytest-django sets up only
# the databases that some test of the session is marked for, so a fixture that asks for it
# alone may find the settings still naming the development database.
DB_FIXTURES = {"db", "transactional_db", "live_server"}


@pytest.fixture(autouse=True)
def _empty_cache(request, django_db_blocker):
    """The cache is the database's (settings.CACHES): what a test kept there, a rendered
    sheet or a login counter, must not reach the next test. Emptied after each test that
    used the test database; a rolled-back test leaves nothing there anyway."""
    yield
    uses_db = request.node.get_closest_marker("django_db") or DB_FIXTURES & set(
        request.fixturenames
    )
    if uses_db:
        from django.core.cache import cache

        with django_db_blocker.unblock():
            cache.clear()


@pytest.fixture(autouse=True, scope="session")
def _no_persistent_connections() -> None:
    # The live server answers each request in a thread of its own; a connection kept open
    # there (CONN_MAX_AGE) would outlive the test and stop PostgreSQL from dropping the test
    # database at the end.
    from django.db import connections

    connections.settings["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True, scope="session")
def _empty_redis(django_db_blocker) -> None:
    """With REDIS_URL, the cache outlives the test database: what an earlier run kept there
    (a sheet of a partie whose id is reused) must not answer this one."""
    from django.conf import settings

    if settings.REDIS_URL:
        from django.core.cache import cache

        cache.clear()


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings) -> None:
    # django-tasks' immediate backend runs a task where it is queued: a PDF a test asks for is
    # rendered by the same task as in production, without a db_worker process beside the test.
    # tests/games/test_tasks.py runs the real database backend and its worker.
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    # A committed write queues no PDF (it would render at once, in every live-server and
    # transactional test): the tests of that hook turn it on.
    settings.PDF_RENDER_ON_CHANGE = False

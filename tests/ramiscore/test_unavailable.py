"""The database away (ramiscore/unavailable.py): 503, Retry-After and a French sentence, not
a 500. The fault run of ``make load`` restarts a real PostgreSQL under load."""

from __future__ import annotations

import contextlib

from django.db import IntegrityError, OperationalError, connection
from django.test import Client, RequestFactory

from ramiscore.unavailable import DatabaseAwayMiddleware, server_error


def middleware() -> DatabaseAwayMiddleware:
    return DatabaseAwayMiddleware(lambda request: None)


def test_a_lost_database_connection_answers_503_with_retry_after() -> None:
    request = RequestFactory().get("/parties/1/")
    error = OperationalError("server closed the connection unexpectedly")
    response = middleware().process_exception(request, error)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Le serveur reprend son souffle" in response.content.decode()


def test_other_database_errors_are_left_to_their_handlers() -> None:
    request = RequestFactory().get("/parties/1/")
    assert middleware().process_exception(request, IntegrityError("unique")) is None


@contextlib.contextmanager
def database_away():
    """The real driver, pointed at a database that is not there: every new connection fails
    with its own OperationalError."""
    settings_dict = connection.settings_dict
    saved = dict(settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = "/nonexistent/ramiscore/db.sqlite3"
    else:
        settings_dict.update(HOST="127.0.0.1", PORT="1")
    try:
        yield
    finally:
        connection.close()
        settings_dict.clear()
        settings_dict.update(saved)


def test_the_database_lost_in_a_middleware_after_the_view_answers_503_too(
    settings, django_db_blocker
) -> None:
    """The manifest's view reads no session; the middleware that tags an account's pages
    then does (ramiscore/offline_account.py): its error is outside any view."""
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "a" * 32
    with django_db_blocker.unblock(), database_away():
        response = client.get("/manifest.webmanifest")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Le serveur reprend son souffle" in response.content.decode()


def test_any_other_error_outside_a_view_is_still_a_500(settings) -> None:
    settings.DEBUG = False
    try:
        raise ValueError("not the database")
    except ValueError:
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500

"""The database away (ramiscore/unavailable.py): 503, Retry-After and a French sentence, not
a 500. The fault run of ``make load`` restarts a real PostgreSQL under load."""

from __future__ import annotations

from django.db import IntegrityError, OperationalError
from django.test import RequestFactory

from ramiscore.unavailable import DatabaseAwayMiddleware


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

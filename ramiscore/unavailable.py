"""While the database is away (PostgreSQL restarting, a failover), every page answers 503
with Retry-After and a short French page rather than a 500 and a traceback in the logs for
each request: a phone's offline queue keeps its donne and sends it again (static/js/queue.js),
and a proxy or a load balancer knows to try again. Once the database answers, the next
request reconnects (CONN_HEALTH_CHECKS)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views import defaults

log = logging.getLogger("ramiscore.unavailable")
RETRY_AFTER = 5


class DatabaseAwayMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("database away: %s", exception)
        return away()


def away() -> HttpResponse:
    text = _("Le serveur reprend son souffle : réessayez dans quelques secondes.")
    return HttpResponse(
        f'<!doctype html><meta charset="utf-8"><p>{text}</p>',
        status=503,
        headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"},
    )


def lost_database(exception: BaseException | None) -> bool:
    """The exception, or one it was raised from or during, is the database gone."""
    seen = set()
    while exception is not None and id(exception) not in seen:
        if isinstance(exception, OperationalError | InterfaceError):
            return True
        seen.add(id(exception))
        exception = exception.__cause__ or exception.__context__
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler (ramiscore/urls.py). A middleware that reads the session or the user
    after the view (the database gone meanwhile) fails outside any view's process_exception:
    Django calls this handler while handling that exception, and it answers 503 too."""
    if lost_database(sys.exc_info()[1]):
        return away()
    return defaults.server_error(request)

"""The unchanged share poll, answered before Django's middleware and URLs. A follower's phone
asks every few seconds whether the marque changed, and nearly always it has not: that answer
is a 304 made of one cache read (games/follow.py) and a hash, so this WSGI layer gives it
without the request cycle around it (the handler's signals, fourteen middlewares, the URL
resolver), which cost several times the answer itself (README "An evening"). Behind
deploy/Caddyfile most of these polls never reach the app: Caddy answers them from the marks
this layer and the view publish (games/follow_marks.py); the ones that come are each state's
first.

Anything else goes to Django unchanged, and so does any poll whose answer Django would make
differently: a host not allowed, plain http where https is required, a state the cache does
not hold, a revoked token, an ETag that no longer matches. The 304 carries the headers
Django's would, from the same middleware methods (tests/games/test_follow_gate.py compares
them); only Content-Language and Content-Length are left out: they describe a body, and a
304 carries none (Django's "Content-Length: 0" is not the representation's length)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import quote_etag

from games.etags import none_match
from games.follow import cached_state, follow_etag, mark
from games.views.sharing import follow_headers

WSGIApp = Callable[[dict, Callable], Iterable[bytes]]


def _unused(_request):  # the middlewares below are only asked for their response headers
    raise AssertionError


class FollowPollGate:
    def __init__(self, application: WSGIApp) -> None:
        self.application = application
        self.security = SecurityMiddleware(_unused)
        self.frames = XFrameOptionsMiddleware(_unused)
        self._path: re.Pattern[str] | None = None

    @property
    def path(self) -> re.Pattern[str]:
        # Read from the URLconf (once it is loaded): the poll's URL is named in one place.
        if self._path is None:
            prefix, suffix = reverse("partie_follow", args=["TOKEN"]).split("TOKEN")
            self._path = re.compile(re.escape(prefix) + r"(?P<token>[^/]+)" + re.escape(suffix))
        return self._path

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        response = None
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            response = self.unchanged(environ)
        if response is None:
            return self.application(environ, start_response)
        start_response(f"{response.status_code} {response.reason_phrase}", list(response.items()))
        return []

    def unchanged(self, environ: dict) -> HttpResponse | None:
        """The 304 of an unchanged poll, None for anything Django must answer itself."""
        request = WSGIRequest(environ)
        match = self.path.fullmatch(request.path_info)
        if match is None:
            return None
        try:
            request.get_host()
        except DisallowedHost:
            return None  # Django's 400
        if self.security.process_request(request) is not None:
            return None  # Django's redirect to https
        state = cached_state(match["token"])
        if state is None:
            return None
        live = request.headers.get("HX-Request") == "true"  # what django-htmx reads
        etag = quote_etag(follow_etag(state, live=live, everything="tout" in request.GET))
        if not none_match(etag, request.headers["If-None-Match"]):
            return None
        mark(match["token"], state)
        return self.headers(request, follow_headers(HttpResponseNotModified(), etag))

    def headers(self, request: WSGIRequest, response: HttpResponse) -> HttpResponse:
        """The headers the middlewares of settings.MIDDLEWARE add to the share view's answer."""
        response = self.security.process_response(request, response)
        response = self.frames.process_response(request, response)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        patch_vary_headers(response, ["Accept-Language"])  # LocaleMiddleware
        return response

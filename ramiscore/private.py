"""Every answer to a logged-in owner is ``Cache-Control: private, no-store``: a page,
a PDF, an export, the backup, the money. On a shared computer (the club's, a friend's phone)
neither the back button nor the browser's disk may keep what the owner saw after logging
out, and no proxy may keep it at all.

One middleware rather than a decorator per view, so that a new view cannot forget it. Left
alone: the share link's pages (anyone holding the link reads them, and their ETag must be
revalidated, not dropped), the healthcheck and static files (whitenoise answers those before
any session is read). The printed marque and its PDF keep their ETag: a client that sends
If-None-Match itself still gets a 304 (games/views/sheet_cache.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

PUBLIC_VIEWS = {"partie_follow", "partie_follow_chart", "health"}


class PrivateOwnerPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Without a session cookie nobody is logged in: the session is not even read.
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return response
        match = request.resolver_match
        if match is not None and match.url_name in PUBLIC_VIEWS:
            return response
        if request.user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response

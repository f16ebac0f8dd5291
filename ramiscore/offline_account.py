"""The account a phone's kept pages belong to (docs/decisions.md "Offline"): a marker that is
no secret (a keyed hash of the account, not its id), set as a cookie that the page and the
service worker can read, and sent with every answer to a logged-in owner. The worker keeps
pages under the marker's name and shows them only while the same marker is set: a page kept
for one account is never shown to another, nor to a browser whose session is gone (the
marker goes with it, at the same age)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from ramiscore.private import PUBLIC_VIEWS

COOKIE = "ramiscore_compte"
HEADER = "X-Ramiscore-Compte"


def account_marker(pk: int) -> str:
    return salted_hmac("ramiscore.offline.account", str(pk)).hexdigest()[:16]


class OfflineAccountMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # The healthcheck (probed every few seconds offline) and the share link's pages read
        # no session for this: they stay without a database query.
        match = request.resolver_match
        if match is not None and match.url_name in PUBLIC_VIEWS:
            return response
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            marker = account_marker(user.pk)
            response[HEADER] = marker
            if request.COOKIES.get(COOKIE) != marker:
                # As long as the session cookie: both leave the phone together.
                session = request.session
                age = None if session.get_expire_at_browser_close() else session.get_expiry_age()
                response.set_cookie(
                    COOKIE,
                    marker,
                    max_age=age,
                    samesite="Lax",
                    secure=settings.SESSION_COOKIE_SECURE,
                    httponly=False,  # read by static/js/offline.js and static/js/sw.js
                )
        elif COOKIE in request.COOKIES:
            response.delete_cookie(COOKIE, samesite="Lax")
        return response

"""Content Security Policy. Django 5.2 has none built in and the policy is one
fixed header, so a few lines instead of a dependency."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Django's DEBUG error pages carry inline styles and scripts: leave them readable.
        if settings.DEBUG and response.status_code in (404, 500):
            return response
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

"""A healthcheck for monitoring, and the benchmark's yardstick: the cheapest Django response."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    # No database query: it says the process answers, which is what a load balancer needs.
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")

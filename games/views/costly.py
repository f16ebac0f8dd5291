"""A limit on the expensive answers of an account: a PDF rendered, an export, the
backup, an import. Kept in the database's token buckets (games/throttle.py), so it holds
across every worker and server. A cached PDF or sheet (an unchanged partie) costs nothing and
takes nothing (games/views/sheet_cache.py)."""

from __future__ import annotations

import math
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from games.throttle import Limit, give_back, minutes, take

# At most 60 in 30 minutes (a bucket of 30, one back a minute): an evening's exports, prints
# and a backup restored in pieces stay far below it; a script asking in a loop does not.
COSTLY = Limit("couteux", capacity=30, seconds=30 * 60)


def too_many(request: HttpRequest, wait: float) -> HttpResponse:
    n = minutes(wait)
    message = ngettext(
        "Trop de fichiers demandés d'un coup : réessayez dans %(n)s minute.",
        "Trop de fichiers demandés d'un coup : réessayez dans %(n)s minutes.",
        n,
    ) % {"n": n}
    response = render(request, "trop_de_demandes.html", {"message": message}, status=429)
    response["Retry-After"] = str(math.ceil(wait))
    return response


def refused(request: HttpRequest) -> HttpResponse | None:
    """None when the account may have one more expensive answer (and counts it), else the
    French 429."""
    wait = take(COSTLY.bucket(str(request.user.pk)))
    return too_many(request, wait) if wait else None


def _charged(view, request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """The view, its token given back when it found nothing to work on (another account's
    partie, or none: a 404 costs nothing)."""
    try:
        return view(request, *args, **kwargs)
    except Http404:
        give_back(COSTLY.bucket(str(request.user.pk)))
        raise


def costly(view):
    """For a view (under login_required) whose every answer is expensive."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return refused(request) or _charged(view, request, *args, **kwargs)

    return wrapper


def costly_post(view):
    """As ``costly``, for a view whose GET is a cheap form and whose POST does the work."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        return refused(request) or _charged(view, request, *args, **kwargs)

    return wrapper

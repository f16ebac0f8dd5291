"""The printed marque and its PDF, kept once rendered: per partie state (its revision and the
engine's version) and language, in Django's cache (games/sheet_files.py). An unchanged partie
answers from there, or with a 304 to the ETag the browser holds.

The screen sheet renders in the request when it is not kept (a template, no layout engine). A
PDF never does: it is rendered by the task runner (games/tasks.py), queued by every committed
write and by a request that finds none; until it is kept the request gets a page that asks
again by itself (503, Retry-After), so no web worker is ever held for the seconds a long
partie's layout takes."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import get_language

from games import cache_places, sheet_files, tasks
from games.cache_places import Place
from games.etags import none_match
from games.models import Partie
from games.views import costly

# Seconds the "en préparation" page waits before asking again: a 7 × 999 PDF takes about that.
RETRY_AFTER = 3


def _etag(place: Place) -> str:
    # Opaque: the id, the revision and the language stay on the server.
    drawn = f"{settings.SECRET_KEY}:{place.key}:{place.stamp}"
    digest = hashlib.sha256(drawn.encode()).hexdigest()[:32]
    return quote_etag(digest)


def _private(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # An owner's file: the browser may keep it but must ask again; no shared cache may.
    patch_cache_control(response, private=True, no_cache=True)
    return response


def cached_render(
    request: HttpRequest,
    partie: Partie,
    kind: str,
    render_body: Callable[[], bytes],
    *,
    content_type: str,
) -> HttpResponse:
    """The rendered file of ``kind`` for this state of the partie, rendering it if needed."""
    place = sheet_files.key(kind, partie, get_language())
    etag = _etag(place)
    if none_match(etag, request.headers.get("If-None-Match")):
        return _private(HttpResponseNotModified(), etag)
    body = cache_places.read(place)
    if body is None:
        body = render_body()
        cache_places.keep(place, body, sheet_files.KEPT_SECONDS)
    return _private(HttpResponse(body, content_type=content_type), etag)


def pending(request: HttpRequest, partie: Partie) -> HttpResponse:
    context = {"partie": partie, "retry_after": RETRY_AFTER}
    response = render(request, "games/sheet_pending.html", context, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    add_never_cache_headers(response)
    return response


def kept_pdf(request: HttpRequest, partie: Partie) -> HttpResponse:
    """The PDF of this state of the partie if the task runner has kept it; else its render is
    queued (once: a render already waiting will do) and the page says to wait."""
    language = get_language()
    place = sheet_files.key("pdf", partie, language)
    etag = _etag(place)
    if none_match(etag, request.headers.get("If-None-Match")):
        return _private(HttpResponseNotModified(), etag)
    body = cache_places.read(place)
    if body is None:
        # Asked for and not kept: rendered after each change from now on, for a day since
        # this ask (games/tasks.py); a kept file costs no mark.
        sheet_files.mark_wanted(partie.pk, language)
    if body is None and not cache.has_key(sheet_files.pending_key(partie.pk, language)):
        # A render the request asks for counts in the account's expensive answers; one queued
        # by a write, or kept, does not (games/views/costly.py).
        refused = costly.refused(request)
        if refused:
            return refused
        tasks.ask_render(partie.pk, language)
        body = cache_places.read(place)  # a runner that works at once (tests) has kept it
    if body is None:
        return pending(request, partie)
    return _private(HttpResponse(body, content_type="application/pdf"), etag)

"""The printed marque and its PDF, kept once rendered: per partie state (its revision and the
engine's version) and language, in Django's cache. An unchanged partie answers from there,
or with a 304 to the ETag the browser holds; only a change renders again. A PDF is rendered
one at a time per account: a second one asked meanwhile gets a 429 to retry."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.models import Partie
from games.scoring import ENGINE_VERSION
from games.views import costly

# Long enough for the longest partie's render (1000 donnes); released as soon as it is done.
RENDER_LOCK_SECONDS = 120
KEPT_SECONDS = 7 * 24 * 3600


def _key(kind: str, partie: Partie) -> str:
    # The revision moves with what the replay reads. The sheet also shows what it does not: the
    # money already on the table ("Qui paie qui"), the name, the currency; every service write
    # saves updated_at, a payment tick included.
    stamp = int(partie.updated_at.timestamp() * 1_000_000)
    state = f"{partie.revision}:{stamp}:{ENGINE_VERSION}"
    return f"sheet:{kind}:{partie.pk}:{state}:{get_language()}"


def _etag(key: str) -> str:
    # Opaque: the id, the revision and the language stay on the server.
    digest = hashlib.sha256(f"{settings.SECRET_KEY}:{key}".encode()).hexdigest()[:32]
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
    render: Callable[[], bytes],
    *,
    content_type: str,
    one_at_a_time: bool = False,
) -> HttpResponse:
    """The rendered file of ``kind`` for this state of the partie, rendering it if needed."""
    key = _key(kind, partie)
    etag = _etag(key)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        return _private(HttpResponseNotModified(), etag)
    body = cache.get(key)
    if body is None:
        lock = f"sheet-render:{request.user.pk}"
        if one_at_a_time and not cache.add(lock, 1, RENDER_LOCK_SECONDS):
            busy = HttpResponse(
                _("Le PDF est en préparation, réessayez dans un instant."),
                status=429,
                content_type="text/plain; charset=utf-8",
            )
            busy["Retry-After"] = "5"
            return busy
        try:
            # Issue 15: a render counts in the account's expensive answers; a kept one does not.
            refused = costly.refused(request)
            if refused:
                return refused
            body = render()
            cache.set(key, body, KEPT_SECONDS)
        finally:
            if one_at_a_time:
                cache.delete(lock)
    return _private(HttpResponse(body, content_type=content_type), etag)

"""The share link and the read-only live view."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import cache_places, services
from games.display.cagnotte import build_cagnotte
from games.display.marque import build_marque
from games.etags import none_match
from games.follow import follow_etag, follow_state, mark
from games.selectors import bought_back, partie_shared, partie_state
from games.views import fragments
from games.views.partie_page import (
    get_partie_for_user,
    load_marque,
    visible_rows,
)

# The donnes the big-screen view shows (6 players × 20 donnes fit a 1280×800 tablet).
GRAND_ROWS = 20


@login_required
@require_POST
def partie_share(request: HttpRequest, pk: int) -> HttpResponse:
    """Create the share link, or replace it (the old one stops working)."""
    partie = get_partie_for_user(request, pk)
    replaced = bool(partie.share_token)
    services.partie_share(partie=partie)
    if replaced:
        messages.success(request, _("Nouveau lien de partage : l'ancien ne marche plus."))
    return redirect(reverse("partie_detail", args=[partie.pk]) + "?partage#partage")


@login_required
@require_POST
def partie_unshare(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    services.partie_unshare(partie=partie)
    messages.info(request, _("Le lien de partage est révoqué."))
    return redirect(reverse("partie_detail", args=[partie.pk]) + "?partage#partage")


def follow_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """What every answer of the share view carries, a 304 from games/follow_gate.py too."""
    response["ETag"] = etag
    # Revalidate on every request; the fragment and the page share one URL (Vary).
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    response["X-Robots-Tag"] = "noindex"
    return response


def _gone(request: HttpRequest) -> HttpResponse:
    if request.htmx:
        # A link revoked while someone follows: reload, so the page shows the 404.
        return HttpResponse(status=404, headers={"HX-Refresh": "true"})
    raise Http404


@require_GET
def partie_follow(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only live view behind a share link, for anyone holding the token. An
    unchanged poll is answered from the shared cache (games/follow.py): a 304 with no body,
    no session read and no query of the parties; most of them never reach this view
    (games/follow_gate.py), nor the app behind Caddy (games/follow_marks.py)."""
    state = follow_state(token)
    if state is None:
        return _gone(request)
    # The next unchanged polls of this state are the proxy's to answer (games/follow_marks.py).
    mark(token, state)
    everything = "tout" in request.GET
    etag = quote_etag(follow_etag(state, live=bool(request.htmx), everything=everything))
    if none_match(etag, request.headers.get("If-None-Match")):
        return follow_headers(HttpResponseNotModified(), etag)
    # The live fragment of a new state is asked by every follower of the table within a few
    # seconds: drawn by the first, kept by its ETag (the state) for the others.
    place = fragments.follow_key(request, etag) if request.htmx else None
    html = cache_places.read(place) if place else None
    if html is not None:
        return follow_headers(HttpResponse(html), etag)
    response = _drawn(request, token, state, everything=everything)
    if response is None:
        return _gone(request)
    if place:
        cache_places.keep(place, response.content, fragments.FOLLOW_SECONDS)
    return follow_headers(response, etag)


def _drawn(
    request: HttpRequest, token: str, state: str, *, everything: bool
) -> HttpResponse | None:
    """The share page (or its live fragment, for htmx) of ``state``; None: the link is gone."""
    # Read after the state: a write committed after this read gives a new state.
    partie = partie_shared(token)
    if partie is None:
        return None
    template = "games/partie_follow.html"
    if request.htmx:
        template += "#suivi"
    marque = load_marque(partie, request)
    grand = request.GET.get("grand") == "1"
    context = {
        "partie": partie,
        "marque": marque,
        **visible_rows(marque),
        "live_etag": follow_etag(state, live=True, everything=everything),
        "grand": grand,
    }
    if grand:
        # The big screen (a TV, a tablet on the wall) shows the latest donnes that fit
        # under the scoreboard without scrolling, and no link to older ones.
        context |= {"rows": marque.rows[-GRAND_ROWS:], "hidden_rows": 0}
    # Kept rendered by the partie's state (games/views/fragments.py): the followers of one
    # table draw each new state once between them.
    context["parts"] = fragments.page_parts(
        request,
        {**context, "readonly": True},
        lambda: build_cagnotte(marque.stored, bought_back(marque.stored)),
        view="grand" if grand else "page",
    )
    return render(request, template, context)


@require_GET
def partie_follow_chart(request: HttpRequest, token: str) -> HttpResponse:
    """The score chart of a shared partie, when its fold is opened: every donne."""
    partie = partie_shared(token)
    if partie is None:
        raise Http404
    players = build_marque(partie_state(partie, last=0))  # the key needs no state
    html = fragments.chart(request, lambda: build_marque(partie_state(partie)), players)
    response = HttpResponse(html)
    response["X-Robots-Tag"] = "noindex"
    return response

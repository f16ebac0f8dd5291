"""The form fields posted under their old names, read under today's (docs/decisions.md "One
vocabulary, round two"). A phone may hold donnes queued offline with the old names, a kept
page or a worker of the previous version may post them: each is mapped here, once, before any
view reads the post, so that the freshness check and the idempotency key are never lost."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# Old name -> today's (the queue's own list: static/js/queue.js CURRENT_NAMES).
OLD_NAMES = {
    "cle": "idempotency_key",
    "etat": "revision",
    "apres": "after_key",
    "forcer": "force",
    "en_course": "players",
    "etat_note": "note_token",
    "modifie": "edited",
}
# A player's boxes are named for him: cartes_<pk> -> cards_<pk> (Hand.cards).
OLD_PREFIXES = {"cartes_": "cards_"}


def _today_s(name: str) -> str | None:
    """Today's name of an old one, or None when ``name`` is no old name."""
    if name in OLD_NAMES:
        return OLD_NAMES[name]
    for old, new in OLD_PREFIXES.items():
        if name.startswith(old):
            return new + name.removeprefix(old)
    return None


class RenamedFieldsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        # After the CSRF check (this runs later in MIDDLEWARE), which has read the post
        # already: nothing is parsed here that the view would not parse.
        if request.method != "POST":
            return None
        renamed = {name: new for name in request.POST if (new := _today_s(name)) is not None}
        if not renamed:
            return None
        posted = request.POST.copy()
        for old, new in renamed.items():
            values = posted.pop(old)
            if new not in posted:
                posted.setlist(new, values)
        posted._mutable = False
        request.POST = posted
        return None

"""The parts of the partie page that only the partie's state decides, kept rendered in the
shared cache: the scoreboard, the marque table and the cagnotte (and, on its own request, the
score chart). Rendering them was most of the page's time, and the marque's time grew with its
rows; an unchanged partie now pays one cache read for the three.

A fragment is kept with the stamp of everything it is drawn from, so a changed partie has a new
stamp and nothing stale is ever shown; in one place per partie and way of asking
(games/cache_places.py), so that a new state's fragment takes the place of the last one's and
the cache holds one per table, not one per donne. The stamp names the partie's revision (which
the database moves with whatever the replay reads, games/replays.py) and its updated_at (every
service write saves it: a payment ticked, a rename, the money), the engine's version, the
language and the time zone, the rows shown (?tout), the read-only flag, the players' names,
colours and ticked stakes, and a fingerprint of the templates, the display code and the
translations (a deploy draws them anew). The key names the partie, but the page checks that the
partie is the account's before it asks (get_partie_for_user): a key alone never opens a partie.

The forms inside (a payment tick, the money, the undo) carry the CSRF token, which belongs to
one browser: a fragment is rendered with a placeholder token, and each request puts its own in
its place. Nothing a player types can forge the placeholder, which is a whole <input> tag
(what a player types is escaped).

The rest of the page that the state decides is kept in the same entry, region by region
(``{% kept "name" %}`` in games/partie_detail.html, games/templatetags/kept.py): the partie's
heading and record, the rachat cards and the donne form, the links, the share panel (kept by
the address the request came to, as its link is absolute), the note and the actions. What
belongs to one request stays out of them (the messages, the undo) or is put in on the way
out, as the token is: the donne form's idempotency key is kept as a placeholder, and each
request gets a fresh key in its place (a key is never served twice). The words the page's
JavaScript says are drawn once per language, outside the entry (``{% by_language %}``). What a
donne leaves as it was (the foot: the links, the share panel, the note) is also kept under the
values it is drawn from (``{% kept "foot" by … %}``, ``region_key``): a new state's page, which
a write's answer draws, takes it drawn from the state before. The owner's page makes its key
from the partie, its players and its stored summary alone (``page_state``), read in one query,
and the request's address (``page_key``): an unchanged partie is served without loading a
state (games/views/partie_page.py show_partie).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

from django.core.cache import cache as shared_cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import cache_places, sheet_files
from games.cache_places import Place
from games.code_fingerprint import code_fingerprint
from games.display.marque import Marque
from games.models import Partie

# As long as the sheet's files (games/sheet_files.py): a key is never reused for other content.
KEPT_SECONDS = sheet_files.KEPT_SECONDS
PAGE_PARTS = {
    "scoreboard": "games/_scoreboard.html",
    "marque_table": "games/_marque_table.html",
    "cagnotte": "games/_cagnotte.html",
}
CHART = "games/_chart.html"
# The share link's live fragment of one state: asked by the table's followers within a poll
# period of each other, then never again (the next write gives a new state).
FOLLOW_SECONDS = 600
# Letters and digits only: the token Django checks would refuse it, were it ever posted.
PLACEHOLDER = "ramiscoreFragmentCsrfPlaceholder0000000000000000000000000000000"
# The donne form's idempotency key in a kept render; the whole attribute pair is replaced, which
# nothing a player types can write (a quote is escaped).
KEY_PLACEHOLDER = uuid.UUID(int=0)
KEY_FIELD = f'name="idempotency_key" value="{KEY_PLACEHOLDER}"'


@cache
def _csrf_tag() -> Template:
    return Template("{% csrf_token %}")


def _csrf_input(token: str) -> str:
    return _csrf_tag().render(Context({"csrf_token": token}))


@cache
def _placeholder_input() -> str:
    return _csrf_input(PLACEHOLDER)


def state_of(marque: Marque, *, readonly: bool, rows: list, hidden_rows: int) -> str:
    """Everything a page part is drawn from, but the state itself (revision, updated_at,
    engine), which ``key`` adds: what this request shows of it."""
    partie = marque.partie
    players = [
        (line.joueur.pk, line.joueur.name, line.colour, line.joueur.mise_paid)
        for line in marque.players
    ]
    shown = (rows[0].number, rows[-1].number, len(rows)) if rows else ()
    return repr(
        (
            get_language(),
            timezone.get_current_timezone_name(),
            partie.currency,
            readonly,
            shown,
            hidden_rows,
            players,
        )
    )


def page_state(marque: Marque, *, everything: bool) -> str:
    """``state_of`` for the owner's partie page, made from the partie without its states (its
    players and summary): the rows it shows follow from the stored replay, the latest donnes
    applied or, with ?tout (``everything``), all of them."""
    summary = marque.summary
    players = [
        (line.joueur.pk, line.joueur.name, line.colour, line.joueur.mise_paid)
        for line in marque.players
    ]
    return repr(
        (
            get_language(),
            timezone.get_current_timezone_name(),
            marque.partie.currency,
            "page",
            everything,
            summary.recorded,
            summary.applied,
            players,
        )
    )


def _digest(drawn: str) -> str:
    return hashlib.sha256(drawn.encode()).hexdigest()[:40]


def key(kind: str, marque: Marque, state: str, variant: tuple[Any, ...]) -> Place:
    """The place of a part of ``kind`` (games/cache_places.py): one per partie and ``variant``,
    the way it was asked for, with the language and the time zone; stamped with its state."""
    partie = marque.partie
    drawn = f"{sheet_files.state(partie)}|{code_fingerprint()}|{state}"
    where = repr((get_language(), timezone.get_current_timezone_name(), variant))
    return Place(f"fragment:{kind}:{partie.pk}:{_digest(where)}", _digest(drawn))


def written_entry(request: HttpRequest, marque: Marque) -> PageEntry:
    """The entry of the owner's page of the state a write just left, so that what the write's
    answer draws is kept for that page: the phone's worker asks for it as soon as the answer
    is swapped (static/js/offline.js ``keepThisPage``), and finds it drawn. Keyed as the page
    is (``page_state``, of the latest donnes), which the caller checks the answer shows."""
    state = page_state(marque, everything=False)
    place = page_key(request, marque, state, everything=False)
    return PageEntry(request, place, keep=True, read=False)


def page_key(request: HttpRequest, marque: Marque, state: str, *, everything: bool) -> Place:
    """The place of the owner's partie page: ``key`` with what its share panel is drawn from
    besides the partie, the address the request came to (the share link is absolute) and
    whether it asked for the panel open (?partage, after a new link); the whole marque
    (?tout) has a place of its own."""
    return _page_place(request, marque, state, ("owner", everything))


def _page_place(request: HttpRequest, marque: Marque, state: str, view: tuple[Any, ...]) -> Place:
    # The address asked for (the share link is absolute, ?partage opens the panel) is part of
    # both the place and the stamp.
    asked = _asked(request)
    return key("page", marque, f"{state}|{asked!r}", (*view, asked))


def _asked(request: HttpRequest) -> tuple[str, str, bool]:
    return (request.scheme, request.get_host(), "partage" in request.GET)


def region_key(request: HttpRequest, partie: Partie, name: str, values: list[Any]) -> str:
    """The key of a steady region (``{% kept "name" by … %}``, games/templatetags/kept.py):
    the values it is drawn from, with what every region of the page is drawn from besides the
    partie's state (the language, the time zone, the address, the release), and not the state,
    which a donne moves and these values do not."""
    drawn = repr(
        (name, get_language(), timezone.get_current_timezone_name(), _asked(request),
         code_fingerprint(), values)
    )  # fmt: skip
    return f"fragment:region:{partie.pk}:{_digest(drawn)}"


def follow_key(request: HttpRequest, etag: str) -> Place:
    """The place of a share link's live fragment: one place per path (the link, the big screen,
    every donne), language and time zone; its stamp the ETag, which names the state and the
    representation, and the code fingerprint, the release that drew it."""
    where = "|".join(
        (request.get_full_path(), get_language(), timezone.get_current_timezone_name())
    )
    return Place("fragment:follow:" + _digest(where), _digest(f"{etag}|{code_fingerprint()}"))


class Missing(Exception):  # noqa: N818 - a signal, not an error
    """A part the entry does not hold, asked of a page drawn without the partie's states."""


class PageEntry:
    """The kept parts of one partie page, as one cache entry read once: ``part`` gives a part
    from it, or draws it (with the placeholder token); ``store`` keeps what was drawn, once
    the page is rendered, in one write. ``shallow``: the page was read without the partie's
    states, so it must draw nothing; a part missing raises ``Missing``, and the page is read
    whole and rendered again with the same entry."""

    def __init__(
        self,
        request: HttpRequest,
        place: Place,
        *,
        keep: bool,
        shallow: bool = False,
        read: bool = True,
    ):
        self.request = request
        self.place = place
        self.keep = keep
        self.shallow = shallow
        # ``read``: False for a write's answer, which draws every region anyway: nothing to
        # look up first (the entry it keeps is whole).
        self.found: dict[str, str] = (cache_places.read(place) or {}) if keep and read else {}
        self.drawn: dict[str, str] = {}
        self.parts: dict[str, SafeString] = {}
        self._token_input = ""

    def part(
        self, name: str, draw: Callable[[], str], *, steady: Callable[[], str] | None = None
    ) -> SafeString:
        """The part ``name``: from the entry, or drawn. ``steady`` gives the key of a region
        kept by what it is drawn from (``region_key``): where the entry misses it (a new
        state), it is taken from there before it is drawn, and kept there when drawn."""
        html = self.found.get(name)
        if html is None:
            if self.shallow:
                raise Missing(name)
            html = self.drawn[name] = (
                self._steady(steady(), draw) if steady and self.keep else draw()
            )
        return self._filled(html)

    def _steady(self, region: str, draw: Callable[[], str]) -> str:
        html = shared_cache.get(region)
        if html is None:
            html = draw()
            shared_cache.set(region, html, KEPT_SECONDS)
        return html

    def _filled(self, html: str) -> SafeString:
        """The part with this request's values in place of the placeholders: its CSRF token
        (drawn once for the page), and a fresh idempotency key for the donne form."""
        if _placeholder_input() in html:
            if not self._token_input:
                self._token_input = _csrf_input(get_token(self.request))
            html = html.replace(_placeholder_input(), self._token_input)
        if KEY_FIELD in html:
            html = html.replace(KEY_FIELD, f'name="idempotency_key" value="{uuid.uuid4()}"')
        return mark_safe(html)  # noqa: S308 - rendered by our templates, which escape

    def store(self) -> None:
        if self.keep and self.drawn:
            self.found = {**self.found, **self.drawn}
            self.drawn = {}
            cache_places.keep(self.place, self.found, KEPT_SECONDS)


def page_entry(
    request: HttpRequest,
    context: dict[str, Any],
    cagnotte: Callable[[], Any],
    *,
    keep: bool = True,
    entry: PageEntry | None = None,
    view: str = "page",
) -> PageEntry:
    """The partie page's entry (``entry``, already read, or read here), its scoreboard,
    marque table and cagnotte in ``entry.parts`` by name, for ``{{ parts.marque_table }}``:
    from the shared cache, or rendered with ``context`` and ``cagnotte()`` (built only then:
    its payment ticks are a query). Kept by ``store`` when ``keep`` (a form the request
    refused is shown as typed, so not kept). ``view`` names the page shown (the share link's
    big screen shows other rows than its page: each keeps its own)."""
    if entry is None:
        marque = context["marque"]
        readonly = bool(context.get("readonly"))
        rows, hidden = context["rows"], context["hidden_rows"]
        state = state_of(marque, readonly=readonly, rows=rows, hidden_rows=hidden)
        # The whole marque (?tout) and the latest donnes apart, as the owner's page keeps them.
        place = _page_place(request, marque, state, ("parts", view, readonly, hidden == 0))
        entry = PageEntry(request, place, keep=keep)
    drawn: dict[str, Any] = {}

    def draw(template: str) -> str:
        if not drawn:
            drawn.update(context, cagnotte=cagnotte(), csrf_token=PLACEHOLDER)
        return render_to_string(template, drawn, request=request)

    entry.parts = {
        name: entry.part(name, lambda template=template: draw(template))
        for name, template in PAGE_PARTS.items()
    }
    return entry


def page_parts(
    request: HttpRequest,
    context: dict[str, Any],
    cagnotte: Callable[[], Any],
    *,
    keep: bool = True,
    view: str = "page",
) -> dict[str, SafeString]:
    """``page_entry``'s parts, kept at once (a page without kept regions of its own)."""
    entry = page_entry(request, context, cagnotte, keep=keep, view=view)
    entry.store()
    return entry.parts


def chart(request: HttpRequest, marque_of: Callable[[], Marque], marque: Marque) -> SafeString:
    """The score chart of every donne: kept as the page parts are. ``marque`` is the partie
    with its players (any states: the key needs none); ``marque_of()`` loads every state, only
    when the chart must be drawn."""
    state = state_of(marque, readonly=False, rows=[], hidden_rows=0)
    place = key("chart", marque, state, ())
    html = cache_places.read(place)
    if html is None:
        html = render_to_string(CHART, {"marque": marque_of()}, request=request)
        cache_places.keep(place, html, KEPT_SECONDS)
    return mark_safe(html)  # noqa: S308 - rendered by games/_chart.html, which escapes

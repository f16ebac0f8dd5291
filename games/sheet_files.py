"""The printed marque as a file: its key in the shared cache, what it is built from, and its
PDF rendered outside any request (games/tasks.py renders it in the background; the views only
ever serve what is kept, games/views/sheet_cache.py).

A file is kept in one place per partie, kind and language (games/cache_places.py), stamped
with what it was derived from: the partie's revision (which moves with what the replay reads),
its updated_at (every service write saves it: the note, the money ticked, the name), the
engine's version and the release's drawing code (games/code_fingerprint.py). A changed partie
has a new stamp, so nothing stale is ever served, and its new file takes the place of the
last one's: the cache holds a file per partie, not per donne."""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from games.cache_places import Place
from games.code_fingerprint import code_fingerprint
from games.display.sheet import Sheet, build_sheet
from games.models import Partie
from games.pdf import html_to_pdf
from games.scoring import ENGINE_VERSION
from games.selectors import bought_back, dealer_names, partie_state

KEPT_SECONDS = 7 * 24 * 3600
# A render asked and not started yet: the one queued will render the latest state, so a second
# request or a second change meanwhile adds nothing to the queue. It lapses on its own, so a
# worker that died with it set delays a new render by this long at most.
PENDING_SECONDS = 90
# A partie whose PDF someone asked for is kept rendered after each change for this long
# since an ask found no file kept: the others are rendered when first asked
# (docs/decisions.md "PDFs off the request path": one render a donne for every table of an
# evening is a core's work).
WANTED_SECONDS = 24 * 3600


def state(partie: Partie) -> str:
    stamp = int(partie.updated_at.timestamp() * 1_000_000)
    return f"{partie.revision}:{stamp}:{ENGINE_VERSION}"


def key(kind: str, partie: Partie, language: str) -> Place:
    # Drawn by this release: a deploy's new sheet is rendered, never last week's served.
    return Place(f"sheet:{kind}:{partie.pk}:{language}", f"{state(partie)}:{code_fingerprint()}")


def pending_key(partie_pk: int, language: str) -> str:
    return f"sheet-pending:{partie_pk}:{language}"


def mark_pending(partie_pk: int, language: str) -> bool:
    """True when no render of this partie and language was waiting (this one is now)."""
    return cache.add(pending_key(partie_pk, language), 1, PENDING_SECONDS)


def wanted_key(partie_pk: int, language: str) -> str:
    return f"sheet-wanted:{partie_pk}:{language}"


def mark_wanted(partie_pk: int, language: str) -> None:
    cache.set(wanted_key(partie_pk, language), 1, WANTED_SECONDS)


def is_wanted(partie_pk: int, language: str) -> bool:
    return cache.has_key(wanted_key(partie_pk, language))


def build(partie: Partie) -> Sheet:
    stored = partie_state(partie)
    dealers = dealer_names(partie, stored.joueurs)
    # The transfers (once a donne is applied) count the rachats bought back and paid.
    summary = stored.summary
    rachats = bought_back(stored) if summary.applied or summary.over else None
    return build_sheet(stored, dealers, rachats)


def sheet_html(partie: Partie, *, pdf: bool) -> str:
    context = {"sheet": build(partie), "partie": partie, "pdf": pdf}
    return render_to_string("games/sheet.html", context)


def render_pdf(partie: Partie, language: str) -> bytes:
    with translation.override(language):
        return html_to_pdf(sheet_html(partie, pdf=True))

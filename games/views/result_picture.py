"""The result of a partie as a PNG to share (games/display/result_picture.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify

from games.display.marque import build_marque
from games.display.result_picture import result_png
from games.selectors import partie_state
from games.views.partie_page import get_partie_for_user
from games.views.sheet_cache import cached_render


def picture_filename(partie) -> str:
    return f"resultat-{slugify(partie.name) or partie.pk}.png"


@login_required
def partie_result_png(request: HttpRequest, pk: int) -> HttpResponse:
    """Drawn once per state of the partie (and language), like the sheet's files."""
    partie = get_partie_for_user(request, pk)

    def png() -> bytes:
        stored = partie_state(partie)  # every donne: the chart's data
        return result_png(build_marque(stored), stored.states)

    response = cached_render(request, partie, "png", png, content_type="image/png")
    if response.status_code == 200:
        response["Content-Disposition"] = f'inline; filename="{picture_filename(partie)}"'
    return response

"""The printable marque sheet: on screen, as a PDF, blank for paper tables, and its chart."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import sheet_files
from games.display.marque import build_marque
from games.display.sheet import Sheet, blank_sheet
from games.errors import translated
from games.models import Partie
from games.pdf import html_to_pdf
from games.scoring import PRESETS, RamiError, check_count
from games.selectors import partie_state
from games.views import fragments
from games.views.costly import costly
from games.views.partie_page import get_partie_for_user
from games.views.sheet_cache import cached_render, kept_pdf


def _sheet_response(request: HttpRequest, sheet: Sheet, partie: Partie | None, filename: str):
    context = {"sheet": sheet, "partie": partie}
    if not filename:
        return render(request, "games/sheet.html", context)
    html = render_to_string("games/sheet.html", {**context, "pdf": True}, request=request)
    response = HttpResponse(html_to_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def filename(partie: Partie, extension: str) -> str:
    return f"marque-{slugify(partie.name) or partie.pk}.{extension}"


@login_required
def partie_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)

    def page() -> bytes:
        context = {"sheet": sheet_files.build(partie), "partie": partie}
        return render_to_string("games/sheet.html", context, request=request).encode()

    return cached_render(request, partie, "html", page, content_type="text/html; charset=utf-8")


@login_required
def partie_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """Only ever a kept file: the task runner renders it (games/views/sheet_cache.py)."""
    partie = get_partie_for_user(request, pk)
    response = kept_pdf(request, partie)
    if response.status_code == 200:
        response["Content-Disposition"] = f'inline; filename="{filename(partie, "pdf")}"'
    return response


@login_required
@costly
def blank_sheet_pdf(request: HttpRequest) -> HttpResponse:
    preset_key = request.GET.get("preset", "classique")
    if preset_key not in PRESETS:
        return HttpResponseBadRequest(_("Variante inconnue."))
    preset = PRESETS[preset_key]
    try:
        players = int(request.GET.get("joueurs", preset.max_players))
        check_count(preset, players)
    except RamiError as err:  # a ValueError too: first
        return HttpResponseBadRequest(translated(err))
    except ValueError:
        return HttpResponseBadRequest(_("Indiquez le nombre de joueurs."))
    sheet = blank_sheet(preset_key, players)
    return _sheet_response(request, sheet, None, f"marque-vierge-{preset_key}-{players}.pdf")


@login_required
def partie_chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The score chart alone, for the fold of the partie page (htmx, on opening)."""
    partie = get_partie_for_user(request, pk)
    # Kept by the partie's state (games/views/fragments.py): drawn from every state only when
    # this state has not been drawn yet; its key needs only the players.
    players = build_marque(partie_state(partie, last=0))
    html = fragments.chart(request, lambda: build_marque(partie_state(partie)), players)
    return HttpResponse(html)

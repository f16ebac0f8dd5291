"""The marque sheet (issue #5): print, PDF, blank sheet, CSV and JSON export, import."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import exports, services
from games.errors import PartieError
from games.forms import ImportForm
from games.models import Partie
from games.pdf import html_to_pdf
from games.scoring import PRESETS
from games.selectors import partie_load, parties_with_donnes
from games.sheet import Sheet, blank_sheet, build_sheet
from games.views.common import (
    get_partie_for_user,
    load_marque,
)


def _sheet_response(request: HttpRequest, sheet: Sheet, partie: Partie | None, filename: str):
    context = {"sheet": sheet, "partie": partie}
    if not filename:
        return render(request, "games/sheet.html", context)
    html = render_to_string("games/sheet.html", {**context, "pdf": True}, request=request)
    response = HttpResponse(html_to_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _filename(partie: Partie, extension: str) -> str:
    return f"marque-{slugify(partie.name) or partie.pk}.{extension}"


@login_required
def partie_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    data = partie_load(partie)
    return _sheet_response(request, build_sheet(data, data.replay()), partie, "")


@login_required
def partie_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    data = partie_load(partie)
    sheet = build_sheet(data, data.replay())
    return _sheet_response(request, sheet, partie, _filename(partie, "pdf"))


@login_required
def blank_sheet_pdf(request: HttpRequest) -> HttpResponse:
    preset_key = request.GET.get("preset", "classique")
    if preset_key not in PRESETS:
        return HttpResponseBadRequest(_("Variante inconnue."))
    preset = PRESETS[preset_key]
    try:
        players = int(request.GET.get("joueurs", preset.max_players))
    except ValueError:
        players = 0
    if not preset.min_players <= players <= preset.max_players:
        return HttpResponseBadRequest(
            _("Ce jeu se joue de %(min)s à %(max)s joueurs.")
            % {"min": preset.min_players, "max": preset.max_players}
        )
    sheet = blank_sheet(preset_key, players)
    return _sheet_response(request, sheet, None, f"marque-vierge-{preset_key}-{players}.pdf")


@login_required
def partie_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    data = partie_load(partie)
    # The BOM tells Excel the file is UTF-8 (accents in names).
    body = "\ufeff" + exports.export_csv(data, data.replay())
    response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(partie, "csv")}"'
    return response


@login_required
def partie_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    data = partie_load(partie)
    body = exports.export_json(data, data.replay())
    response = HttpResponse(body.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(partie, "json")}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def partie_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            parties, skipped = services.parties_import(
                owner=request.user, records=form.cleaned_data["records"]
            )
        except PartieError as err:
            form.add_error("fichier", err.message)
        else:
            for title in skipped:
                messages.info(
                    request,
                    _("« %(name)s » est déjà dans vos parties : ignorée.") % {"name": title},
                )
            if len(parties) == 1 and not skipped:
                messages.success(request, _("Partie importée."))
                return redirect("partie_detail", pk=parties[0].pk)
            messages.success(
                request, _("%(n)s parties restaurées depuis la sauvegarde.") % {"n": len(parties)}
            )
            return redirect("home")
    status = 422 if form.errors else 200
    return render(request, "games/partie_import.html", {"form": form}, status=status)


@login_required
def backup_download(request: HttpRequest) -> HttpResponse:
    """Every partie of the account in one JSON file, which the import page restores."""
    parties = []
    for partie in parties_with_donnes(request.user):
        data = partie_load(partie)
        parties.append((data, data.replay()))
    now = timezone.localtime()
    body = json.dumps(exports.backup_dict(parties, now.isoformat()), ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    filename = f"ramiscore-sauvegarde-{now:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def partie_chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The score chart alone, for the fold of the partie page (htmx, on opening)."""
    partie = get_partie_for_user(request, pk)
    return render(request, "games/_chart_fragment.html", {"marque": load_marque(partie)})

"""A partie as files: CSV and JSON export, import of a file, the backup of an account."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games import files, services
from games.errors import translated
from games.forms import ImportForm
from games.scoring import RamiError
from games.selectors import dealer_names, partie_export, partie_state, parties_loaded, parties_of
from games.views.costly import costly, costly_post
from games.views.partie_page import (
    get_partie_for_user,
)
from games.views.sheet import filename


@login_required
@costly
def partie_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    # The BOM tells Excel the file is UTF-8 (accents in names).
    stored = partie_state(partie)
    dealers = dealer_names(partie, stored.joueurs)
    body = "\ufeff" + files.export_csv(stored, dealers)
    response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(partie, "csv")}"'
    return response


@login_required
@costly
def partie_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    body = files.export_json(partie_export(partie))
    response = HttpResponse(body.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(partie, "json")}"'
    return response


@login_required
@costly_post
@require_http_methods(["GET", "POST"])
def partie_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            parties, skipped = services.parties_import(
                owner=request.user, records=form.cleaned_data["records"]
            )
        except RamiError as err:
            form.add_error("fichier", translated(err))
        else:
            for title in skipped:
                messages.info(
                    request,
                    _("« %(name)s » est déjà dans vos parties : ignorée.") % {"name": title},
                )
            if len(parties) == 1 and not skipped:
                messages.success(request, _("Partie importée."))
                return redirect("partie_detail", pk=parties[0].pk)
            restored = ngettext(
                "%(n)s partie restaurée depuis la sauvegarde.",
                "%(n)s parties restaurées depuis la sauvegarde.",
                len(parties),
            )
            messages.success(request, restored % {"n": len(parties)})
            return redirect("home")
    status = 422 if form.errors else 200
    return render(request, "games/partie_import.html", {"form": form}, status=status)


@login_required
@costly
def backup_download(request: HttpRequest) -> HttpResponse:
    """Every partie of the account in one JSON file, which the import page restores."""
    mine = list(parties_of(request.user))
    parties = parties_loaded(mine)
    now = timezone.localtime()
    body = json.dumps(files.backup_dict(parties, now.isoformat()), ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    filename = f"ramiscore-sauvegarde-{now:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

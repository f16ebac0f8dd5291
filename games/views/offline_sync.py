"""The decisions the phone's offline queue sends (static/js/queue.js), answered in JSON as
its donnes are (games/views/donnes.py ``_queued_donne``): ``ok``, or the server's words."""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import translated
from games.scoring import RamiError
from games.services import offline_sync
from games.views.partie_page import get_partie_for_user


def _refused(err: RamiError) -> JsonResponse:
    return JsonResponse({"ok": False, "code": err.code, "message": translated(err)}, status=409)


@login_required
@require_POST
def rachat_queued(request: HttpRequest, pk: int, joueur_pk: int) -> JsonResponse:
    partie = get_partie_for_user(request, pk)
    joueur = get_object_or_404(partie.joueurs, pk=joueur_pk)
    decision = request.POST.get("decision")
    number = request.POST.get("donne", "")
    if decision not in ("racheter", "abandonner") or not number.isdigit():
        message = _("Choisissez « Se racheter » ou « Abandonner ».")
        return JsonResponse({"ok": False, "code": "formulaire", "message": message}, status=422)
    try:
        rachat = offline_sync.rachat_decide_queued(
            partie=partie, joueur=joueur, accepted=decision == "racheter", donne_number=int(number)
        )
    except RamiError as err:
        return _refused(err)
    partie.refresh_from_db()
    return JsonResponse({"ok": True, "number": rachat.donne.number, "etat": str(partie.revision)})


@login_required
@require_POST
def close_queued(request: HttpRequest, pk: int) -> JsonResponse:
    partie = get_partie_for_user(request, pk)
    try:
        partie = offline_sync.partie_close_queued(partie=partie)
    except RamiError as err:
        return _refused(err)
    return JsonResponse({"ok": True, "etat": str(partie.revision)})


@login_required
@require_POST
def rematch_queued(request: HttpRequest, pk: int) -> JsonResponse:
    """The next partie, started on the phone offline with the same players."""
    source = get_partie_for_user(request, pk)
    try:
        client_id = uuid.UUID(request.POST.get("client_id", ""))
    except ValueError:
        message = _("Cette partie n'a pas pu être créée : recommencez-la.")
        return JsonResponse({"ok": False, "code": "formulaire", "message": message}, status=422)
    try:
        partie, joueurs = offline_sync.partie_rematch_queued(source=source, client_id=client_id)
    except RamiError as err:
        return _refused(err)
    answer = {
        "ok": True,
        "partie": partie.pk,
        "url": reverse("partie_detail", args=[partie.pk]),
        "joueurs": {str(old): new for old, new in joueurs.items()},
    }
    return JsonResponse(answer)

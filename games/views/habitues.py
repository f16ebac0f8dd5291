"""The account's habitués: renamed, or two spellings of one person merged; every partie
follows (games/services/habitues.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import services
from games.errors import translated
from games.models import Habitue
from games.scoring import RamiError
from games.services.habitues import habitues_of


@login_required
@never_cache
def habitues(request: HttpRequest) -> HttpResponse:
    return render(request, "games/habitues.html", {"habitues": habitues_of(request.user)})


@login_required
@require_POST
def habitue_rename(request: HttpRequest, pk: int) -> HttpResponse:
    habitue = get_object_or_404(Habitue, pk=pk, owner=request.user)
    old = habitue.name
    try:
        habitue = services.habitue_rename(habitue=habitue, name=request.POST.get("name", ""))
    except RamiError as err:
        messages.error(
            request,
            _("%(name)s n'est pas renommé : %(cause)s") % {"name": old, "cause": translated(err)},
        )
    else:
        messages.success(
            request,
            _("%(old)s s'appelle maintenant %(new)s, dans toutes ses parties.")
            % {"old": old, "new": habitue.name},
        )
    return redirect("habitues")


@login_required
@require_POST
def habitue_merge(request: HttpRequest, pk: int) -> HttpResponse:
    habitue = get_object_or_404(Habitue, pk=pk, owner=request.user)
    into_pk = request.POST.get("into", "")
    into = (
        Habitue.objects.filter(owner=request.user, pk=into_pk).first()
        if into_pk.isascii() and into_pk.isdigit()  # "²" is a digit, not an int
        else None
    )
    if into is None:
        messages.error(
            request, _("Choisissez l'habitué avec qui fusionner %(name)s.") % {"name": habitue.name}
        )
        return redirect("habitues")
    old = habitue.name
    try:
        into = services.habitue_merge(habitue=habitue, into=into)
    except RamiError as err:
        messages.error(request, translated(err))
    else:
        messages.success(
            request,
            _("%(old)s et %(new)s ne font plus qu'un : %(new)s, dans toutes leurs parties.")
            % {"old": old, "new": into.name},
        )
    return redirect("habitues")

"""Money: payment ticks, the money options, the Comptes page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.display.cagnotte import build_cagnotte
from games.display.evenings import build_evenings
from games.display.numbers import format_money
from games.errors import translated
from games.forms import MoneyForm
from games.models import Partie, Rachat
from games.scoring import RamiError
from games.selectors import bought_back, parties_money, parties_of
from games.views.partie_page import (
    get_partie_for_user,
    load_marque,
    render_partie,
)


def _render_cagnotte(request: HttpRequest, partie: Partie) -> HttpResponse:
    """htmx: the cagnotte panel alone; without JavaScript: back to the page, at the panel."""
    if not request.htmx:
        return redirect(reverse("partie_detail", args=[partie.pk]) + "#cagnotte-panel")
    marque = load_marque(partie)
    context = {
        "partie": partie,
        "marque": marque,
        "cagnotte": build_cagnotte(marque.stored, bought_back(marque.stored)),
        "money_form": MoneyForm(instance=partie),
        "swapped": True,
    }
    return render(request, "games/_cagnotte.html", context)


@login_required
@require_POST
def mise_paid(request: HttpRequest, pk: int, joueur_pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    joueur = get_object_or_404(partie.joueurs, pk=joueur_pk)
    try:
        services.mise_mark_paid(joueur=joueur, paid=request.POST.get("paid") == "1")
    except RamiError as err:
        messages.error(request, translated(err))
    return _render_cagnotte(request, partie)


@login_required
@require_POST
def rachat_paid(request: HttpRequest, pk: int, rachat_pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    rachat = get_object_or_404(Rachat, pk=rachat_pk, donne__partie=partie)
    try:
        services.rachat_mark_paid(rachat=rachat, paid=request.POST.get("paid") == "1")
    except RamiError as err:
        messages.error(request, translated(err))
    return _render_cagnotte(request, partie)


@login_required
@require_POST
def partie_money(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    form = MoneyForm(request.POST, instance=Partie.objects.get(pk=partie.pk))
    if form.is_valid():
        try:
            repriced = services.partie_update_money(partie=partie, **form.cleaned_data)
        except RamiError as err:
            if err.code == "etat_perime":
                # Another phone changed the partie: its current money, the form on it.
                partie.refresh_from_db()
                form = MoneyForm.refused(partie, translated(err))
                return render_partie(request, load_marque(partie), status=409, money_form=form)
            form.add_error(None, translated(err))
        else:
            messages.success(request, _("Ce que chacun doit a été recalculé."))
            for item in repriced:
                what = (
                    _("sa mise")
                    if item.donne is None
                    else _("son rachat de la donne %(n)s") % {"n": item.donne}
                )
                messages.warning(
                    request,
                    _("%(name)s avait payé %(old)s pour %(what)s ; c'est maintenant %(new)s.")
                    % {
                        "name": item.name,
                        "what": what,
                        "old": format_money(item.old, partie.currency),
                        "new": format_money(item.new, partie.currency),
                    },
                )
            return redirect(reverse("partie_detail", args=[partie.pk]) + "#cagnotte-panel")
    return render_partie(request, load_marque(partie), status=422, money_form=form)


@login_required
def evenings(request: HttpRequest) -> HttpResponse:
    money = build_evenings(parties_money(parties_of(request.user)))
    return render(request, "games/evenings_money.html", {"money": money})

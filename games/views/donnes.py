"""Recording a donne, its live count, editing, deleting, and the rachat decisions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import services
from games.display.marque import Marque, build_marque
from games.errors import PartieError
from games.forms import DonneForm
from games.models import Donne
from games.scoring import RamiError, explain_hand, get_preset
from games.selectors import PartieData, partie_load
from games.views.partie_page import (
    donne_form,
    fresh,
    get_partie_for_user,
    load_marque,
    render_partie,
    say_change,
    stale,
)


@login_required
@require_POST
def donne_create(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    marque = load_marque(partie)
    form = donne_form(marque, request.POST)
    if form.is_valid():
        try:
            donne = services.donne_create(
                partie=partie,
                winner=form.cleaned_data["winner_joueur"],
                win=form.cleaned_data["win"],
                hands=form.cleaned_data["hands"],
                cle=form.cleaned_data["cle"],
                etat=form.cleaned_data["etat"] or None,
            )
        except PartieError as err:
            if err.code != "etat_perime":
                _apply_error(form, err, len(marque.data.donnes) + 1)
            else:
                marque = load_marque(fresh(partie))
                if not marque.can_record:
                    return stale(request, partie, err)
                form = _retyped(request, marque, err)
                return render_partie(request, marque, form, status=409 if not request.htmx else 200)
        else:
            messages.success(request, _("Donne %(n)s notée.") % {"n": donne.number})
            if not request.htmx:
                return redirect("partie_detail", pk=partie.pk)
            replayed = getattr(donne, "replayed", None)  # absent for a double tap
            after = build_marque(*replayed) if replayed else load_marque(fresh(partie))
            return render_partie(request, after)
    return render_partie(request, marque, form, status=422 if not request.htmx else 200)


@login_required
@require_POST
def donne_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """Each loser's count as it is typed, with the engine's explanation."""
    partie = get_partie_for_user(request, pk)
    marque = load_marque(partie)
    form = donne_form(marque, request.POST)
    form.is_valid()
    win = form.cleaned_data.get("win") or get_preset(partie.preset).default_win
    winner = form.cleaned_data.get("winner_joueur")
    lines = []
    for joueur in form.joueurs:
        text = ""
        if joueur != winner and "winner" in form.cleaned_data:
            hand = form.cleaned_data.get("hands", {}).get(joueur)
            if hand is not None:
                try:
                    text = explain_hand(partie.preset, hand, win, translate=_)
                except RamiError as err:
                    text = str(PartieError.from_rami(err))
        lines.append((joueur, text))
    return render(request, "games/partie_detail.html#previews", {"lines": lines})


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def donne_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    marque = load_marque(partie)
    donne = _donne_at(marque, number)
    if donne is None:
        raise Http404
    status = 200
    if request.method == "POST":
        form = donne_form(marque, request.POST, donne=donne)
        if form.is_valid():
            try:
                change = services.donne_update(
                    donne=donne,
                    winner=form.cleaned_data["winner_joueur"],
                    win=form.cleaned_data["win"],
                    hands=form.cleaned_data["hands"],
                    etat=form.cleaned_data["etat"] or None,
                )
            except PartieError as err:
                if err.code != "etat_perime":
                    _apply_error(form, err, number)
                else:
                    marque = load_marque(fresh(partie))
                    donne = _donne_at(marque, number)
                    if donne is None:
                        return stale(request, partie, err)
                    form = _retyped(request, marque, err, donne=donne)
                    status = 409
            else:
                messages.success(request, _("Donne %(n)s modifiée.") % {"n": number})
                say_change(request, change, partie.currency)
                return redirect("partie_detail", pk=partie.pk)
    else:
        form = donne_form(marque, initial_data(marque.data, donne), donne=donne)
    return render(
        request,
        "games/donne_edit.html",
        {
            "partie": partie,
            "donne": donne,
            "form": form,
            "marque": marque,
            "preset": get_preset(partie.preset),
            "etat": marque.data.etat,
        },
        status=status,
    )


def _donne_at(marque: Marque, number: int) -> Donne | None:
    return next((d for d in marque.data.donnes if d.number == number), None)


def _retyped(
    request: HttpRequest, marque: Marque, err: PartieError, *, donne: Donne | None = None
) -> DonneForm:
    """A stale form (another phone wrote meanwhile): what was typed, moved onto the fresh
    state of the partie, with the refusal on top, for a second look."""
    data: QueryDict = request.POST.copy()
    data["etat"] = marque.data.etat
    form = donne_form(marque, data, donne=donne)
    form.is_valid()
    form.add_error(None, err.message)
    return form


def initial_data(partie_data: PartieData, donne: Donne) -> dict[str, str]:
    """A stored donne as form data, so the edit form starts from what was recorded."""
    data = {
        "winner": str(donne.winner_id) if donne.winner_id else "talon_epuise",
        "win": donne.win,
        "etat": partie_data.etat,
    }
    for main in partie_data.mains_of(donne):
        data[f"jokers_{main.joueur_id}"] = str(main.jokers)
        if main.points is not None:
            data[f"points_{main.joueur_id}"] = str(main.points)
        else:
            data[f"cartes_{main.joueur_id}"] = main.cards
    return data


def _apply_error(form: DonneForm, err: PartieError, number: int) -> None:
    """Put the engine's refusal next to the player's field. About this donne, the message
    needs no "Donne 7 :" prefix; about a later one (an edit can break it), it does."""
    field = form.field_for(err.player)
    text = err.detail if err.donne == number else err.message
    if err.code == "gagnant_hors_course":
        field = "winner"
    form.add_error(field if field in form.fields else None, text)


@login_required
@require_http_methods(["GET", "POST"])
def donne_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    donne = get_object_or_404(Donne, partie=partie, number=number)
    if request.method == "POST":
        try:
            change = services.donne_delete(donne=donne, etat=request.POST.get("etat") or None)
        except PartieError as err:
            if err.code == "etat_perime":
                return stale(request, partie, err)
            messages.error(request, err.message)
        else:
            messages.success(request, _("Donne %(n)s supprimée.") % {"n": number})
            say_change(request, change, partie.currency)
        return redirect("partie_detail", pk=partie.pk)
    return render(
        request,
        "games/donne_delete.html",
        {"partie": partie, "donne": donne, "etat": partie_load(partie).etat},
    )


@login_required
@require_POST
def rachat_decide(request: HttpRequest, pk: int, joueur_pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    joueur = get_object_or_404(partie.joueurs, pk=joueur_pk)
    decision = request.POST.get("decision")
    if decision not in ("racheter", "abandonner"):
        messages.error(request, _("Choisissez « Se racheter » ou « Abandonner »."))
    else:
        try:
            services.rachat_decide(partie=partie, joueur=joueur, accepted=decision == "racheter")
        except PartieError as err:
            messages.error(request, err.message)
    if request.htmx:
        return render_partie(request, load_marque(fresh(partie)))
    return redirect("partie_detail", pk=partie.pk)

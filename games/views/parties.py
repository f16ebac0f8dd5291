"""The home page, sign-up, and a partie's life: create, show, end by hand, reopen."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import replays, services
from games.display.marque import build_marque
from games.errors import translated
from games.forms import PartieForm
from games.scoring import RamiError
from games.selectors import parties_of
from games.views.partie_page import (
    get_partie_for_user,
    load_marque,
    render_partie,
)

PARTIES_PER_PAGE = 20


@never_cache
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    # A page of parties at a time, each from its stored summary: the cost follows the parties
    # listed, not their donnes.
    page = Paginator(parties_of(request.user), PARTIES_PER_PAGE).get_page(request.GET.get("page"))
    listed = [build_marque(replays.listed(partie)) for partie in page]
    en_cours = [m for m in listed if not m.over]
    finies = [m for m in listed if m.over]
    lists = [(_("En cours"), en_cours), (_("Terminées"), finies)]
    return render(request, "games/home.html", {"lists": lists, "page": page})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("partie_new")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def partie_new(request: HttpRequest) -> HttpResponse:
    form = PartieForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        options = {k: v for k, v in form.cleaned_data.items() if k not in ("name", "preset")}
        try:
            partie = services.partie_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                preset=form.cleaned_data["preset"],
                joueurs=form.joueurs,
                **options,
            )
        except RamiError as err:
            form.add_error(None, translated(err))
        else:
            return redirect("partie_detail", pk=partie.pk)
    joueurs = form.joueurs if form.is_bound else []
    rows = joueurs + [""] * (7 - len(joueurs))
    return render(
        request,
        "games/partie_new.html",
        {"form": form, "rows": rows, "presets": PartieForm.preset_choices()},
    )


@login_required
@never_cache
def partie_detail(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    return render_partie(request, load_marque(partie, request))


@login_required
@require_POST
def partie_close(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    try:
        services.partie_close(partie=partie)
    except RamiError as err:
        messages.error(request, translated(err))
    return redirect("partie_detail", pk=partie.pk)


@login_required
@require_POST
def partie_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    partie = get_partie_for_user(request, pk)
    try:
        services.partie_reopen(partie=partie)
    except RamiError as err:
        messages.error(request, translated(err))
    else:
        messages.info(request, _("La partie est rouverte."))
    return redirect("partie_detail", pk=partie.pk)

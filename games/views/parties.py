"""The home page and a partie's life: create, show, end by hand, reopen."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
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
from games.forms import NoteForm, PartieForm
from games.forms.partie import MONEY_FIELDS
from games.models import Partie
from games.scoring import RamiError
from games.scoring.config import RULE_OPTIONS
from games.scoring.dealer import rematch_seat
from games.selectors import parties_of
from games.services.habitues import habitues_of
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
    # "Rejouer avec les mêmes joueurs" on the latest partie: the evening's next one in a tap.
    latest = listed[0] if listed and page.number == 1 else None
    context = {"lists": lists, "page": page, "latest": latest}
    return render(request, "games/home.html", context)


def _rematch(request: HttpRequest) -> tuple[dict[str, object], list[str]]:
    """ "Rejouer avec les mêmes joueurs" (?rejouer=<pk>): the form filled in from that partie,
    same preset, options and players, the first dealer one seat on (docs/rules.md "Le
    donneur"). Another account's partie, or none, gives an empty form."""
    pk = request.GET.get("rejouer", "")
    # isascii: "²" is a digit to str.isdigit, not to int().
    partie = (
        Partie.objects.filter(owner=request.user, pk=int(pk)).first()
        if pk.isascii() and pk.isdigit()
        else None
    )
    if partie is None:
        return {}, []
    names = [j.name for j in partie.joueurs.all()]
    fields = ("preset", *MONEY_FIELDS, "settlement", "currency", *RULE_OPTIONS)
    initial: dict[str, object] = {name: getattr(partie, name) for name in fields}
    for name in ("seuil_inclusive", "target_inclusive"):
        initial[name] = {True: "true", False: "false"}.get(initial[name], "")
    initial["first_dealer"] = rematch_seat(partie.first_dealer, len(names))
    return initial, names


@login_required
@require_http_methods(["GET", "POST"])
def partie_new(request: HttpRequest) -> HttpResponse:
    initial, again = _rematch(request) if request.method == "GET" else ({}, [])
    form = PartieForm(request.POST or None, initial=initial)
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
    joueurs = form.joueurs if form.is_bound else again
    rows = joueurs + [""] * (7 - len(joueurs))
    context = {
        "form": form,
        "rows": rows,
        "presets": PartieForm.preset_choices(),
        "habitues": habitues_of(request.user),
        "rematch": bool(again),
    }
    return render(request, "games/partie_new.html", context)


@login_required
@require_POST
def partie_note(request: HttpRequest, pk: int) -> HttpResponse:
    """The partie's note, written or changed from its page. Refused (too long, a control
    character, another phone's note written meanwhile): the page again, with the note as it
    now is, what was typed still in the box, and why."""
    partie = get_partie_for_user(request, pk)
    form = NoteForm(request.POST)
    status = 422
    if form.is_valid():
        try:
            services.partie_note_set(
                partie=partie, note=form.cleaned_data["note"], etat=form.cleaned_data["etat_note"]
            )
        except RamiError as err:
            form.add_error("note", translated(err))
            status = 409 if err.code == "etat_perime" else 422
        else:
            messages.success(request, _("Note enregistrée."))
            return redirect("partie_detail", pk=partie.pk)
    partie.refresh_from_db()  # the note as it now is, and its token
    return render_partie(request, load_marque(partie), status=status, note_form=form)


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

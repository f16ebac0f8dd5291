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

from games import services
from games.display.marque import Marque, build_marque
from games.errors import translated
from games.forms import NoteForm, PartieForm
from games.forms.partie import MONEY_FIELDS
from games.login_limits import client_ip
from games.models import Partie
from games.scoring import MAX_SEATS, RamiError
from games.scoring.config import RULE_OPTIONS
from games.scoring.dealer import rematch_seat
from games.scoring.players import person_key_tables
from games.selectors import partie_listed, parties_of
from games.services.habitues import habitues_of
from games.throttle import give_back
from games.views.guests import GUEST, guest_login, guest_refused
from games.views.partie_page import (
    get_partie_for_user,
    load_marque,
    render_partie,
    show_partie,
)

PARTIES_PER_PAGE = 20
# The home page shows the latest parties only, the rest one tap away (partie_list): its cost is
# the same for an account of 2 parties and one of 200 (bench "home page").
HOME_PARTIES = 5


def _cards(parties) -> list[Marque]:
    """Each partie from its stored summary: the cost follows the parties listed, not their
    donnes."""
    return [build_marque(partie_listed(partie)) for partie in parties]


def _split(listed: list[Marque]) -> list[tuple[str, list[Marque]]]:
    return [
        (_("En cours"), [m for m in listed if not m.over]),
        (_("Terminées"), [m for m in listed if m.over]),
    ]


@never_cache
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    # One more than shown: whether "Toutes mes parties" has more to show, without a count.
    recent = list(parties_of(request.user)[: HOME_PARTIES + 1])
    listed = _cards(recent[:HOME_PARTIES])
    # "Continuer" the latest partie in progress comes first; "Rejouer avec les mêmes joueurs"
    # is for a finished one (the latest), never for the partie still being played.
    current = next((m for m in listed if not m.over), None)
    again = next((m for m in listed if m.over), None)
    context = {
        "current": current,
        "again": again,
        "lists": _split([m for m in listed if m is not current]),
        "more": len(recent) > HOME_PARTIES,
    }
    return render(request, "games/home.html", context)


@login_required
@never_cache
def partie_list(request: HttpRequest) -> HttpResponse:
    """Every partie of the account, a page at a time, newest first."""
    page = Paginator(parties_of(request.user), PARTIES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"lists": _split(_cards(page)), "page": page}
    return render(request, "games/partie_list.html", context)


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


@require_http_methods(["GET", "POST"])
def partie_new(request: HttpRequest) -> HttpResponse:
    """The new-partie form; without an account, its partie is a new guest's
    (games/services/guests.py), made only once the form is valid."""
    new_guest = not request.user.is_authenticated
    initial, again = _rematch(request) if request.method == "GET" and not new_guest else ({}, [])
    form = PartieForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        options = {k: v for k, v in form.cleaned_data.items() if k not in ("name", "preset")}
        fields = {
            "name": form.cleaned_data["name"],
            "preset": form.cleaned_data["preset"],
            "joueurs": form.joueurs,
            **options,
        }
        refused = guest_refused(request) if new_guest else None
        if refused:
            form.add_error(None, refused)
            status = 429
        else:
            try:
                if new_guest:
                    partie = services.guest_partie_create(**fields)
                else:
                    partie = services.partie_create(owner=request.user, **fields)
            except RamiError as err:
                if new_guest:  # nothing was made: the address keeps its token
                    give_back(GUEST.bucket(client_ip(request)))
                form.add_error(None, translated(err))
            else:
                if new_guest:
                    guest_login(request, partie)
                return redirect("partie_detail", pk=partie.pk)
    joueurs = form.joueurs if form.is_bound else again
    rows = joueurs + [""] * (MAX_SEATS - len(joueurs))  # docs/rules.md §8: one row per seat
    habitues = [] if new_guest else habitues_of(request.user)
    context = {
        "form": form,
        "rows": rows,
        "presets": PartieForm.preset_choices(),
        "habitues": habitues,
        # static/js/habitues.js matches a name typed by hand as the engine does.
        "person_key": person_key_tables() if habitues else None,
        "rematch": bool(again),
    }
    return render(request, "games/partie_new.html", context, status=status)


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
                partie=partie, note=form.cleaned_data["note"], token=form.cleaned_data["note_token"]
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
    return show_partie(request, pk)


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

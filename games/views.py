"""Function views: the htmx control flow stays visible (see STYLE.md)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags, quote_etag
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import exports, services
from games.argent import build_cagnotte, build_comptes
from games.errors import PartieError
from games.forms import DonneForm, ImportForm, MoneyForm, PartieForm
from games.marque import Marque, build_marque
from games.models import Donne, Partie, Rachat
from games.money import format_money
from games.pdf import html_to_pdf
from games.scoring import PRESETS, RamiError, explain_hand, get_preset
from games.selectors import partie_load, partie_shared, parties_with_donnes
from games.sheet import Sheet, blank_sheet, build_sheet


def _get_partie_for_user(request: HttpRequest, pk: int) -> Partie:
    """The partie, if it belongs to this account; another account gets a 404 (never a 403,
    which would confirm that the partie exists)."""
    return get_object_or_404(Partie, pk=pk, owner=request.user)


def _fresh(partie: Partie) -> Partie:
    """The partie as a write left it (the services lock and save their own copy)."""
    partie.refresh_from_db()
    return partie


def _marque(partie: Partie) -> Marque:
    data = partie_load(partie)
    return build_marque(data, data.replay())


def _donne_form(marque: Marque, data=None, *, donne: Donne | None = None) -> DonneForm:
    if donne is None:
        joueurs = marque.in_race
    else:
        # Those en course before this donne: the state after the previous one.
        states = marque.result.states
        before = set(states[donne.number - 2].in_race) if donne.number > 1 else None
        joueurs = [j for j in marque.data.joueurs if before is None or j.name in before]
    form = DonneForm(data, preset=marque.partie.preset, joueurs=joueurs)
    form.fields["cle"].initial = uuid.uuid4()
    form.fields["etat"].initial = marque.data.etat
    return form


def _render_partie(
    request: HttpRequest,
    marque: Marque,
    form: DonneForm | None = None,
    *,
    status: int = 200,
    money_form: MoneyForm | None = None,
) -> HttpResponse:
    context = {
        "partie": marque.partie,
        "marque": marque,
        "preset": get_preset(marque.partie.preset),
        "form": form or (_donne_form(marque) if marque.can_record else None),
        "etat": marque.data.etat,
        "cagnotte": build_cagnotte(marque.data, marque.result),
        "money_form": money_form or MoneyForm(instance=marque.partie),
    }
    template = "games/partie_detail.html"
    if request.htmx:
        template += "#partie-body"
    return render(request, template, context, status=status)


def _say_change(request: HttpRequest, change: services.Change, currency: str) -> None:
    if change.totals:
        parts = [f"{name} {before} → {after}" for name, (before, after) in change.totals.items()]
        messages.info(request, _("Totaux modifiés : %s.") % ", ".join(sorted(parts)))
    for number, name in change.removed_decisions:
        messages.warning(
            request,
            _("Le rachat de %(name)s à la donne %(number)s ne s'applique plus : il est retiré.")
            % {"name": name, "number": number},
        )
    for number, name, amount in change.refunds:
        messages.warning(
            request,
            _("Le rachat de %(name)s (donne %(number)s) était marqué payé : rendez-lui %(amount)s.")
            % {"name": name, "number": number, "amount": format_money(amount, currency)},
        )
    if change.pending:
        messages.warning(
            request,
            ngettext(
                "Nouveau franchissement : %(names)s doit décider de son rachat.",
                "Nouveaux franchissements : %(names)s doivent décider de leur rachat.",
                len(change.pending),
            )
            % {"names": ", ".join(change.pending)},
        )


def _apply_error(form: DonneForm, err: PartieError, number: int) -> None:
    """Put the engine's refusal next to the player's field. About this donne, the message
    needs no "Donne 7 :" prefix; about a later one (an edit can break it), it does."""
    field = form.field_for(err.player)
    text = err.detail if err.donne == number else err.message
    if err.code == "gagnant_hors_course":
        field = "winner"
    form.add_error(field if field in form.fields else None, text)


def _stale(request: HttpRequest, partie: Partie, err: PartieError) -> HttpResponse:
    """Another phone changed the partie: say so and show the fresh state."""
    messages.warning(request, err.message)
    if request.htmx:
        return _render_partie(request, _marque(_fresh(partie)))
    return redirect("partie_detail", pk=partie.pk)


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    parties = []
    for partie in parties_with_donnes(request.user):
        parties.append(_marque(partie))
    en_cours = [m for m in parties if not m.over]
    finies = [m for m in parties if m.over]
    lists = [(_("En cours"), en_cours), (_("Terminées"), finies)]
    return render(request, "games/home.html", {"lists": lists})


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
        except PartieError as err:
            form.add_error(None, err.message)
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
def partie_detail(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    return _render_partie(request, _marque(partie))


@login_required
@require_POST
def donne_create(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    marque = _marque(partie)
    form = _donne_form(marque, request.POST)
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
            if err.code == "etat_perime":
                return _stale(request, partie, err)
            _apply_error(form, err, len(marque.data.donnes) + 1)
        else:
            messages.success(request, _("Donne %(n)s notée.") % {"n": donne.number})
            if not request.htmx:
                return redirect("partie_detail", pk=partie.pk)
            return _render_partie(request, _marque(_fresh(partie)))
    return _render_partie(request, marque, form, status=422 if not request.htmx else 200)


@login_required
@require_POST
def donne_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """Each loser's count as it is typed, with the engine's explanation."""
    partie = _get_partie_for_user(request, pk)
    marque = _marque(partie)
    form = _donne_form(marque, request.POST)
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
                    text = explain_hand(partie.preset, hand, win)
                except RamiError as err:
                    text = str(PartieError.from_rami(err))
        lines.append((joueur, text))
    return render(request, "games/partie_detail.html#previews", {"lines": lines})


@login_required
@require_http_methods(["GET", "POST"])
def donne_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    marque = _marque(partie)
    donne = next((d for d in marque.data.donnes if d.number == number), None)
    if donne is None:
        raise Http404
    if request.method == "POST":
        form = _donne_form(marque, request.POST, donne=donne)
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
                if err.code == "etat_perime":
                    return _stale(request, partie, err)
                _apply_error(form, err, number)
            else:
                messages.success(request, _("Donne %(n)s modifiée.") % {"n": number})
                _say_change(request, change, partie.currency)
                return redirect("partie_detail", pk=partie.pk)
    else:
        form = _donne_form(marque, _initial(donne, marque.data.etat), donne=donne)
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
    )


def _initial(donne: Donne, etat: str) -> dict[str, str]:
    """A stored donne as form data, so the edit form starts from what was recorded."""
    data = {
        "winner": str(donne.winner_id) if donne.winner_id else "talon_epuise",
        "win": donne.win,
        "etat": etat,
    }
    for main in donne.mains.all():
        data[f"jokers_{main.joueur_id}"] = str(main.jokers)
        if main.points is not None:
            data[f"points_{main.joueur_id}"] = str(main.points)
        else:
            data[f"cartes_{main.joueur_id}"] = main.cards
    return data


@login_required
@require_http_methods(["GET", "POST"])
def donne_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    donne = get_object_or_404(Donne, partie=partie, number=number)
    if request.method == "POST":
        try:
            change = services.donne_delete(donne=donne, etat=request.POST.get("etat") or None)
        except PartieError as err:
            if err.code == "etat_perime":
                return _stale(request, partie, err)
            messages.error(request, err.message)
        else:
            messages.success(request, _("Donne %(n)s supprimée.") % {"n": number})
            _say_change(request, change, partie.currency)
        return redirect("partie_detail", pk=partie.pk)
    return render(
        request,
        "games/donne_delete.html",
        {"partie": partie, "donne": donne, "etat": partie_load(partie).etat},
    )


@login_required
@require_POST
def rachat_decide(request: HttpRequest, pk: int, joueur_pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
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
        return _render_partie(request, _marque(_fresh(partie)))
    return redirect("partie_detail", pk=partie.pk)


@login_required
@require_POST
def partie_close(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    try:
        services.partie_close(partie=partie)
    except PartieError as err:
        messages.error(request, err.message)
    return redirect("partie_detail", pk=partie.pk)


@login_required
@require_POST
def partie_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    try:
        services.partie_reopen(partie=partie)
    except PartieError as err:
        messages.error(request, err.message)
    else:
        messages.info(request, _("La partie est rouverte."))
    return redirect("partie_detail", pk=partie.pk)


# -- money ------------------------------------------------------------------------------------


def _render_cagnotte(request: HttpRequest, partie: Partie) -> HttpResponse:
    """htmx: the cagnotte panel alone; without JavaScript: back to the page, at the panel."""
    if not request.htmx:
        return redirect(reverse("partie_detail", args=[partie.pk]) + "#cagnotte-panel")
    marque = _marque(partie)
    context = {
        "partie": partie,
        "marque": marque,
        "cagnotte": build_cagnotte(marque.data, marque.result),
        "money_form": MoneyForm(instance=partie),
        "swapped": True,
    }
    return render(request, "games/_cagnotte.html", context)


@login_required
@require_POST
def mise_paid(request: HttpRequest, pk: int, joueur_pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    joueur = get_object_or_404(partie.joueurs, pk=joueur_pk)
    try:
        services.mise_mark_paid(joueur=joueur, paid=request.POST.get("paid") == "1")
    except PartieError as err:
        messages.error(request, err.message)
    return _render_cagnotte(request, partie)


@login_required
@require_POST
def rachat_paid(request: HttpRequest, pk: int, rachat_pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    rachat = get_object_or_404(Rachat, pk=rachat_pk, donne__partie=partie)
    try:
        services.rachat_mark_paid(rachat=rachat, paid=request.POST.get("paid") == "1")
    except PartieError as err:
        messages.error(request, err.message)
    return _render_cagnotte(request, partie)


@login_required
@require_POST
def partie_money(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    form = MoneyForm(request.POST, instance=Partie.objects.get(pk=partie.pk))
    if form.is_valid():
        try:
            repriced = services.partie_update_money(partie=partie, **form.cleaned_data)
        except PartieError as err:
            form.add_error(None, err.message)
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
    return _render_partie(request, _marque(partie), status=422, money_form=form)


@login_required
def comptes_argent(request: HttpRequest) -> HttpResponse:
    comptes = build_comptes(parties_with_donnes(request.user))
    return render(request, "games/comptes_argent.html", {"comptes": comptes})


# -- the marque sheet: print, PDF, exports, import (issue #5) ---------------------------------


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
    partie = _get_partie_for_user(request, pk)
    data = partie_load(partie)
    return _sheet_response(request, build_sheet(data, data.replay()), partie, "")


@login_required
def partie_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
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
    partie = _get_partie_for_user(request, pk)
    data = partie_load(partie)
    # The BOM tells Excel the file is UTF-8 (accents in names).
    body = "\ufeff" + exports.export_csv(data, data.replay())
    response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(partie, "csv")}"'
    return response


@login_required
def partie_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
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
        record, name = form.cleaned_data["record"], form.cleaned_data["name"]
        try:
            partie = services.partie_import(owner=request.user, record=record, name=name)
        except PartieError as err:
            form.add_error("fichier", err.message)
        else:
            messages.success(request, _("Partie importée."))
            return redirect("partie_detail", pk=partie.pk)
    status = 422 if form.errors else 200
    return render(request, "games/partie_import.html", {"form": form}, status=status)


# -- share link and the read-only live view (issue #7) ----------------------------------------


@login_required
@require_POST
def partie_share(request: HttpRequest, pk: int) -> HttpResponse:
    """Create the share link, or replace it (the old one stops working)."""
    partie = _get_partie_for_user(request, pk)
    replaced = bool(partie.share_token)
    services.partie_share(partie=partie)
    if replaced:
        messages.success(request, _("Nouveau lien de partage : l'ancien ne marche plus."))
    return redirect(reverse("partie_detail", args=[partie.pk]) + "?partage#partage")


@login_required
@require_POST
def partie_unshare(request: HttpRequest, pk: int) -> HttpResponse:
    partie = _get_partie_for_user(request, pk)
    services.partie_unshare(partie=partie)
    messages.info(request, _("Le lien de partage est révoqué."))
    return redirect(reverse("partie_detail", args=[partie.pk]) + "?partage#partage")


def _follow_etag(partie: Partie, *, live: bool) -> str:
    # Every service write saves partie.updated_at; the donne count also catches a write that
    # forgot to. The htmx fragment and the full page are different representations.
    stamp = int(partie.updated_at.timestamp() * 1_000_000)
    return f"{partie.pk}.{stamp}.{partie.n_donnes}" + (".live" if live else "")


@require_GET
def partie_follow(request: HttpRequest, token: str) -> HttpResponse:
    """Issue #7: the read-only live view behind a share link, for anyone holding the token.
    The ETag is checked on one small query, before the donnes are loaded: an unchanged poll
    costs that query and a 304 with no body."""
    partie = partie_shared(token)
    if partie is None:
        if request.htmx:
            # A link revoked while someone follows: reload, so the page shows the 404.
            return HttpResponse(status=404, headers={"HX-Refresh": "true"})
        raise Http404
    etag = quote_etag(_follow_etag(partie, live=bool(request.htmx)))
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        template = "games/partie_follow.html"
        if request.htmx:
            template += "#suivi"
        context = {
            "partie": partie,
            "marque": _marque(partie),
            "live_etag": _follow_etag(partie, live=True),
        }
        response = render(request, template, context)
    response["ETag"] = etag
    # Revalidate on every request; the fragment and the page share one URL (Vary).
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    response["X-Robots-Tag"] = "noindex"
    return response

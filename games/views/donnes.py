"""Recording a donne, its live count, editing, deleting, and the rachat decisions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import services
from games.display.marque import Marque, build_marque
from games.display.outcome import donne_sentences, end_sentence, left_sentence, rachat_sentence
from games.display.outlook import donne_outlook
from games.errors import translated
from games.forms import DonneForm
from games.models import Donne, Partie, Rachat
from games.scoring import RamiError, get_preset
from games.selectors import (
    PartieState,
    decisions_of,
    donne_hands,
    partie_state,
    partie_state_of,
    with_rachats,
)
from games.views.partie_page import (
    RECENT_DONNES,
    get_partie_for_user,
    load_marque,
    offer_undo,
    render_partie,
    say_change,
    stale,
)


def _posted_form(
    request: HttpRequest, partie: Partie, donne: Donne | None = None
) -> tuple[DonneForm, Marque | None]:
    """The posted form of a new donne (or of ``donne``, edited). It names the players it was
    built for, so no replay is needed to read it; a post that does not (an old page, a
    script) has the replay say who is en course, and that marque comes back too."""
    return _form_of(request, list(partie.joueurs.all()), lambda: load_marque(partie), donne)


def _form_of(request, joueurs, marque_of, donne=None) -> tuple[DonneForm, Marque | None]:
    chosen = DonneForm.posted_players(request.POST, joueurs)
    if chosen is not None:
        return DonneForm(request.POST, preset=joueurs[0].partie.preset, joueurs=chosen), None
    marque = marque_of()
    if donne is None:
        return DonneForm.next_donne(marque, request.POST), marque
    return DonneForm.from_donne(marque, donne, request.POST), marque


def _record(state: PartieState, form: DonneForm) -> services.DonneRecorded:
    """A valid donne form to the service, from the page or from the offline queue. A donne the
    queue typed behind another one names it (``after_key``) instead of a state."""
    data = form.cleaned_data
    return services.donne_create(
        partie=state.partie,
        winner=data["winner_joueur"],
        win=data["win"],
        hands=data["hands"],
        idempotency_key=data["idempotency_key"],
        revision=None if data["after_key"] else data["revision"] or None,
        after_key=data["after_key"],
        players=form.joueurs,
        dealer=data["dealer_joueur"],
        state=state,
    )


def _state_for(request: HttpRequest, pk: int) -> PartieState:
    """The partie of this account as a new donne's write reads it (another account gets a
    404, as ``get_partie_for_user`` answers); nothing of the latest donne is read before it is
    needed: the form names its dealer. The states of the rows its answer shows; the offline
    queue's donne is answered without a marque, and replayed from the latest state alone."""
    key = request.POST.get("idempotency_key")
    last = 1 if _from_queue(request) else RECENT_DONNES
    state = partie_state_of(request.user, pk, last=last, key=key, latest=False)
    if state is None:
        raise Http404
    return state


def _refused(partie: Partie) -> Marque:
    """The marque after a refusal: read again, as the refused write left nothing."""
    return load_marque(Partie.objects.select_related("result").get(pk=partie.pk))


@login_required
@require_POST
def donne_create(request: HttpRequest, pk: int) -> HttpResponse:
    state = _state_for(request, pk)
    partie = state.partie
    if _from_queue(request):
        return _queued_donne(request, state)
    form, marque = _form_of(request, state.joueurs, lambda: build_marque(state))
    if form.is_valid():
        try:
            recorded = _record(state, form)
        except RamiError as err:
            marque = _refused(partie)
            if err.code == "etat_perime":
                if not marque.can_record:
                    return stale(request, marque.partie, err)
                form = DonneForm.retyped(marque, request.POST, err)
                return render_partie(request, marque, form, status=409 if not request.htmx else 200)
            form.add_refusal(err, marque.next_number)
        else:
            number = recorded.donne.number
            messages.success(request, _("Donne %(n)s notée.") % {"n": number})
            if not request.htmx:
                _say_recorded(request, build_marque(recorded.state), number)
                return redirect("partie_detail", pk=partie.pk)
            with_rachats(recorded.state)
            marque = build_marque(recorded.state)
            undo = _say_recorded(request, marque, number)
            return render_partie(request, marque, undo=undo)
    marque = marque or build_marque(state)
    return render_partie(request, marque, form, status=422 if not request.htmx else 200)


def _say_recorded(request: HttpRequest, marque: Marque, number: int) -> dict[str, object]:
    # An exclusion définitive, the end of the partie: said in words, not a small "exclu".
    for sentence in donne_sentences(marque, number):
        messages.warning(request, sentence)
    # Undo at hand, in the confirmation: the delete of the donne just saved.
    return offer_undo(request, {"partie": marque.partie.pk, "kind": "donne", "number": number})


# The phone's offline queue (static/js/queue.js) sends its donnes with this header and reads
# a short JSON answer instead of the page.
QUEUE_HEADER = "X-Ramiscore-Queue"


def _from_queue(request: HttpRequest) -> bool:
    return request.headers.get(QUEUE_HEADER) == "1"


def _queued_donne(request: HttpRequest, state: PartieState) -> JsonResponse:
    """A donne typed offline, sent from the phone's queue: recorded as any other (the same
    form, the same service), answered in JSON. ``wait``: it stays queued until the rachat
    decisions the replay needs are taken on the page."""
    form, _marque = _form_of(request, state.joueurs, lambda: build_marque(state))
    if not form.is_valid():
        lines = " ".join(message for _anchor, message in form.error_summary())
        # The hidden fields (a mangled key or state) are not in the summary: never say nothing.
        lines = lines or " ".join(str(e) for errors in form.errors.values() for e in errors)
        return JsonResponse({"ok": False, "code": "formulaire", "message": lines}, status=422)
    try:
        recorded = _record(state, form)
    except RamiError as err:
        wait = err.code == "decision_en_attente"
        answer = {"ok": False, "code": err.code, "message": translated(err), "wait": wait}
        return JsonResponse(answer, status=409)
    number = recorded.donne.number
    # The answer keeps its key "etat": a phone's worker of the previous version reads it.
    return JsonResponse({"ok": True, "number": number, "etat": recorded.state.revision})


@login_required
@require_POST
def donne_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """Each loser's count as it is typed, with the engine's explanation; for a new donne,
    each player's total after it and who would cross the seuil or reach the target."""
    partie = get_partie_for_user(request, pk)
    form, _marque = _posted_form(request, partie)
    lines = form.previews()
    # An edit changes a donne in the middle: its totals are the save's to say (say_change).
    edited = request.POST.get("edited")
    outlook = [] if edited else donne_outlook(partie_state(partie, last=1), form.cleaned_data)
    context = {"lines": lines, "outlook": outlook, "outlook_swap": True}
    return render(request, "games/partie_detail.html#previews", context)


class _LazyDonne:
    """The donne edited, read only if the form needs what was recorded (a post that does not
    name its players); its number is enough otherwise."""

    def __init__(self, partie: Partie, number: int) -> None:
        self.number = number
        self._partie = partie

    def __getattr__(self, name: str):
        donne = _donne_at(self._partie, self.number)
        if donne is None:
            raise Http404
        return getattr(donne, name)


def _donne_at(partie: Partie, number: int) -> Donne | None:
    return Donne.objects.filter(partie=partie, number=number).first()


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def donne_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    status = 200
    if request.method == "GET":
        partie = get_partie_for_user(request, pk)
        marque = load_marque(partie)
        donne = _donne_at(partie, number)
        if donne is None:
            raise Http404
        form = DonneForm.from_donne(marque, donne, hands=donne_hands(donne))
    else:
        state = partie_state_of(request.user, pk, last=RECENT_DONNES)
        if state is None or not 1 <= number <= state.summary.recorded:
            raise Http404
        partie = state.partie
        donne = None
        form, marque = _form_of(
            request, state.joueurs, lambda: build_marque(state), _LazyDonne(partie, number)
        )
        if form.is_valid():
            try:
                change = services.donne_update(
                    number=number,
                    state=state,
                    winner=form.cleaned_data["winner_joueur"],
                    win=form.cleaned_data["win"],
                    hands=form.cleaned_data["hands"],
                    # An empty state is stale too: no form of the app posts without one.
                    revision=form.cleaned_data["revision"],
                    dealer=form.cleaned_data["dealer_joueur"],
                )
            except RamiError as err:
                marque = _refused(partie)
                partie = marque.partie
                if err.code != "etat_perime":
                    form.add_refusal(err, number)
                else:
                    donne = _donne_at(partie, number)
                    if donne is None:
                        return stale(request, partie, err)
                    form = DonneForm.retyped(marque, request.POST, err, donne=donne)
                    status = 409
            else:
                messages.success(request, _("Donne %(n)s modifiée.") % {"n": number})
                say_change(request, change, partie.currency)
                return redirect("partie_detail", pk=partie.pk)
        marque = marque or build_marque(state)
        donne = donne or _donne_at(partie, number)
    context = {
        "partie": partie,
        "donne": donne,
        "decisions": decisions_of(donne),
        "form": form,
        "marque": marque,
        "preset": get_preset(partie.preset),
        "revision": marque.revision,
    }
    return render(request, "games/donne_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def donne_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    if request.method == "POST":
        state = partie_state_of(request.user, pk, last=RECENT_DONNES)
        if state is None or not 1 <= number <= state.summary.recorded:
            raise Http404
        partie = state.partie
        try:
            change = services.donne_delete(
                number=number, state=state, revision=request.POST.get("revision", "")
            )
        except RamiError as err:
            if err.code == "etat_perime":
                return stale(request, partie, err)
            messages.error(request, translated(err))
        else:
            messages.success(request, _("Donne %(n)s supprimée.") % {"n": number})
            say_change(request, change, partie.currency)
        return redirect("partie_detail", pk=partie.pk)
    partie = get_partie_for_user(request, pk)
    donne = get_object_or_404(Donne, partie=partie, number=number)
    context = {"partie": partie, "donne": donne, "revision": str(partie.revision)}
    return render(request, "games/donne_delete.html", context)


@login_required
@require_POST
def rachat_decide(request: HttpRequest, pk: int, joueur_pk: int) -> HttpResponse:
    state = partie_state_of(request.user, pk, last=RECENT_DONNES)
    if state is None:
        raise Http404
    partie = state.partie
    joueur = next((j for j in state.joueurs if j.pk == joueur_pk), None)
    if joueur is None:
        raise Http404
    decision = request.POST.get("decision")
    undo = None
    if decision not in ("racheter", "abandonner"):
        messages.error(request, _("Choisissez « Se racheter » ou « Abandonner »."))
    else:
        try:
            decided = services.rachat_decide(
                partie=partie, joueur=joueur, accepted=decision == "racheter", state=state
            )
        except RamiError as err:
            messages.error(request, translated(err))
            state = _refused(partie).stored
        else:
            state, rachat = decided.state, decided.rachat
            _say_decision(request, build_marque(state), rachat)
            # Undo at hand: the other answer, through the change of a decision already given.
            undo = offer_undo(
                request,
                {
                    "partie": partie.pk,
                    "kind": "rachat",
                    "number": rachat.donne.number,
                    "joueur": joueur.pk,
                    "name": joueur.name,
                    "back": "abandonner" if rachat.accepted else "racheter",
                },
            )
    if not request.htmx:
        return redirect("partie_detail", pk=partie.pk)
    return render_partie(request, build_marque(with_rachats(state)), undo=undo)


def _say_decision(request: HttpRequest, marque: Marque, rachat: Rachat) -> None:
    """A rachat or an abandon, and the end of the partie it may bring, in plain sentences."""
    number = rachat.donne.number
    name = rachat.joueur.name
    state = next((s for s in marque.states if s.number == number), None)
    if state is not None and (sentence := rachat_sentence(state, name, marque.partie.currency)):
        messages.success(request, sentence)
    if state is not None and (sentence := left_sentence(state, name)):
        messages.warning(request, sentence)
    if marque.over:
        messages.warning(request, end_sentence(marque))


@login_required
@require_POST
def rachat_change(request: HttpRequest, pk: int, number: int, joueur_pk: int) -> HttpResponse:
    """Change an answer already given (a mis-tap on "Abandonner", a change of mind): the
    partie is replayed from that donne, and the page says what changed."""
    state = partie_state_of(request.user, pk, last=RECENT_DONNES)
    if state is None or not 1 <= number <= state.summary.recorded:
        raise Http404
    partie = state.partie
    joueur = next((j for j in state.joueurs if j.pk == joueur_pk), None)
    if joueur is None:
        raise Http404
    decision = request.POST.get("decision")
    if decision not in ("racheter", "abandonner"):
        messages.error(request, _("Choisissez « Se racheter » ou « Abandonner »."))
        return redirect("partie_detail", pk=partie.pk)
    accepted = decision == "racheter"
    try:
        changed = services.rachat_change(
            partie=partie,
            donne_number=number,
            joueur=joueur,
            accepted=accepted,
            revision=request.POST.get("revision", ""),  # empty: stale, as a wrong one
            state=state,
        )
    except RamiError as err:
        if err.code == "etat_perime":
            return stale(request, partie, err)
        messages.error(
            request,
            _("La décision de %(name)s n'a pas changé : %(cause)s")
            % {"name": joueur.name, "cause": translated(err)},
        )
        return redirect("donne_edit", pk=partie.pk, number=number)
    if accepted:
        text = _("Donne %(n)s : %(name)s se rachète finalement.")
    else:
        text = _("Donne %(n)s : %(name)s abandonne finalement et quitte la partie.")
    messages.success(request, text % {"n": number, "name": joueur.name})
    say_change(request, changed.change, partie.currency)
    marque = build_marque(changed.state)
    if marque.over:
        messages.warning(request, end_sentence(marque))
    return redirect("partie_detail", pk=partie.pk)

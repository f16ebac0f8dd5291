"""What the views of a partie share: ownership, the marque, and the page render."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services
from games.display.cagnotte import build_cagnotte
from games.display.marque import Marque, build_marque
from games.display.numbers import format_money
from games.errors import translated
from games.forms import DonneForm, MoneyForm, NoteForm
from games.models import MAX_NOTE, Joueur, Partie
from games.offline_record import engine_urls, page_record
from games.options import config_of
from games.scoring import RamiError, get_preset
from games.selectors import PartieState, bought_back, partie_state, summary_of
from games.services.parties import note_token
from games.views import fragments


def get_partie_for_user(request: HttpRequest, pk: int) -> Partie:
    """The partie, if it belongs to this account; another account gets a 404 (never a 403,
    which would confirm that the partie exists)."""
    return get_object_or_404(Partie.objects.select_related("result"), pk=pk, owner=request.user)


# The table needs the last donnes at a glance; the whole marque is one tap away (and on the
# printable sheet). 300 rows on a phone cost 300 rows of HTML on every swap, and loading
# only these keeps a page's cost the same at 20 donnes and at 1000.
RECENT_DONNES = 30


def load_marque(partie: Partie, request: HttpRequest | None = None) -> Marque:
    """The partie from its stored replay: the latest donnes, or all of them with ?tout."""
    everything = request is not None and "tout" in request.GET
    return build_marque(partie_state(partie, last=None if everything else RECENT_DONNES))


def show_partie(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's partie page (a GET). Its kept entry is looked up with what its key is made
    of alone, the partie, its players and its stored summary (one query); an unchanged partie
    is served from it without loading a state, building a form or drawing a part. Anything
    missing from the entry (a new state, a language not seen yet) and the partie is read
    whole and the page drawn and kept (games/views/fragments.py)."""
    marque = _without_states(request, pk)
    if marque is None:  # not the account's (404), or a partie without players
        return render_partie(request, load_marque(get_partie_for_user(request, pk), request))
    everything = "tout" in request.GET
    state = fragments.page_state(marque, everything=everything)
    place = fragments.page_key(request, marque, state, everything=everything)
    entry = fragments.PageEntry(request, place, keep=True, shallow=True)
    undo = request.session.pop(UNDO_KEY, None)  # read once, whichever render shows it
    try:
        return render_partie(request, marque, undo=undo, entry=entry)
    except fragments.Missing:
        entry.shallow = False
        return render_partie(request, load_marque(marque.partie, request), undo=undo, entry=entry)


def _without_states(request: HttpRequest, pk: int) -> Marque | None:
    """The partie ``pk`` of this account with its result and its players in one query (the
    players carry the partie), its summary, and no state: enough for the key of its kept page
    and for what the page draws on every request (the messages, the undo)."""
    joueurs = list(
        Joueur.objects.filter(partie_id=pk, partie__owner=request.user)
        .select_related("partie", "partie__result", "habitue")
        .order_by("seat")
    )
    if not joueurs:
        return None
    partie = joueurs[0].partie
    for joueur in joueurs:
        joueur.partie = partie
    state = PartieState(
        partie=partie, joueurs=joueurs, config=config_of(partie), summary=summary_of(partie)
    )
    return build_marque(state)


def visible_rows(marque: Marque) -> dict[str, object]:
    """The rows the page shows, and how many older ones it leaves out."""
    return {"rows": marque.rows, "hidden_rows": marque.summary.applied - len(marque.rows)}


def render_partie(
    request: HttpRequest,
    marque: Marque,
    form: DonneForm | None = None,
    *,
    status: int = 200,
    money_form: MoneyForm | None = None,
    undo: dict[str, object] | None = None,
    note_form: NoteForm | None = None,
    entry: fragments.PageEntry | None = None,
) -> HttpResponse:
    # The "Annuler" of the confirmation just given: passed on by an htmx save, or kept in the
    # session across the redirect of a page without JavaScript (read once).
    undo = undo or request.session.pop(UNDO_KEY, None)
    waits = not form and bool(marque.summary.pending) and not marque.summary.over
    # What the kept regions draw is built only when one is drawn (games/views/fragments.py):
    # a page of an unchanged partie builds no form and no record.
    fresh = form is None and (marque.can_record or waits)
    context = {
        "partie": marque.partie,
        "marque": marque,
        "preset": get_preset(marque.partie.preset),
        # Behind a rachat still to decide the form waits, hidden: offline, the phone answers
        # the card itself and the form comes back (static/js/provisional.js).
        "form": form or (SimpleLazyObject(partial(_fresh_form, marque)) if fresh else None),
        "form_waits": waits,
        "revision": marque.revision,
        "money_form": money_form or SimpleLazyObject(partial(MoneyForm, instance=marque.partie)),
        "max_note": MAX_NOTE,
        "undo": _still_undoable(marque, undo),
        # The phone's own replay offline (static/js/provisional.js).
        "offline_record": partial(page_record, marque),
        "engine_urls": engine_urls,
        # The note form refused: what was typed, and why; the token is always the fresh one.
        "note_form": note_form,
        "note_token": note_token(marque.partie.note),
        **visible_rows(marque),
    }
    refused = any(f is not None for f in (form, money_form, note_form))
    kept = context["kept"] = _page_entry(request, context, refused=refused, entry=entry)
    context["parts"] = kept.parts
    template = "games/partie_detail.html"
    if request.htmx:
        template += "#partie-body"
    response = render(request, template, context, status=status)
    kept.store()
    return response


def _fresh_form(marque: Marque) -> DonneForm:
    """The next donne's form as the kept page draws it: its idempotency key a placeholder,
    which each request's page replaces with a fresh key (games/views/fragments.py)."""
    form = DonneForm.next_donne(marque)
    form.fields["idempotency_key"].initial = fragments.KEY_PLACEHOLDER
    return form


def _page_entry(
    request: HttpRequest,
    context: dict[str, object],
    *,
    refused: bool,
    entry: fragments.PageEntry | None,
) -> fragments.PageEntry:
    """The scoreboard, the marque table, the cagnotte and the page's kept regions, kept
    rendered by the partie's state (games/views/fragments.py). A write's response draws them
    and keeps them for the page of the state it left, when it shows that page's rows; a
    refused form is shown as typed, never kept."""
    marque = context["marque"]
    if entry is None and request.method == "POST" and not refused and _shows_the_page(marque):
        entry = fragments.written_entry(request, marque)
    return fragments.page_entry(
        request,
        context,
        lambda: build_cagnotte(marque.stored, bought_back(marque.stored)),
        keep=request.method == "GET" and not refused,
        entry=entry,
    )


def _shows_the_page(marque: Marque) -> bool:
    """The marque as the owner's page reads it (``load_marque``): the latest donnes applied,
    from a stored replay that is current (an edit's answer may hold another stretch)."""
    if marque.stored.stale:
        return False
    applied = marque.summary.applied
    rows = marque.rows
    return len(rows) == min(applied, RECENT_DONNES) and (not rows or rows[-1].number == applied)


UNDO_KEY = "ramiscore_undo"


def offer_undo(request: HttpRequest, undo: dict[str, object]) -> dict[str, object]:
    """Keep the undo of a save for the page the redirect shows (no htmx); returned as is."""
    if not request.htmx:
        request.session[UNDO_KEY] = undo
    return undo


def _still_undoable(marque: Marque, undo: dict[str, object] | None) -> dict[str, object] | None:
    """The undo offered only while it still undoes what it says: the donne saved is still
    the last one, the decision is still at the partie's latest donne."""
    if not undo or undo.get("partie") != marque.partie.pk:
        return None
    if undo["kind"] == "donne" and undo["number"] != marque.recorded:
        return None
    if undo["kind"] == "rachat" and undo["number"] > marque.recorded:
        return None
    return undo


def say_change(request: HttpRequest, change: services.Change, currency: str) -> None:
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
        number = change.pending[0][0]
        names = [name for _number, name in change.pending]
        messages.warning(
            request,
            ngettext(
                "Nouveau franchissement à la donne %(number)s : %(names)s doit décider de son "
                "rachat.",
                "Nouveaux franchissements à la donne %(number)s : %(names)s doivent décider de "
                "leur rachat.",
                len(names),
            )
            % {"number": number, "names": _(" et ").join(names)},
        )


def stale(request: HttpRequest, partie: Partie, err: RamiError) -> HttpResponse:
    """Another phone changed the partie: say so and show the fresh state."""
    messages.warning(request, translated(err))
    if request.htmx:
        partie.refresh_from_db()  # as the other phone left it
        return render_partie(request, load_marque(partie))
    return redirect("partie_detail", pk=partie.pk)

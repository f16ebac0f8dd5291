"""The offline queue at a real table: never stuck behind a refusal, never stale after a
catch-up, and fixable on the phone (docs/decisions.md "Offline"). Chromium at 390×844, its
network cut for the page and the service worker by the relay (tests/browser/relay.py).
Cast: alice keeps the score; "another phone" records through the service directly."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Donne
from tests.browser import test_offline
from tests.browser.conftest import PHONE
from tests.browser.test_offline import (
    FOUR,
    open_controlled,
    queued_rows,
    record,
    shot,
    stored,
    until,
)
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db(transaction=True)

# The offline tests' phone, relay and alice, shared.
alice = test_offline.alice
phone = test_offline.phone
relay = test_offline.relay


def count_line(page):
    return page.locator("#partie-body h1 + small")


def test_a_refusal_is_shown_on_top_and_the_next_donne_is_not_held_behind_it(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone)).to_have_count(1)
    # Meanwhile another phone records its donne 1: this one is refused at reconnection.
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    relay.start()
    phone.evaluate("RamiOffline.send()")
    banner = phone.locator("#offline-banner")
    refusal = banner.locator(".refusal-block")
    expect(refusal).to_contain_text("Donne 1 refusée : La partie a changé ailleurs")
    expect(banner).to_have_class(re.compile(r"\balert-danger\b"))
    # At the top of the screen, whatever the scroll: the banner is sticky (once the
    # server's marque, asked for after the refusal, is drawn).
    phone.evaluate("RamiOffline.drawn()")
    phone.locator("#cagnotte, #actions").first.scroll_into_view_if_needed()
    expect(refusal.locator("button", has_text="Corriger")).to_be_in_viewport()
    expect(refusal.locator("button", has_text="Supprimer")).to_be_in_viewport()
    # Nothing else waits: no "en attente d'envoi", no send button.
    expect(banner).not_to_contain_text("en attente d'envoi")
    expect(banner.locator(".send-now")).to_have_count(0)
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "queue-refusal-on-top")
    phone.emulate_media(color_scheme="dark")
    shot(phone, "queue-refusal-on-top-dark")
    phone.emulate_media(color_scheme="light")

    # The next donne, typed online on the fresh marque, goes at once: not held behind it.
    expect(count_line(phone)).to_have_text("1 donne")
    record(phone, "Bruno", Anne=4, Chloé=5, David=6)
    expect(phone.locator("#flash")).to_contain_text("Donne 2 notée")
    assert stored(partie) == [
        (1, "David", {"Anne": 1, "Bruno": 2, "Chloé": 3}),
        (2, "Bruno", {"Anne": 4, "Chloé": 5, "David": 6}),
    ]
    # Saved online: the focus on the next winner.
    until(phone, "() => document.activeElement.name === 'winner'")
    expect(queued_rows(phone)).to_have_count(1)  # the refused one, still on top
    expect(refusal).to_be_visible()

    # Supprimer: a second tap drops it; the banner goes.
    drop = refusal.locator("button", has_text="Supprimer")
    drop.click()
    refusal.locator("button", has_text="Oui, l'effacer").click()
    expect(queued_rows(phone)).to_have_count(0)
    expect(banner).to_be_hidden()
    assert len(stored(partie)) == 2


def test_donnes_typed_after_a_refused_one_say_they_wait_for_it(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    record(phone, "Bruno", Anne=3, Chloé=4, David=5)
    expect(queued_rows(phone)).to_have_count(2)
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    relay.start()
    phone.evaluate("RamiOffline.send()")
    banner = phone.locator("#offline-banner")
    expect(banner.locator(".refusal-block")).to_contain_text("Donne 1 refusée")
    expect(banner).to_contain_text(
        "1 donne en attente d'envoi · Elle attend la donne refusée : corrigez-la ou supprimez-la."
    )
    held = queued_rows(phone).nth(1)
    expect(held.locator(".queue-state")).to_have_attribute("title", "attend la donne refusée")
    # A donne typed now is clearly held behind them: the banner counts it and says why.
    record(phone, "Chloé", Anne=6, Bruno=7, David=8)
    expect(queued_rows(phone)).to_have_count(3)
    expect(banner).to_contain_text(
        "2 donnes en attente d'envoi · Elles attendent la donne refusée : corrigez-la ou "
        "supprimez-la."
    )
    assert len(stored(partie)) == 1


def test_a_donne_being_typed_when_the_queue_goes_out_stays_in_the_form(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone)).to_have_count(1)
    # The next donne half typed, the thumb in Chloé's box, when the network comes back.
    form = phone.locator("#donne-form")
    form.locator(".winner-grid label", has_text=re.compile("^Bruno$")).click()
    form.locator(".hand[data-joueur='Anne'] .points-input").fill("4")
    form.locator(".hand[data-joueur='Chloé'] .points-input").fill("5")
    revision = form.locator("[name=revision]")
    typed_on = revision.input_value()
    relay.start()
    phone.evaluate("RamiOffline.send()")
    # The server's marque, form and all, drawn anew: the state the form carries is the new one.
    expect(revision).not_to_have_value(typed_on)
    assert stored(partie) == [(1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30})]
    expect(queued_rows(phone)).to_have_count(0)
    # What was typed is still there, where it was; no "brouillon" notice about it.
    expect(form.locator("input[name=winner]:checked")).to_have_count(1)
    winner = form.locator("input[name=winner]:checked").evaluate("r => r.labels[0].textContent")
    assert winner.strip() == "Bruno"
    expect(form.locator(".hand[data-joueur='Anne'] .points-input")).to_have_value("4")
    chloe = form.locator(".hand[data-joueur='Chloé'] .points-input")
    expect(chloe).to_have_value("5")
    expect(chloe).to_be_focused()
    expect(form.locator(".draft-notice")).to_have_count(0)
    shot(phone, "queue-typing-carried")
    form.locator(".hand[data-joueur='David'] .points-input").fill("6")
    phone.locator("#donne-save").click()
    expect(phone.locator("#flash")).to_contain_text("Donne 2 notée")
    assert stored(partie)[1] == (2, "Bruno", {"Anne": 4, "Chloé": 5, "David": 6})


def test_a_waiting_donne_being_changed_when_the_one_before_goes_out_stays_being_changed(
    phone, relay, alice
):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    record(phone, "Bruno", Anne=3, Chloé=4, David=5)
    phone.locator("#marque tr.queue-actions").nth(1).locator("button", has_text="Modifier").click()
    title = phone.locator("#donne-title")
    expect(title).to_have_text("Modifier la donne 2 (en attente)")
    david = phone.locator("#donne-form .hand[data-joueur='David'] .points-input")
    david.fill("25")
    relay.start()
    phone.evaluate("RamiOffline.send()")
    # Donne 1 goes; donne 2, being changed, waits, and the new form still changes it.
    expect(queued_rows(phone)).to_have_count(1)
    expect(count_line(phone)).to_have_text("1 donne")
    expect(title).to_have_text("Modifier la donne 2 (en attente)")
    expect(david).to_have_value("25")
    expect(phone.locator("#donne-form .queue-editing")).to_be_visible()
    shot(phone, "queue-editing-carried")
    assert len(stored(partie)) == 1
    phone.locator("#donne-save").click()
    expect(queued_rows(phone)).to_have_count(0)
    expect(count_line(phone)).to_have_text("2 donnes")
    assert stored(partie)[1] == (2, "Bruno", {"Anne": 3, "Chloé": 4, "David": 25})


def test_the_totals_stay_in_view_under_the_banner_whatever_the_scroll(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    banner = phone.locator("#offline-banner")
    expect(banner).to_contain_text("1 donne en attente d'envoi")
    phone.locator("#donne-save").scroll_into_view_if_needed()
    phone.evaluate("window.scrollBy(0, 200)")
    expect(phone.locator("#scoreboard .player .name")).to_have_text(FOUR)
    # Both stick at the top: the scoreboard below the banner, its names and totals uncovered.
    until(
        phone,
        """() => {
            const banner = document.getElementById("offline-banner").getBoundingClientRect();
            const names = document.querySelector("#scoreboard .name").getBoundingClientRect();
            return window.scrollY > 0 && banner.top === 0 && names.top >= banner.bottom - 0.5;
        }""",
    )
    phone.screenshot(path=str(test_offline.SCREENSHOTS / "queue-banner-over-the-scoreboard.png"))


def test_five_catch_ups_in_a_row_leave_the_page_as_the_server_has_it(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    for n in range(1, 6):
        relay.stop()
        record(phone, FOUR[n % 4], **{name: n + i for i, name in enumerate(FOUR) if i != n % 4})
        expect(queued_rows(phone)).to_have_count(1)
        # Reloaded offline: the kept page, which asks for a fresh one once the server is back.
        phone.reload()
        expect(phone.locator("#offline-banner")).to_contain_text("Hors ligne")
        relay.start()
        # The page hears of the connection from every side at once: the "online" event (a
        # probe, a send), its own send, and the worker's Background Sync; each of them asks
        # for a fresh marque.
        phone.evaluate(
            """() => {
                window.dispatchEvent(new Event("online"));
                RamiOffline.send();
                navigator.serviceWorker.ready.then(r => r.sync.register("ramiscore-queue"));
            }"""
        )
        until(phone, "() => RamiQueue.items().then(items => items.length === 0)")
        assert len(stored(partie)) == n
        # Within 2 s of the catch-up, the page is the server's.
        expect(count_line(phone)).to_have_text(f"{n} donne" + ("s" if n > 1 else ""), timeout=2000)
        expect(phone.locator("#marque tbody tr:not(.queued)")).to_have_count(n, timeout=2000)
        expect(queued_rows(phone)).to_have_count(0)
        expect(phone.locator("#donne-title")).to_have_text(re.compile(f"^Donne {n + 1}"))
        expect(phone.locator("#offline-banner")).to_be_hidden()
    last = stored(partie)[-1]
    assert last == (5, "Bruno", {"Anne": 5, "Chloé": 7, "David": 8})


def test_a_waiting_donne_is_changed_and_dropped_offline_and_undo_takes_the_last(
    phone, relay, alice
):
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=2), Chloé=hand(points=3), David=hand(points=4))
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=10, Chloé=11, David=12)
    record(phone, "Bruno", Anne=20, Chloé=21, David=22)
    record(phone, "Chloé", Anne=30, Bruno=31, David=32)
    rows = queued_rows(phone)
    expect(rows).to_have_count(3)
    expect(rows.locator("th")).to_have_text(["2◷", "3◷", "4◷"])

    # Modifier on donne 3: back in the form, its place kept in the order.
    phone.locator("#marque tr.queue-actions").nth(1).locator("button", has_text="Modifier").click()
    expect(phone.locator("#donne-title")).to_have_text("Modifier la donne 3 (en attente)")
    david = phone.locator("#donne-form .hand[data-joueur='David'] .points-input")
    expect(david).to_have_value("22")
    expect(rows.nth(1).locator(".queue-state")).to_have_attribute(
        "title", "en cours de modification"
    )
    shot(phone, "queue-editing")
    david.fill("25")
    # No count from the server: the row says so in a word, the sentence is under the button.
    david_count = phone.locator("#donne-form .hand[data-joueur='David'] .apercu")
    expect(david_count).to_have_text("hors ligne")
    expect(phone.locator("#apercu-totaux")).to_have_text("Hors ligne : comptée à la reconnexion.")
    # A card picker opened and left empty: it must not stay open after the save.
    phone.locator("#donne-form .hand[data-joueur='Anne'] .picker-toggle").click()
    expect(phone.locator("#donne-form .hand[data-joueur='Anne'] .cards-input")).to_be_visible()
    expect(phone.locator("#donne-form .hand[data-joueur='Anne'] .cards-input")).to_have_attribute(
        "placeholder", "ex. R D 10 2"
    )
    phone.locator("#donne-save").click()
    expect(rows).to_have_count(3)
    expect(rows.nth(1).locator("td")).to_have_text(["20", "gagne", "21", "25"])
    expect(phone.locator("#donne-title")).to_have_text("Donne 5")
    # Tidy: a blank form, no count left, the pickers folded, the focus on the next winner.
    expect(david).to_have_value("")
    expect(phone.locator("#donne-form .picker:visible")).to_have_count(0)
    expect(phone.locator("#donne-form .apercu:not(:empty)")).to_have_count(0)
    assert phone.evaluate("document.activeElement.name") == "winner"

    # Supprimer on donne 2 (a second tap): the others move up.
    first_actions = phone.locator("#marque tr.queue-actions").nth(0)
    first_actions.locator("button", has_text="Supprimer").click()
    first_actions.locator("button", has_text="Oui, l'effacer").click()
    expect(rows).to_have_count(2)
    expect(rows.locator("th")).to_have_text(["2◷", "3◷"])
    expect(rows.nth(0).locator("td")).to_have_text(["20", "gagne", "21", "25"])

    # "Annuler la dernière donne" offline: the last waiting one, nothing sent.
    undo = phone.locator("#annuler")
    expect(undo.locator("summary")).to_have_text("Annuler la dernière donne (3, en attente)")
    undo.locator("summary").click()
    undo.locator("button", has_text="Oui, supprimer cette donne").click()
    expect(rows).to_have_count(1)
    expect(undo.locator("summary")).to_have_text("Annuler la dernière donne (2, en attente)")
    undo.locator("summary").click()
    undo.locator("button", has_text="Oui, supprimer cette donne").click()
    expect(rows).to_have_count(0)
    # None waiting: the server's donne 1 cannot be undone offline, and the page says why.
    expect(undo.locator("summary")).to_have_text("Annuler la dernière donne (1)")
    undo.locator("summary").click()
    expect(undo.locator("button")).to_be_disabled()
    expect(undo.locator(".undo-why")).to_have_text(
        "Hors ligne : la dernière donne du serveur ne peut être annulée qu'avec la connexion."
    )
    shot(phone, "queue-undo-offline")

    record(phone, "David", Anne=1, Bruno=1, Chloé=1)
    expect(rows).to_have_count(1)
    # "Terminer la partie" offline waits on the phone behind the donne, and can be dropped.
    phone.locator("#actions summary", has_text="Terminer la partie").click()
    phone.locator("#actions button", has_text="Oui, terminer maintenant").click()
    decision = phone.locator("#marque tr.queued-decision")
    expect(decision.locator("span")).to_have_text("Partie terminée sur ce téléphone")
    decision.locator("button", has_text="Supprimer").click()
    decision.locator("button", has_text="Oui, l'effacer").click()
    expect(decision).to_have_count(0)
    # A page never opened: ramiscore's offline page.
    phone.locator("#marque a.donne-link").first.click()
    expect(phone.locator("#offline-page h1")).to_have_text("Hors ligne")

    relay.start()
    phone.goto(f"/parties/{partie.pk}/")
    expect(count_line(phone)).to_have_text("2 donnes")
    assert stored(partie) == [
        (1, "Anne", {"Bruno": 2, "Chloé": 3, "David": 4}),
        (2, "David", {"Anne": 1, "Bruno": 1, "Chloé": 1}),
    ]
    assert phone.viewport_size == PHONE


def test_a_file_posted_online_goes_through_the_worker_untouched(phone, relay, alice, tmp_path):
    """Forms posted as navigations go through the worker (for the offline page when there is
    no network): a multipart upload, online, arrives whole."""
    partie = make_partie(alice, joueurs=FOUR, name="À réimporter")
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=30))
    open_controlled(phone, partie)
    exported = phone.evaluate(
        "url => fetch(url).then(r => r.text())", f"/parties/{partie.pk}/export.json"
    )
    path = tmp_path / "partie.json"
    path.write_text(exported, encoding="utf-8")
    phone.goto("/parties/importer/")
    assert phone.evaluate("Boolean(navigator.serviceWorker.controller)")
    phone.locator("#import-form input[type=file]").set_input_files(str(path))
    phone.locator("#import-form button").click()
    expect(phone.locator("#partie-body h1")).to_have_text("À réimporter")
    expect(count_line(phone)).to_have_text("1 donne")
    assert phone.url != f"{relay.url}/parties/{partie.pk}/"


def test_a_second_tab_shows_the_donne_the_first_sent(phone, relay, alice):
    """Two pages of one partie (two tabs, or the page left while it was sending and the one
    opened after it): when one sends the queue, the other draws the server's marque too."""
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=2), Chloé=hand(points=3), David=hand(points=4))
    open_controlled(phone, partie)
    other = phone.context.new_page()
    other.goto(f"/parties/{partie.pk}/")
    expect(count_line(other)).to_have_text("1 donne")
    relay.stop()
    record(phone, "Bruno", Anne=5, Chloé=6, David=7)
    expect(queued_rows(phone)).to_have_count(1)
    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(count_line(phone)).to_have_text("2 donnes")
    expect(count_line(other)).to_have_text("2 donnes")
    expect(other.locator("#marque tbody tr").nth(1)).to_contain_text("5")
    assert stored(partie)[-1] == (2, "Bruno", {"Anne": 5, "Chloé": 6, "David": 7})


# What a phone queued before the form's fields were renamed (docs/decisions.md "One
# vocabulary, round two"): the same items, under the old names, in its IndexedDB.
TO_OLD_NAMES = """async ([cardsOf, cards]) => {
  const db = await new Promise(function (ok, ko) {
    const open = indexedDB.open("ramiscore", 1);
    open.onsuccess = function () { ok(open.result); };
    open.onerror = function () { ko(open.error); };
  });
  const all = await new Promise(function (ok) {
    const read = db.transaction("donnes").objectStore("donnes").getAll();
    read.onsuccess = function () { ok(read.result); };
  });
  const old = { idempotency_key: "cle", revision: "etat", players: "en_course", force: "forcer" };
  const first = Math.min.apply(null, all.map(function (item) { return item.seq; }));
  all.forEach(function (item) {
    item.fields = item.fields.map(function (pair) {
      if (old[pair[0]]) return [old[pair[0]], pair[1]];
      if (pair[0] === "points_" + cardsOf && item.seq === first) return [pair[0], ""];
      if (pair[0] === "cards_" + cardsOf && item.seq === first) return ["cartes_" + cardsOf, cards];
      return [pair[0].replace(/^cards_/, "cartes_"), pair[1]];
    });
  });
  const write = db.transaction("donnes", "readwrite");
  all.forEach(function (item) { write.objectStore("donnes").put(item); });
  await new Promise(function (ok) { write.oncomplete = ok; });
  all.sort(function (a, b) { return a.seq - b.seq; });
  return all.map(function (item) { return item.fields.map(function (pair) { return pair[0]; }); });
}"""


def test_donnes_queued_under_the_old_field_names_are_sent_after_the_update(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    david = partie.joueurs.get(name="David").pk
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    record(phone, "Chloé", Anne=5, Bruno=9, David=11)
    expect(queued_rows(phone)).to_have_count(2)
    names = phone.evaluate(TO_OLD_NAMES, [david, "K Q J"])
    assert all({"cle", "etat", "en_course", f"cartes_{david}"} <= set(n) for n in names)
    assert not any("idempotency_key" in n or "revision" in n for n in names)
    # The queue reads them under today's names.
    fields = phone.evaluate("RamiQueue.items().then(items => items.map(i => i.fields))")
    assert all(
        {"idempotency_key", "revision", "players", f"cards_{david}"} <= {p[0] for p in f}
        for f in fields
    )

    relay.start()
    phone.locator("#offline-banner .send-now").click()
    expect(queued_rows(phone)).to_have_count(0)
    assert stored(partie) == [
        (1, "Anne", {"Bruno": 12, "Chloé": 7, "David": None}),
        (2, "Chloé", {"Anne": 5, "Bruno": 9, "David": 11}),
    ]
    first = Donne.objects.get(partie=partie, number=1)
    assert first.hands.get(joueur__name="David").cards == "K Q J"


def lose_answers(page, pattern: re.Pattern, method: str):
    """The wifi drops as the answer comes: the request reaches the server, and the phone gets
    a success with no header and no body (what Chromium showed htmx in that case)."""

    def cut(route):
        if route.request.method != method or not route.request.headers.get("hx-request"):
            return route.fallback()
        route.fetch()
        route.fulfill(status=200, body="", headers={})

    page.route(pattern, cut)


def test_a_donne_whose_answer_is_lost_waits_with_its_key_and_counts_once(phone, alice):
    partie = make_partie(alice, joueurs=FOUR)
    phone.goto(f"/parties/{partie.pk}/")
    phone.wait_for_selector("#donne-form[data-offline-ready]")
    # The save only: the live counts (donnes/apercu/) go through as usual.
    lose_answers(phone, re.compile(rf"/parties/{partie.pk}/donnes/$"), "POST")
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    # The page keeps its marque; the donne (stored, but the phone cannot know) waits here.
    expect(queued_rows(phone)).to_have_count(1)
    expect(phone.locator("#partie-body")).to_have_count(1)
    expect(phone.locator("#offline-banner")).to_contain_text("1 donne en attente d'envoi")
    assert stored(partie) == [(1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30})]
    # Answers come again: sent with the same key, it is the donne already there, not a second.
    phone.unroute_all(behavior="ignoreErrors")
    phone.evaluate("RamiOffline.send()")
    expect(queued_rows(phone)).to_have_count(0)
    expect(count_line(phone)).to_have_text("1 donne")
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 2"))
    assert stored(partie) == [(1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30})]


def test_a_lost_fresh_marque_is_asked_again_once_the_server_answers(phone, alice):
    partie = make_partie(alice, joueurs=FOUR)
    phone.goto(f"/parties/{partie.pk}/")
    phone.wait_for_selector("#donne-form[data-offline-ready]")
    page_url = re.compile(rf"/parties/{partie.pk}/$")
    lose_answers(phone, page_url, "GET")
    # Another phone records a donne; this one hears of it (another tab's answer) and asks.
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    answered = f"RamiQueue.ANSWERED + '{partie.pk}'"
    phone.evaluate(f"window.dispatchEvent(new StorageEvent('storage', {{key: {answered}}}))")
    # Lost: the page keeps what it showed, and says it is offline rather than look current.
    expect(phone.locator("#offline-banner")).to_contain_text("Hors ligne")
    expect(phone.locator("#marque")).to_contain_text("Aucune donne pour l'instant.")
    expect(phone.locator("#donne-form .winner-grid label")).to_have_count(4)
    # The server answers again: the marque is asked for again, and drawn.
    phone.unroute_all(behavior="ignoreErrors")
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(count_line(phone)).to_have_text("1 donne")
    expect(phone.locator("#offline-banner")).to_be_hidden()

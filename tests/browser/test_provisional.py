"""Provisional totals offline: the engine itself, games/scoring under Pyodide in the page's Web
Worker, replays the partie's record with the donnes waiting on the phone. Chromium at 390×844,
the network cut for the page and its service worker alike by the relay of the offline tests
(tests/browser/relay.py). Cast: alice keeps the score; another phone (the services) records
meanwhile in the last test."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import test_offline as offline
from tests.browser.scoreboard import expect_totals, totals
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
# The phone, its relay and alice of the offline tests.
alice, phone, relay = offline.alice, offline.phone, offline.relay

ENGINE_KEPT = """() => caches.keys()
    .then(keys => Promise.all(keys.map(key => caches.open(key)
        .then(cache => cache.keys()).then(requests => requests.map(r => r.url)))))
    .then(lists => lists.flat())
    .then(urls => ["pyodide.asm.wasm", "python_stdlib.zip", "games-scoring.zip",
                   "engine-worker.js"].every(name => urls.some(url => url.includes(name))))"""


def ready_offline(phone, relay, partie) -> None:
    """The page open, Pyodide and the engine kept by the service worker, the network cut,
    then the engine started from the phone's copy alone."""
    open_controlled(phone, partie)
    until(phone, ENGINE_KEPT, seconds=60)
    relay.stop()
    phone.evaluate("RamiProvisional.engine()")
    expect(phone.locator("body")).to_have_attribute("data-engine", "ready", timeout=90_000)


def test_offline_donnes_show_the_engines_totals_then_the_servers_are_the_same(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=30))
    ready_offline(phone, relay, partie)

    record(phone, "Bruno", Anne=4, Chloé=5, David=60)
    rows = queued_rows(phone)
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_class(re.compile("provisional"))
    expect(phone.locator("#marque tr.queued.caption")).to_have_text("provisoire · à envoyer")
    # Donne 1 on the server, donne 2 on the phone: Bruno's rami counts −10 (docs/rules.md).
    expect_totals(phone, {"Anne": -6, "Bruno": 2, "Chloé": 12, "David": 90})
    expect(phone.locator("#scoreboard .provisional-note")).to_have_text("provisoire · à envoyer")

    # David crosses the seuil with the second donne: the engine says so, a rachat to decide.
    record(phone, "Chloé", Anne=3, Bruno=8, David=20)
    expect(rows.nth(1)).to_have_class(re.compile("provisional"))
    expect(phone.locator("#scoreboard .provisional-note")).to_have_text(
        "provisoire · à envoyer · David atteint 110 : rachat à décider"
    )
    cells = queued_rows(phone).nth(1).locator("td")
    expect(cells.nth(0)).to_have_text("+3 = −3")
    expect(cells.nth(1)).to_have_text("+8 = 10")
    expect(cells.nth(3)).to_have_text("+20 = [110]")
    phone_totals = totals(phone)
    shot(phone, "provisional-offline")
    assert stored(partie) == [(1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30})]

    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(queued_rows(phone)).to_have_count(0, timeout=15_000)
    expect(phone.locator("#scoreboard")).not_to_have_class(re.compile("is-provisional"))
    assert [n for n, _w, _h in stored(partie)] == [1, 2, 3]
    expect_totals(phone, phone_totals)
    assert phone.locator(".provisional-differs").count() == 0
    shot(phone, "provisional-caught-up")


def test_a_reload_offline_replays_again_and_the_servers_word_is_the_truth(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    ready_offline(phone, relay, partie)
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone).nth(0)).to_have_class(re.compile("provisional"))
    # The phone's own copy of the page, reloaded offline: the engine starts from its cache.
    phone.reload()
    expect(queued_rows(phone).nth(0)).to_have_class(re.compile("provisional"), timeout=90_000)
    expect_totals(phone, {"Anne": -10, "Bruno": 12, "Chloé": 7, "David": 30})
    # Meanwhile another phone records its donne: the server's marque is not the phone's.
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(phone.locator(".provisional-differs")).to_have_text(
        "Le serveur a compté autrement que ce téléphone : "
        "Anne −10 → 1, Bruno 12 → 2, Chloé 7 → 3, David 30 → −10."
    )
    expect_totals(phone, {"Anne": 1, "Bruno": 2, "Chloé": 3, "David": -10})
    shot(phone, "provisional-differs")


def test_a_worker_that_cannot_load_fails_and_the_next_start_tries_again(phone, alice):
    """The worker's script unreachable (offline before the service worker kept it, here a
    name that is not served): the engine's start fails instead of waiting for ever, and a
    later start makes a new worker."""
    partie = make_partie(alice, joueurs=FOUR)
    phone.goto(f"/parties/{partie.pk}/")
    phone.wait_for_selector("#donne-form[data-ready]")
    files = phone.locator("#engine-files")
    worker = files.get_attribute("data-worker")
    files.evaluate("el => { el.dataset.worker = '/static/js/no-such-worker.js'; }")
    # Not awaited here: page.evaluate has no timeout, and the start that hangs is the bug.
    phone.evaluate(
        "() => { RamiProvisional.engine().catch(e => { document.body.dataset.failed = e; }); }"
    )
    expect(phone.locator("body")).to_have_attribute(
        "data-failed", re.compile("^Error: engine worker")
    )
    files.evaluate("(el, url) => { el.dataset.worker = url; }", worker)
    phone.evaluate("RamiProvisional.engine()")
    expect(phone.locator("body")).to_have_attribute("data-engine", "ready", timeout=90_000)

"""Offline at the table: the phone keeps recording when the wifi drops, and
nothing is ever lost. Chromium at 390×844, its network cut by a relay in front of the test
server (tests/browser/relay.py), so that the service worker loses it too. Cast: alice keeps
the score."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Donne, Partie
from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS, PHONE, SCREENSHOTS
from tests.browser.login import log_in
from tests.browser.relay import Relay
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

FOUR = ["Anne", "Bruno", "Chloé", "David"]
STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture
def relay(live_server):
    relay = Relay(urlparse(live_server.url).port)
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def alice():
    return make_user("alice")


def _session_cookie(user, url: str) -> dict:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    return {"name": cookie.key, "value": cookie.value, "url": url}


@pytest.fixture
def phone(chromium, relay, alice):
    """A phone logged in as alice, talking to the server through the relay."""
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", base_url=relay.url)
    context.set_default_timeout(10_000)
    context.add_cookies([_session_cookie(alice, relay.url)])
    yield context.new_page()
    context.close()


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def open_controlled(page, partie: Partie) -> None:
    """Open the partie, wait for the service worker, and reload: the page is now its."""
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")


def record(page, winner: str, **points: int) -> None:
    page.locator("#donne-form .winner-grid label", has_text=re.compile(f"^{winner}$")).click()
    for name, value in points.items():
        page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input").fill(str(value))
    page.locator("#donne-save").click()


def until(page, predicate: str, arg=None, *, seconds: float = 10) -> None:
    """Wait for an asynchronous predicate (wait_for_function does not await a promise)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(predicate, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still false after {seconds} s: {predicate}")


def queued_rows(page):
    return page.locator("#marque tr.queued[data-cle]")


def stored(partie: Partie) -> list[tuple[int, str, dict[str, int]]]:
    """The donnes in the database: (number, winner, {loser: points})."""
    return [
        (
            d.number,
            d.winner.name,
            {h.joueur.name: h.points for h in d.hands.select_related("joueur")},
        )
        for d in Donne.objects.filter(partie=partie).order_by("number").select_related("winner")
    ]


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def until_kept(page, marker: str) -> None:
    """Wait until the worker keeps this page, for this account, as it now is (``marker`` in
    the kept copy)."""
    until(
        page,
        """marker => caches.keys()
            .then(names => names.find(name => name.startsWith("ramiscore-pages-")))
            .then(name => name ? caches.open(name) : null)
            .then(cache => cache ? cache.match(location.href) : null)
            .then(kept => kept ? kept.text() : "")
            .then(text => text.includes(marker))""",
        marker,
    )


def test_installable_manifest_icons_and_service_worker(client, phone, relay, alice):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.content)
    assert (data["name"], data["short_name"], data["start_url"]) == ("ramiscore", "ramiscore", "/")
    assert (data["display"], data["theme_color"]) == ("standalone", "#14532d")
    icons = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert icons == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    assert png_size(STATIC / "icons/icon-192.png") == (192, 192)
    assert png_size(STATIC / "icons/icon-maskable-512.png") == (512, 512)

    worker = client.get("/sw.js")
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    assert worker["Cache-Control"] == "no-cache"
    assert worker["Service-Worker-Allowed"] == "/"
    assert worker.content.startswith(b"self.RAMISCORE = {")

    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    assert phone.locator("link[rel=manifest]").get_attribute("href") == "/manifest.webmanifest"
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")


def test_offline_the_partie_reloads_from_the_phone(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=30))
    open_controlled(phone, partie)
    # A donne recorded online (an htmx swap): the worker keeps the page as it now is.
    record(phone, "Bruno", Anne=4, Chloé=5, David=6)
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 3"))
    until_kept(phone, f'data-partie="{partie.pk}" data-number="3"')
    relay.stop()
    phone.reload()
    # The marque as last seen, said to be so, and the form ready: never Chromium's error page.
    expect(phone.locator("#offline-banner")).to_contain_text(
        re.compile(r"Hors ligne · la marque telle que vue à \d\d:\d\d")
    )
    expect(phone.locator("#marque tbody tr").first).to_contain_text("12")
    expect(phone.locator("#marque tbody tr").nth(1)).to_contain_text("4")
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 3"))
    # A page never opened on this phone: ramiscore's own offline page.
    phone.goto("/parties/nouvelle/")
    expect(phone.locator("#offline-page h1")).to_have_text("Hors ligne")

    # Back to the partie, still offline; another phone records donne 3; the network comes
    # back: the page notices by itself (within its 10 s probe), says nothing of "hors ligne"
    # any more, and shows the marque as it now is.
    phone.goto(f"/parties/{partie.pk}/")
    expect(phone.locator("#offline-banner")).to_contain_text("Hors ligne")
    play(partie, "Chloé", "rami", Anne=hand(points=1), Bruno=hand(points=2), David=hand(points=3))
    relay.start()
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 4"), timeout=15_000)
    expect(phone.locator("#offline-banner")).to_be_hidden()


def test_a_dropped_registration_is_made_again_and_the_page_still_reloads_offline(
    phone, relay, alice
):
    """What Firefox ESR 153 does at times after a catch-up, done here on purpose."""
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    registered = "() => navigator.serviceWorker.getRegistration().then(r => Boolean(r && r.active))"
    phone.evaluate("navigator.serviceWorker.getRegistration().then(r => r.unregister())")
    assert not phone.evaluate(registered)
    # The next swap settles (a donne recorded online): the page registers the worker again.
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 2"))
    until(phone, registered)
    until_kept(phone, f'data-partie="{partie.pk}" data-number="2"')
    relay.stop()
    phone.reload()
    expect(phone.locator("#offline-banner")).to_contain_text("Hors ligne")
    expect(phone.locator("#marque tbody tr").first).to_contain_text("12")
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 2"))


def test_with_no_network_a_file_not_kept_is_answered_and_never_a_failure(phone, relay, alice):
    """A file the worker has not kept, asked with no network: an answer (503), not a failed
    fetch. Firefox counts a failed answer to a worker's script as a fault and, after three,
    unregisters the service worker (static/js/sw.js ``unreachable``)."""
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    # Whatever of the engine the page had kept already, gone: nothing of it can come back.
    forget = "caches.keys().then(keys => Promise.all(keys.filter(k => k.startsWith("
    phone.evaluate(forget + "'ramiscore-engine-')).map(k => caches.delete(k))))")
    # (no-store: past the browser's HTTP cache, which has answered some of them online)
    answer = """url => fetch(url, { cache: "no-store" }).then(
        r => [r.status, r.headers.get('Cache-Control')], error => String(error))"""
    files = phone.locator("#engine-files")
    for url in (  # the engine's Web Worker, Pyodide (never prefetched here), a static file
        files.get_attribute("data-worker"),
        files.get_attribute("data-pyodide") + "pyodide.mjs",
        "/static/js/not-kept.js",
    ):
        assert phone.evaluate(answer, url) == [503, "no-store"], url
    # The engine's worker, started offline, fails as a worker whose script cannot load.
    failed = """url => new Promise(done => {
        const worker = new Worker(url, { type: "module" });
        worker.onerror = () => done("error");
    })"""
    assert phone.evaluate(failed, files.get_attribute("data-worker")) == "error"
    assert phone.evaluate("navigator.serviceWorker.getRegistration().then(r => Boolean(r))")


def test_two_donnes_offline_wait_then_go_once_each_in_order(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone)).to_have_count(1)
    record(phone, "Chloé", Anne=5, Bruno=9, David=11)
    expect(queued_rows(phone)).to_have_count(2)
    expect(phone.locator("#offline-banner")).to_contain_text("2 donnes en attente d'envoi")
    rows = queued_rows(phone)
    expect(rows.nth(0).locator("th")).to_have_text("1◷")
    expect(rows.nth(0).locator(".queue-state")).to_have_attribute("title", "en attente")
    expect(rows.nth(1).locator("td")).to_have_text(["5", "9", "gagne", "11"])
    # Ready for the third, same players, a key of its own.
    expect(phone.locator("#donne-title")).to_have_text("Donne 3")
    # Who deals it is the server's rotation, once the two before it are there.
    expect(phone.locator(".dealer-select")).to_be_hidden()
    expect(phone.locator(".dealer-later")).to_have_text("au tour suivant, à l'envoi")
    # "Envoyer maintenant" with no network says so.
    phone.locator("#offline-banner .send-now").click()
    expect(phone.locator("#offline-banner")).to_contain_text(
        "Toujours pas de connexion : elles partiront dès son retour."
    )
    # Chrome's Background Sync is asked to send the queue, even if the app is closed.
    tags = phone.evaluate("navigator.serviceWorker.ready.then(r => r.sync.getTags())")
    assert tags == ["ramiscore-queue"]
    keys = phone.evaluate("RamiQueue.items().then(items => items.map(i => i.cle))")
    assert len(set(keys)) == 2
    assert phone.locator("#donne-form [name=idempotency_key]").input_value() not in keys
    shot(phone, "offline-waiting-rows")
    phone.emulate_media(color_scheme="dark")
    phone.set_viewport_size({"width": 844, "height": 390})
    shot(phone, "offline-waiting-rows-dark-landscape")
    phone.set_viewport_size(PHONE)
    assert stored(partie) == []

    relay.start()
    phone.locator("#offline-banner .send-now").click()
    expect(queued_rows(phone)).to_have_count(0)
    expect(phone.locator("#offline-banner")).to_be_hidden()
    assert stored(partie) == [
        (1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30}),
        (2, "Chloé", {"Anne": 5, "Bruno": 9, "David": 11}),
    ]
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 3"))


def test_the_same_queue_sent_twice_records_nothing_twice(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    record(phone, "Bruno", Anne=3, Chloé=4, David=5)
    expect(queued_rows(phone)).to_have_count(2)
    items = phone.evaluate("RamiQueue.items()")
    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(queued_rows(phone)).to_have_count(0)
    # The very same queue again (a phone that sent it, lost the answers, and sends again).
    phone.evaluate("items => Promise.all(items.map(i => RamiQueue.put(i)))", items)
    phone.evaluate("RamiQueue.flush()")
    until(phone, "() => RamiQueue.items().then(items => items.length === 0)")
    assert [n for n, _w, _h in stored(partie)] == [1, 2]
    assert Donne.objects.filter(partie=partie).count() == 2


def test_a_donne_queued_while_another_phone_records_is_shown_back(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone)).to_have_count(1)
    # Meanwhile phone B, online, records its donne.
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    relay.start()
    phone.evaluate("RamiOffline.send()")
    refused = phone.locator("#marque tr.queued.table-danger")
    expect(refused).to_have_count(1)
    # The refusal at the top of the screen, in the banner itself, in red.
    expect(phone.locator("#offline-banner.alert-danger .refusal-block")).to_contain_text(
        "Donne 1 refusée : La partie a changé ailleurs"
    )
    shot(phone, "offline-refused")
    assert [n for n, _w, _h in stored(partie)] == [1]  # B's, and nothing lost or doubled

    # Corriger: back in the form, on the fresh marque; saved, it comes after B's.
    phone.locator("#offline-banner .refusal-block button", has_text="Corriger").click()
    expect(queued_rows(phone)).to_have_count(0)
    expect(phone.locator("#donne-form .hand[data-joueur='David'] .points-input")).to_have_value(
        "30"
    )
    phone.locator("#donne-save").click()
    expect(phone.locator("#flash")).to_contain_text("Donne 2 notée")
    assert stored(partie) == [
        (1, "David", {"Anne": 1, "Bruno": 2, "Chloé": 3}),
        (2, "Anne", {"Bruno": 12, "Chloé": 7, "David": 30}),
    ]


def test_a_stale_csrf_token_and_an_expired_session_are_recovered(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_controlled(phone, partie)
    relay.stop()
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(queued_rows(phone)).to_have_count(1)
    relay.start()
    # Another tab logs out and in again: the session and the CSRF secret both change, and
    # the token this page holds is stale.
    other = phone.context.new_page()
    other.goto("/comptes/connexion/")
    other.context.clear_cookies()
    log_in(other, "alice")
    other.close()
    phone.evaluate("RamiOffline.send()")
    expect(phone.locator("#partie-body h1 + small")).to_have_text("1 donne")
    expect(queued_rows(phone)).to_have_count(0)
    assert [n for n, _w, _h in stored(partie)] == [1]

    # The session expires with a donne waiting: it waits for the login, then goes out.
    relay.stop()
    record(phone, "Bruno", Anne=4, Chloé=5, David=6)
    expect(queued_rows(phone)).to_have_count(1)
    phone.context.clear_cookies()
    relay.start()
    phone.evaluate("RamiOffline.send()")
    login = phone.locator("#offline-banner a", has_text="Se reconnecter")
    expect(login).to_be_visible()
    login.click()
    phone.fill("input[name=username]", "alice")
    phone.fill("input[name=password]", "cartes-sur-table")
    phone.locator("#main form button.btn-lg").click()
    phone.wait_for_url(re.compile(f"/parties/{partie.pk}/$"))
    expect(phone.locator("#partie-body h1 + small")).to_have_text("2 donnes")
    expect(queued_rows(phone)).to_have_count(0)
    assert [n for n, _w, _h in stored(partie)] == [1, 2]


def test_three_donnes_offline_survive_a_reload_and_a_closed_browser(
    chromium, relay, alice, tmp_path
):
    """Done when: the network cut in the middle of a partie, three donnes recorded, the page
    reloaded, the browser closed and reopened; back online, the three are in the marque once
    each, with the rachat they caused asked on the page."""
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=40), Chloé=hand(points=7), David=hand(points=3))

    def launch():
        context = chromium.browser_type.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=LAUNCH_ARGS,
            viewport=PHONE,
            locale="fr-FR",
            base_url=relay.url,
        )
        context.set_default_timeout(10_000)
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = launch()
    context.add_cookies([_session_cookie(alice, relay.url) | {"expires": 2_000_000_000}])
    open_controlled(page, partie)

    relay.stop()
    record(page, "Anne", Bruno=30, Chloé=8, David=2)  # Bruno 70
    record(page, "Chloé", Anne=6, Bruno=35, David=4)  # Bruno 105: crosses 100
    record(page, "David", Anne=9, Bruno=10, Chloé=11)
    expect(queued_rows(page)).to_have_count(3)
    page.reload()
    expect(queued_rows(page)).to_have_count(3)
    expect(page.locator("#offline-banner")).to_contain_text("3 donnes en attente d'envoi")
    shot(page, "offline-banner-three")
    context.close()

    context, page = launch()
    page.goto(f"/parties/{partie.pk}/")
    expect(queued_rows(page)).to_have_count(3)
    assert len(stored(partie)) == 1

    relay.start()
    page.reload()
    # Donnes 2 and 3 go; Bruno crossed at 3: his rachat is asked, donne 4 waits behind it.
    rachat = page.locator(".rachat-card[data-joueur='Bruno']")
    expect(rachat).to_be_visible()
    expect(queued_rows(page)).to_have_count(1)
    # The banner says what the donne still on the phone waits for.
    expect(page.locator("#offline-banner")).to_contain_text(
        "1 donne en attente d'envoi · Elle attend la décision de rachat ci-dessous."
    )
    assert [n for n, _w, _h in stored(partie)] == [1, 2, 3]
    shot(page, "offline-rachat-asked")
    rachat.locator("button", has_text="Se racheter").click()
    expect(page.locator("#partie-body h1 + small")).to_have_text("4 donnes")
    expect(queued_rows(page)).to_have_count(0)
    assert stored(partie) == [
        (1, "Anne", {"Bruno": 40, "Chloé": 7, "David": 3}),
        (2, "Anne", {"Bruno": 30, "Chloé": 8, "David": 2}),
        (3, "Chloé", {"Anne": 6, "Bruno": 35, "David": 4}),
        (4, "David", {"Anne": 9, "Bruno": 10, "Chloé": 11}),
    ]
    context.close()

"""Offline at the table, as deployed: Chromium at phone size over HTTPS through Caddy, the
service worker of the collected, hashed static files. The relay (tests/browser/relay.py)
stands between the phone and Caddy: the wifi that drops. Cast: alice keeps the score of a
partie of her own, new for each test."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.relay import Relay
from tests.browser.test_offline import open_controlled, queued_rows, record, until_kept
from tests.production.stack import Client

FOUR = ["Anne", "Bruno", "Chloé", "David"]


@pytest.fixture
def relay(production):
    relay = Relay(production.caddy.port)
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def alice(production) -> Client:
    client = Client(production.caddy.port, tls=True)
    assert client.login("alice") == 302
    return client


@pytest.fixture
def partie(alice) -> int:
    """A new partie of alice's, made through the new-partie form."""
    fields = {
        "name": "Jeudi",
        "preset": "classique",
        "joueurs": FOUR,
        "mise_initiale": "0",
        "rachat_price": "0",
        "point_value": "0",
        "settlement": "gagnant",
        "currency": "EUR",
    }
    status, headers, _body = alice.post_form("/parties/nouvelle/", fields)
    assert status == 302, status
    return int(re.search(r"/parties/(\d+)/", headers["Location"])[1])


@pytest.fixture
def phone(tls_chromium, relay, alice):
    """A phone logged in as alice (her session), at https://localhost:<relay>."""
    url = f"https://localhost:{relay.port}"
    context = tls_chromium.new_context(viewport=PHONE, locale="fr-FR", base_url=url)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {"name": name, "value": value, "url": url, "secure": True}
            for name, value in alice.cookies.items()
        ]
    )
    yield context.new_page()
    context.close()


def donnes(alice: Client, partie: int) -> list[tuple[int, str]]:
    _status, _headers, body = alice.request("GET", f"/parties/{partie}/export.json")
    record = json.loads(body)["record"]
    return [(n, d["winner"]) for n, d in enumerate(record["donnes"], start=1)]


def test_the_service_worker_installs_and_controls_the_page_over_https(phone, partie) -> None:
    open_controlled(phone, SimpleNamespace(pk=partie))
    assert phone.evaluate("location.protocol") == "https:"
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    # The shell it kept is the collected files, under their hashed names.
    kept = phone.evaluate(
        """() => caches.keys().then(names => Promise.all(names.map(name =>
            caches.open(name).then(c => c.keys()).then(rs => rs.map(r => r.url))))).then(
            lists => lists.flat())"""
    )
    assert any(re.search(r"/static/js/queue\.[0-9a-f]{12}\.js$", url) for url in kept), kept


def test_offline_reload_shows_the_kept_marque_and_a_queued_donne_catches_up(
    phone, relay, alice, partie
) -> None:
    open_controlled(phone, SimpleNamespace(pk=partie))
    record(phone, "Anne", Bruno=12, Chloé=7, David=30)
    expect(phone.locator("#donne-title")).to_have_text(re.compile("^Donne 2"))
    until_kept(phone, f'data-partie="{partie}" data-number="2"')
    relay.stop()
    phone.reload()
    expect(phone.locator("#offline-banner")).to_contain_text(
        re.compile(r"Hors ligne · la marque telle que vue à \d\d:\d\d")
    )
    expect(phone.locator("#marque tbody tr").first).to_contain_text("12")

    record(phone, "Chloé", Anne=5, Bruno=9, David=11)
    expect(queued_rows(phone)).to_have_count(1)
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "production-offline-queued.png"), full_page=True)
    assert donnes(alice, partie) == [(1, "Anne")]

    relay.start()
    phone.locator("#offline-banner .send-now").click()
    expect(queued_rows(phone)).to_have_count(0)
    expect(phone.locator("#offline-banner")).to_be_hidden()
    assert donnes(alice, partie) == [(1, "Anne"), (2, "Chloé")]

"""The pages a phone keeps for offline: from the first visit, listed on the offline page, and
only ever for the account that opened them (ramiscore/offline_account.py, static/js/sw.js).
Chromium at 390×844 behind the relay (tests/browser/relay.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ramiscore.offline_account import account_marker
from tests.browser import test_offline
from tests.browser.login import log_in
from tests.browser.test_offline import (
    FOUR,
    _session_cookie,
    shot,
)
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

# The offline tests' phone, relay and alice, shared.
alice = test_offline.alice
relay = test_offline.relay

KEPT_NAMES = (
    "() => caches.keys().then(names => names.filter(n => n.startsWith('ramiscore-pages-')))"
)


@pytest.fixture
def fresh(chromium, relay):
    """A browser that never opened ramiscore: no worker, no cache, no cookie."""
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale="fr-FR", base_url=relay.url
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


def kept(page, marker: str, path: str) -> bool:
    return page.evaluate(
        "([name, path]) => caches.open(name).then(c => c.match(location.origin + path))"
        ".then(r => Boolean(r))",
        [f"ramiscore-pages-{marker}", path],
    )


def test_the_first_visit_is_kept_and_the_offline_page_lists_it(fresh, relay, alice):
    partie = make_partie(alice, joueurs=FOUR, name="Mardi chez Anne")
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=30))
    fresh.add_cookies([_session_cookie(alice, relay.url)])
    page = fresh.new_page()
    # One visit, in a browser that never saw ramiscore: the worker is not yet in control.
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    marker = account_marker(alice.pk)
    for _ in range(100):
        if kept(page, marker, f"/parties/{partie.pk}/"):
            break
        page.wait_for_timeout(100)
    assert kept(page, marker, f"/parties/{partie.pk}/")

    relay.stop()
    page.reload()
    expect(page.locator("#offline-banner")).to_contain_text("Hors ligne")
    expect(page.locator("#marque tbody tr").first).to_contain_text("12")
    expect(page.locator("#donne-form[data-ready]")).to_have_count(1)
    # A page never opened: the offline page, with the partie kept for this account.
    page.goto("/parties/nouvelle/")
    expect(page.locator("#offline-page h1")).to_have_text("Hors ligne")
    link = page.locator("#kept-parties a")
    expect(link).to_have_text(["Mardi chez Anne"])
    expect(page.locator("#offline-login")).to_be_hidden()
    shot(page, "offline-page-kept-parties")
    page.emulate_media(color_scheme="dark")
    shot(page, "offline-page-kept-parties-dark")
    link.click()
    expect(page.locator("#partie-body h1")).to_have_text("Mardi chez Anne")

    # The connection back, on the offline page: it returns to the page asked for by itself.
    page.goto("/parties/nouvelle/")
    expect(page.locator("#offline-page")).to_be_visible()
    relay.start()
    expect(page.locator("#partie-form")).to_be_visible(timeout=8000)


def test_two_accounts_on_one_phone_never_see_each_other(fresh, relay, alice):
    bob = make_user("bob")
    partie = make_partie(alice, joueurs=FOUR, name="La partie d'Alice")
    fresh.add_cookies([_session_cookie(alice, relay.url)])
    page = fresh.new_page()
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    alice_marker = account_marker(alice.pk)
    for _ in range(100):
        if kept(page, alice_marker, f"/parties/{partie.pk}/"):
            break
        page.wait_for_timeout(100)
    assert kept(page, alice_marker, f"/parties/{partie.pk}/")

    # Alice's session expires: the cookies are gone, nobody logged out. Offline, her marque
    # is not shown to a browser without a session: the offline page asks to log in again.
    fresh.clear_cookies()
    relay.stop()
    page.goto(f"/parties/{partie.pk}/")
    expect(page.locator("#offline-page h1")).to_have_text("Hors ligne")
    expect(page.locator("#partie-body")).to_have_count(0)
    expect(page.locator("#offline-login")).to_be_visible()
    expect(page.locator("#kept-parties a")).to_have_count(0)
    shot(page, "offline-page-login-again")

    # Bob logs in on the same phone. Offline at once: Alice's marque is not his.
    relay.start()
    log_in(page, "bob")
    relay.stop()
    page.goto(f"/parties/{partie.pk}/")
    expect(page.locator("#offline-page h1")).to_have_text("Hors ligne")
    expect(page.locator("#partie-body")).to_have_count(0)
    expect(page.locator("#offline-login")).to_be_hidden()
    expect(page.locator("#kept-parties a")).to_have_count(0)

    # Online again, his first page kept empties what Alice's account kept on this phone.
    relay.start()
    page.goto("/")
    bob_marker = account_marker(bob.pk)
    for _ in range(100):
        if page.evaluate(KEPT_NAMES) == [f"ramiscore-pages-{bob_marker}"]:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(KEPT_NAMES) == [f"ramiscore-pages-{bob_marker}"]
    assert page.content().count("La partie d'Alice") == 0

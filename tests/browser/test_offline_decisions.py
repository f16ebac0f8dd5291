"""The decisions of a partie taken offline, on the phone: the engine itself (games/scoring
under Pyodide, static/js/provisional.js) says who crosses the seuil, with the restart score
and price of the rachat; the table's answer and the end by hand wait in the queue in order
with the donnes and go through the same services at reconnection. Chromium at 390×844, the
network cut for the page and its service worker by the relay of the offline tests
(tests/browser/relay.py). Cast: alice keeps the score of a classique partie."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Rachat
from tests.browser import test_offline as offline
from tests.browser.test_offline import FOUR, queued_rows, record, shot, stored
from tests.browser.test_provisional import ready_offline, scoreboard
from tests.factories import make_partie

pytestmark = pytest.mark.django_db(transaction=True)
alice, phone, relay = offline.alice, offline.phone, offline.relay


def shots(page, name: str) -> None:
    """The screen from its top, light then dark."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name)
    page.emulate_media(color_scheme="dark")
    shot(page, name + "-dark")
    page.emulate_media(color_scheme="light")


def rachat_card(page, name: str):
    return page.locator(f".offline-rachat[data-joueur='{name}']")


def test_a_partie_with_two_rachats_and_its_end_offline_then_on_the_server(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR, stake=Decimal("1.00"), rachat_price=Decimal("2.00"))
    ready_offline(phone, relay, partie)

    record(phone, "Anne", Bruno=12, Chloé=7, David=95)
    record(phone, "Chloé", Anne=3, Bruno=8, David=20)
    # David reaches 115: the engine's card, its restart score and price (docs/rules.md R5, R6).
    card = rachat_card(phone, "David")
    expect(card).to_contain_text(
        "David atteint 115 — se racheter (rachat n° 1, 2,00\u00a0€) et repartir à 20 ?"
    )
    shots(phone, "offline-rachat-card")
    card.locator(".offline-racheter").click()
    expect(card).to_have_count(0)
    expect(phone.locator("#marque tr.queued-decision span")).to_have_text(
        "David se rachète (donne 2) : décidé sur ce téléphone"
    )
    assert scoreboard(phone) == {"Anne": -7, "Bruno": 20, "Chloé": -3, "David": 20}
    # The next donne's number is the engine's.
    expect(phone.locator("#donne-title")).to_contain_text("3")

    record(phone, "Anne", Bruno=90, Chloé=10, David=5)
    card = rachat_card(phone, "Bruno")
    expect(card).to_contain_text("Bruno atteint 110")
    card.locator(".offline-racheter").click()
    expect(card).to_have_count(0)
    record(phone, "David", Anne=30, Bruno=4, Chloé=6)
    expect(queued_rows(phone)).to_have_count(6)  # four donnes, two decisions
    phone_totals = scoreboard(phone)
    assert phone_totals == {"Anne": 13, "Bruno": 29, "Chloé": 13, "David": 15}

    # "Terminer la partie": queued behind them; the result, the engine's, in place of the form.
    phone.locator("#actions summary").click()
    phone.locator("#actions form button").click()
    result = phone.locator("#resultat-provisoire")
    expect(result).to_be_visible()
    expect(phone.locator("#donne-card")).to_be_hidden()
    shots(phone, "offline-partie-ended")
    ranking = result.locator("ol li").all_inner_texts()
    assert ranking == ["1. Anne\n13", "1. Chloé\n13", "3. David\n15", "4. Bruno\n29"]
    # Stakes 4 × 1,00 € and two rachats at 2,00 €: the pot of 8,00 € shared by the winners.
    expect(result.locator(".provisional-money")).to_have_text(
        "Règlement : Anne +3,00\u00a0€, Bruno −3,00\u00a0€, Chloé +3,00\u00a0€, David −3,00\u00a0€"
    )
    assert stored(partie) == []

    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(queued_rows(phone)).to_have_count(0, timeout=20_000)
    expect(phone.locator("#resultat")).to_be_visible()
    assert [n for n, _w, _h in stored(partie)] == [1, 2, 3, 4]
    assert list(
        Rachat.objects.filter(donne__partie=partie)
        .order_by("donne__number")
        .values_list("donne__number", "joueur__name", "accepted")
    ) == [(2, "David", True), (3, "Bruno", True)]
    partie.refresh_from_db()
    assert partie.ended is True
    assert scoreboard(phone) == phone_totals
    assert phone.locator("#resultat ol li").all_inner_texts() == ranking
    assert phone.locator(".provisional-differs").count() == 0
    shots(phone, "offline-partie-on-the-server")

"""The decisions of a partie taken offline, on the phone: the engine itself (games/scoring
under Pyodide, static/js/provisional.js) says who crosses the seuil, with the restart score
and price of the rachat; the table's answer and the end by hand wait in the queue in order
with the donnes and go through the same services at reconnection. Chromium at 390×844, the
network cut for the page and its service worker by the relay of the offline tests
(tests/browser/relay.py). Cast: alice keeps the score of a classique partie."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Partie, Rachat
from tests.browser import test_offline as offline
from tests.browser.scoreboard import expect_totals
from tests.browser.test_offline import FOUR, queued_rows, record, shot, stored, until
from tests.browser.test_provisional import ENGINE_KEPT, ready_offline
from tests.factories import hand, make_partie, play

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


def test_a_whole_evening_offline_two_parties_then_on_the_server_in_order(phone, relay, alice):
    """With the network cut before the first donne: a partie of classique with two rachats,
    ended by hand, then the next one with the same players and three donnes; back online,
    both parties on the server once each, in order, with the totals the phone showed."""
    partie = make_partie(
        alice, joueurs=FOUR, mise_initiale=Decimal("1.00"), rachat_price=Decimal("2.00")
    )
    ready_offline(phone, relay, partie)

    record(phone, "Anne", Bruno=12, Chloé=7, David=95)
    record(phone, "Chloé", Anne=3, Bruno=8, David=20)
    # David reaches 115: the engine's card, its restart score and price (docs/rules.md R5, R6).
    card = rachat_card(phone, "David")
    expect(card).to_contain_text(
        "David atteint 115 — rachat n° 1 (2,00\u00a0€) pour repartir à 20 ?"
    )
    shots(phone, "offline-rachat-card")
    card.locator(".offline-racheter").click()
    expect(card).to_have_count(0)
    expect(phone.locator("#marque tr.queued-decision span")).to_have_text(
        "David se rachète (donne 2) : décidé sur ce téléphone"
    )
    expect_totals(phone, {"Anne": -7, "Bruno": 20, "Chloé": -3, "David": 20})
    # The next donne's number is the engine's.
    expect(phone.locator("#donne-title")).to_contain_text("3")

    record(phone, "Anne", Bruno=90, Chloé=10, David=5)
    card = rachat_card(phone, "Bruno")
    expect(card).to_contain_text("Bruno atteint 110")
    card.locator(".offline-racheter").click()
    expect(card).to_have_count(0)
    record(phone, "David", Anne=30, Bruno=4, Chloé=6)
    expect(queued_rows(phone)).to_have_count(6)  # four donnes, two decisions
    phone_totals = {"Anne": 13, "Bruno": 29, "Chloé": 13, "David": 15}
    expect_totals(phone, phone_totals)

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

    # "Rejouer avec les mêmes joueurs": the next partie, on the phone, with three donnes.
    phone.locator(".offline-rematch").click()
    expect(phone.locator("#partie-body h1")).to_have_text("Nouvelle partie (à envoyer)")
    expect(phone.locator("#donne-title")).to_contain_text("Donne 1")
    expect_totals(phone, {"Anne": 0, "Bruno": 0, "Chloé": 0, "David": 0})
    record(phone, "Bruno", Anne=10, Chloé=20, David=30)
    record(phone, "Anne", Bruno=5, Chloé=15, David=25)
    record(phone, "Chloé", Anne=8, Bruno=9, David=40)
    expect(queued_rows(phone)).to_have_count(3)
    expect(phone.locator("#donne-title")).to_contain_text("Donne 4")
    second_totals = {"Anne": 8, "Bruno": 4, "Chloé": 25, "David": 95}
    expect_totals(phone, second_totals)
    shots(phone, "offline-next-partie")
    # A reload offline: the last partie's kept page, ended; "Rejouer" goes back to the same
    # next partie, with its three donnes, never to a second one.
    phone.reload()
    expect(phone.locator(".offline-rematch")).to_be_visible(timeout=90_000)
    expect(phone.locator("#marque tr.queued-decision span").last).to_have_text(
        "Partie suivante, commencée sur ce téléphone"
    )
    phone.locator(".offline-rematch").click()
    expect(queued_rows(phone)).to_have_count(3)
    expect(phone.locator("#scoreboard")).to_have_class(re.compile("is-provisional"))
    expect_totals(phone, second_totals)
    assert Partie.objects.count() == 1

    relay.start()
    phone.evaluate("RamiOffline.send()")
    # The page becomes the new partie's own, from the server, once all is sent.
    # (The last partie's own URL matches the pattern too: wait for another one.)
    first_url = f"/parties/{partie.pk}/"
    phone.wait_for_url(
        lambda url: re.search(r"/parties/\d+/$", url) and not url.endswith(first_url),
        timeout=60_000,
    )
    expect(phone.locator("#marque tbody tr:not(.queued)")).to_have_count(3, timeout=20_000)
    first, second = Partie.objects.order_by("pk")
    assert first.pk == partie.pk
    assert phone.url.endswith(f"/parties/{second.pk}/")
    assert [n for n, _w, _h in stored(first)] == [1, 2, 3, 4]
    assert list(
        Rachat.objects.filter(donne__partie=first)
        .order_by("donne__number")
        .values_list("donne__number", "joueur__name", "accepted")
    ) == [(2, "David", True), (3, "Bruno", True)]
    first.refresh_from_db()
    assert first.ended is True
    assert stored(second) == [
        (1, "Bruno", {"Anne": 10, "Chloé": 20, "David": 30}),
        (2, "Anne", {"Bruno": 5, "Chloé": 15, "David": 25}),
        (3, "Chloé", {"Anne": 8, "Bruno": 9, "David": 40}),
    ]
    assert [j.name for j in second.joueurs.order_by("seat")] == FOUR
    assert (second.mise_initiale, second.rachat_price) == (first.mise_initiale, first.rachat_price)
    expect_totals(phone, second_totals)
    assert phone.locator(".provisional-differs").count() == 0
    shots(phone, "offline-next-partie-on-the-server")

    # The first partie, as the server has it: the totals and the result the phone showed.
    phone.goto(f"/parties/{first.pk}/")
    expect_totals(phone, phone_totals)
    assert phone.locator("#resultat ol li").all_inner_texts() == ranking
    shots(phone, "offline-partie-on-the-server")


def test_the_servers_rachat_card_answered_offline_goes_first_then_the_donnes(phone, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    # David reaches 110 on the server before the network goes: its card is the server's.
    play(
        partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=110)
    )
    # The page kept, the engine kept, the network cut (ready_offline, with the form hidden).
    phone.goto(f"/parties/{partie.pk}/")
    phone.wait_for_selector("#donne-form[data-ready]", state="attached")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()
    phone.wait_for_selector("#donne-form[data-ready]", state="attached")
    until(phone, ENGINE_KEPT, seconds=60)
    relay.stop()
    # Behind the card the form waits; answered offline, it is back.
    expect(phone.locator("#donne-form")).to_be_hidden()
    card = phone.locator(".rachat-card[data-joueur='David']")
    card.locator("button[value=racheter]").click()
    expect(card).to_be_hidden()
    expect(phone.locator("#donne-form")).to_be_visible()
    record(phone, "Bruno", Anne=4, Chloé=5, David=6)
    expect(phone.locator("#marque tr.queued-decision span")).to_have_text(
        "David se rachète (donne 1) : décidé sur ce téléphone"
    )
    record(phone, "Chloé", Anne=1, Bruno=2, David=3)
    expect(queued_rows(phone)).to_have_count(3)
    shots(phone, "offline-server-card-answered")

    relay.start()
    phone.evaluate("RamiOffline.send()")
    expect(queued_rows(phone)).to_have_count(0, timeout=20_000)
    assert stored(partie) == [
        (1, "Anne", {"Bruno": 12, "Chloé": 7, "David": 110}),
        (2, "Bruno", {"Anne": 4, "Chloé": 5, "David": 6}),
        (3, "Chloé", {"Anne": 1, "Bruno": 2, "David": 3}),
    ]
    assert list(Rachat.objects.values_list("donne__number", "joueur__name", "accepted")) == [
        (1, "David", True)
    ]
    expect(phone.locator(".rachat-card")).to_have_count(0)

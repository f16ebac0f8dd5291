"""Table-proof recording (issue "a mis-tap, a typo, a reload or a lost connection never costs
the scorekeeper a donne"), on a 390×844 phone in Chromium. Cast: alice keeps the score; the
players are at the table, not users."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Donne, Partie
from tests.browser.scoreboard import expect_totals, totals
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

FOUR = ["Anne", "Bruno", "Chloé", "David"]
SEVEN = ["Anne", "Bruno", "Chloé", "David", "Ève", "Farid", "Gaëlle"]
LANDSCAPE = {"width": 844, "height": 390}


def _login(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def alice(page, live_server):
    user = make_user("alice")
    _login(page, live_server, user)
    return user


def open_partie(page, partie: Partie) -> None:
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")


def winner(page, name: str):
    return page.locator("#donne-form .winner-grid label", has_text=re.compile(f"^{name}$"))


def points(page, name: str):
    return page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input")


def box(page, selector: str) -> dict[str, float]:
    return page.locator(selector).first.bounding_box()


def test_an_ordinary_donne_fits_one_screen_and_takes_seven_gestures(page, alice, screenshot):
    partie = make_partie(alice, joueurs=FOUR)
    open_partie(page, partie)
    screenshot("table-4-portrait", full_page=False)
    # Everything from the first winner button to the save button is on the first screen.
    first = box(page, "#donne-form .winner-grid label")
    save = box(page, "#donne-save")
    assert page.evaluate("window.scrollY") == 0
    assert first["y"] >= 0 and save["y"] + save["height"] <= 844
    # The scoreboard: one row, at most a fifth of the screen.
    board = box(page, "#scoreboard")
    assert board["height"] <= 844 / 5
    # The help text of the win types waits behind a "?".
    expect(page.locator(".rule-help-text")).to_be_hidden()

    # 1: tap the winner; the focus is on the first loser's points (numeric keypad).
    winner(page, "Anne").click()
    expect(points(page, "Bruno")).to_be_focused()
    assert points(page, "Bruno").get_attribute("inputmode") == "numeric"
    # 2–6: points, next, points, next, points; 7: the keypad's last key saves.
    page.keyboard.type("25")
    page.keyboard.press("Enter")
    expect(points(page, "Chloé")).to_be_focused()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    expect(points(page, "David")).to_be_focused()
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Donne 1 notée.")
    expect_totals(page, {"Anne": -10, "Bruno": 25, "Chloé": 12, "David": 30})
    # The saved donne's draft is gone: the next form is blank, with nothing to offer.
    expect(page.locator(".draft-notice")).to_have_count(0)
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    expect(page.locator(".draft-notice")).to_have_count(0)
    # Undo within reach: right under the latest row of the marque.
    assert page.locator("#marque #annuler summary").inner_text() == "Annuler la dernière donne (1)"

    page.set_viewport_size(LANDSCAPE)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("table-4-landscape", full_page=False)
    assert box(page, "#scoreboard")["height"] <= 390 / 5


def test_seven_players_keep_one_scoreboard_row_and_one_short_scroll(page, alice, screenshot):
    partie = make_partie(alice, joueurs=SEVEN, preset="rami51")
    play(partie, "Anne", "sortie", **{n: hand(points=10 * i) for i, n in enumerate(SEVEN[1:], 1)})
    open_partie(page, partie)
    screenshot("table-7-portrait", full_page=False)
    tops = {round(p.bounding_box()["y"]) for p in page.locator("#scoreboard .player").all()}
    assert len(tops) == 1  # one row
    assert box(page, "#scoreboard")["height"] <= 844 / 5
    first = box(page, "#donne-form .winner-grid label")
    save = box(page, "#donne-save")
    assert save["y"] + save["height"] - first["y"] <= 844  # at most one short scroll
    # The marque does not overflow sideways.
    wrap = page.locator("#marque .marque-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    page.set_viewport_size(LANDSCAPE)
    screenshot("table-7-landscape", full_page=False)
    assert box(page, "#scoreboard")["height"] <= 390 / 5
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot("table-7-full")


def test_enter_in_the_first_points_field_does_not_save(page, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("25")
    points(page, "Bruno").press("Enter")
    expect(points(page, "Chloé")).to_be_focused()
    page.wait_for_timeout(300)
    assert not Donne.objects.exists()
    expect(page.locator("#donne-errors")).to_have_count(0)


def test_a_refused_save_shows_a_summary_in_view_that_leads_to_each_field(page, alice, screenshot):
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("25")
    page.locator("#donne-save").click()
    errors = page.locator("#donne-errors")
    expect(errors).to_be_focused()
    expect(errors).to_be_in_viewport()
    items = errors.locator("li").all_inner_texts()
    assert items == [
        "Il manque les points de Chloé : tapez-les, ou touchez ses cartes.",
        "Il manque les points de David : tapez-les, ou touchez ses cartes.",
    ]
    screenshot("table-refused", full_page=False)
    # The message stays next to its field too, and the link goes there.
    expect(page.locator(".hand[data-joueur='David'] .invalid-feedback")).to_have_count(1)
    errors.get_by_role("link", name=re.compile("David")).click()
    expect(points(page, "David")).to_be_focused()
    expect(points(page, "David")).to_be_in_viewport()
    assert Donne.objects.count() == 1


def test_a_reload_keeps_the_draft_and_a_save_clears_it(page, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_partie(page, partie)
    winner(page, "Bruno").click()
    page.locator("#win-types label", has_text="Rami de la main").click()
    points(page, "Anne").fill("10")
    hand_row = page.locator(".hand[data-joueur='Chloé']")
    hand_row.locator(".picker-toggle").click()
    for card in ("R", "2"):
        hand_row.locator(f"[data-card='{card}']").click()
    hand_row.locator(".jokers-select").select_option("1")
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    expect(page.locator(".draft-notice")).to_contain_text("Brouillon repris")
    expect(page.locator("#id_winner_1")).to_be_checked()
    expect(page.locator("#donne-form input[name=win][value=rami_de_la_main]")).to_be_checked()
    expect(points(page, "Anne")).to_have_value("10")
    expect(hand_row.locator(".cards-input")).to_have_value("R 2")
    expect(hand_row.locator(".jokers-select")).to_have_value("1")
    points(page, "David").fill("5")
    page.locator("#donne-save").click()
    page.wait_for_selector("text=Donne 1 notée.")
    # (10 + 2 + 10) × 4 = 88 for Chloé: rami de la main with a joker (docs/rules.md R1).
    expect_totals(page, {"Anne": 20, "Bruno": -20, "Chloé": 88, "David": 10})
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    expect(page.locator(".draft-notice")).to_have_count(0)
    expect(page.locator("input[name=winner]:checked")).to_have_count(0)


def test_a_draft_is_not_restored_silently_onto_a_partie_that_changed(page, alice):
    partie = make_partie(alice, joueurs=FOUR)
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("7")
    play(partie, "David", "rami", Anne=hand("K"), Bruno=hand("2"), Chloé=hand("3"))  # elsewhere
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    notice = page.locator(".draft-notice")
    expect(notice).to_contain_text("la partie a changé depuis")
    expect(points(page, "Bruno")).to_have_value("")
    notice.get_by_role("button", name="Le reprendre").click()
    expect(points(page, "Bruno")).to_have_value("7")


def test_700_points_wait_for_a_confirmation(page, alice):
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Ève"])
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("5")
    points(page, "Ève").fill("700")
    page.locator("#donne-save").click()
    errors = page.locator("#donne-errors")
    expect(errors).to_contain_text("700 points pour Ève : c'est bien ça ?")
    assert not Donne.objects.exists()
    expect(page.locator(".rachat-card")).to_have_count(0)
    page.get_by_label("Oui, c'est bien ça").check()
    page.locator("#donne-save").click()
    page.wait_for_selector("text=Donne 1 notée.")
    assert totals(page)["Ève"] == 700


def test_abandon_needs_a_second_tap_and_the_decision_can_be_changed(page, alice):
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand(points=20), Chloé=hand(points=120))
    page.goto(f"/parties/{partie.pk}/")
    card = page.locator(".rachat-card")
    card.locator("summary", has_text="Abandonner").click()
    page.wait_for_timeout(300)
    assert card.count() == 1  # one tap decided nothing
    card.get_by_role("button", name="Oui, Chloé abandonne").click()
    page.wait_for_selector("text=Chloé abandonne et quitte la partie, à 120 points.")
    expect(page.locator(".player[data-joueur='Chloé'] .status")).to_have_text("éliminé")

    # A mis-tap: change it from the donne's page; the partie is replayed.
    page.locator("#marque a.donne-link", has_text=re.compile("^1$")).click()
    decision = page.locator("#decisions .decision[data-joueur='Chloé']")
    decision.locator("summary").click()
    decision.get_by_role("button", name="Oui, Chloé se rachète").click()
    page.wait_for_selector("text=Donne 1 : Chloé se rachète finalement.")
    expect(page.locator("#flash")).to_contain_text("Totaux modifiés : Chloé 120 → 20.")
    expect_totals(page, {"Anne": -10, "Bruno": 20, "Chloé": 20})
    expect(page.locator(".hand[data-joueur='Chloé']")).to_have_count(1)


def test_a_decision_the_later_donnes_contradict_is_refused(page, alice):
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand(points=20), Chloé=hand(points=120))
    decide(partie, "Chloé", True)
    play(partie, "Chloé", "rami", Anne=hand(points=3), Bruno=hand(points=4))
    page.goto(f"/parties/{partie.pk}/donnes/1/")
    decision = page.locator("#decisions .decision[data-joueur='Chloé']")
    decision.locator("summary").click()
    decision.get_by_role("button", name="Oui, Chloé abandonne").click()
    expect(page.locator("body")).to_contain_text("La décision de Chloé n'a pas changé : Donne 2 :")


def test_offline_a_save_is_kept_and_sent_once_with_its_key(page, alice):
    """A save with no connection is kept on the phone (tests/browser/test_offline.py
    for the whole of it); one whose answer is lost on the way back is sent again with the same
    idempotency key, and recorded once."""
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("5")
    points(page, "Chloé").fill("8")
    page.context.set_offline(True)
    page.locator("#donne-save").click()
    expect(page.locator("#marque tr.queued[data-cle]")).to_have_count(1)
    expect(page.locator("#offline-banner")).to_contain_text("1 donne en attente d'envoi")
    expect(points(page, "Chloé")).to_have_value("")  # ready for the next donne
    assert Donne.objects.count() == 0
    page.context.set_offline(False)  # the browser's "online" event sends the queue
    expect(page.locator("#marque tr.queued[data-cle]")).to_have_count(0)
    expect(page.locator("#partie-body h1 + small")).to_have_text("1 donne")
    assert Donne.objects.count() == 1

    # Worse: the save reaches the server, but its answer is lost on the way back.
    lost = []

    def lose_answer(route):
        if not lost:
            lost.append(route.fetch().status)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r"/donnes/$"), lose_answer)
    winner(page, "Bruno").click()
    points(page, "Anne").fill("3")
    points(page, "Chloé").fill("4")
    page.locator("#donne-save").click()
    expect(page.locator("#partie-body h1 + small")).to_have_text("2 donnes")
    expect(page.locator("#marque tr.queued[data-cle]")).to_have_count(0)
    assert lost == [200]
    assert Donne.objects.count() == 2  # the same idempotency key: never twice
    expect_totals(page, {"Anne": -7, "Bruno": -5, "Chloé": 12})


def test_a_flat_win_saves_with_no_hands(page, alice):
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"], preset="rami51")
    open_partie(page, partie)
    winner(page, "Anne").click()
    page.locator("#win-types label", has_text="Rami sec").click()
    expect(page.locator("#hands")).to_be_hidden()
    expect(page.locator(".no-hands-note:visible")).to_have_text(
        "Rami sec : chaque perdant marque 200 points, sans compter sa main."
    )
    page.locator("#donne-save").click()
    page.wait_for_selector("text=Donne 1 notée.")
    # docs/rules.md R17/R27: 200 to each loser, no hand needed.
    expect_totals(page, {"Anne": 0, "Bruno": 200, "Chloé": 200})


def test_an_exclusion_and_the_end_of_the_partie_are_said_in_sentences(page, alice, screenshot):
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"], max_rachats=0)
    open_partie(page, partie)
    winner(page, "Anne").click()
    points(page, "Bruno").fill("60")
    points(page, "Chloé").fill("5")
    page.get_by_label("Oui, c'est bien ça").count()  # nothing implausible here
    page.locator("#donne-save").click()
    page.wait_for_selector("text=Donne 1 notée.")
    # 60 × 1 = 60 < 100; a second donne takes Bruno over with no rachat allowed (R8).
    winner(page, "Chloé").click()
    points(page, "Anne").fill("4")
    points(page, "Bruno").fill("45")
    page.locator("#donne-save").click()
    flash = page.locator("#flash")
    expect(flash).to_contain_text(
        "Bruno franchit le seuil sans rachat possible : exclusion définitive."
    )
    winner(page, "Anne").click()
    points(page, "Chloé").fill("120")
    page.locator("#donne-save").click()
    expect(flash).to_contain_text("Partie terminée : Anne gagne (un seul joueur reste en course).")
    expect(page.locator("#fin-partie")).to_have_text(
        "Partie terminée : Anne gagne (un seul joueur reste en course)."
    )
    screenshot("table-fin", full_page=False)

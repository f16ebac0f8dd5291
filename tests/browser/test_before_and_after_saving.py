"""Before the tap, the form says what the donne would do (the totals after it, a crossing, an
implausible hand); after it, the confirmation carries its undo. On 390×844 and 360×740."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Donne
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=[{"width": 390, "height": 844}, {"width": 360, "height": 740}])
def phone(request, page, live_server):
    page.set_viewport_size(request.param)
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    partie = make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    play(partie, "Tom", "rami", Léa=hand(points=80), Papa=hand(points=3))
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    return page, partie, request.param["width"]


def test_the_crossing_is_said_before_the_tap_and_undone_after(phone, screenshot) -> None:
    page, partie, width = phone
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Tom$")).click()
    page.locator("#donne-form .hand[data-joueur='Léa'] .points-input").fill("27")
    page.locator("#donne-form .hand[data-joueur='Papa'] .points-input").fill("4")
    outlook = page.locator("#apercu-totaux")
    expect(outlook.locator("li.is-alert")).to_have_text("⚠ Léa → 107 : franchit 100")
    expect(outlook.locator(".apercu-outlook li")).to_have_count(3)
    # Before the tap, the save button is on the screen, the warning right under it.
    bottom = page.viewport_size["height"]  # boxes are relative to the viewport
    save = page.locator("#donne-save").bounding_box()
    alert = outlook.locator("li.is-alert").bounding_box()
    assert save["y"] + save["height"] <= alert["y"] and alert["y"] + alert["height"] <= bottom
    screenshot(f"outlook-crossing-{width}", full_page=False)
    page.locator("#donne-save").click()
    expect(page.locator("#flash")).to_contain_text("Donne 2 notée.")
    undo = page.locator("#undo-button")
    expect(undo).to_have_text("Annuler la donne 2")
    screenshot(f"undo-offered-{width}", full_page=False)
    undo.click()
    expect(page.locator("#flash")).to_contain_text("Donne 2 supprimée.")
    assert Donne.objects.filter(partie=partie).count() == 1
    expect(page.locator("#undo-now")).to_have_count(0)


def test_an_implausible_hand_is_questioned_before_the_tap(phone) -> None:
    page, _partie, _width = phone
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Tom$")).click()
    page.locator("#donne-form .hand[data-joueur='Léa'] .points-input").fill("700")
    # On her row, a sign; the sentence under the save button.
    expect(page.locator("#donne-form .hand[data-joueur='Léa'] .apercu")).to_have_text("⚠ = 700")
    expect(page.locator("#apercu-totaux .apercu-warning")).to_have_text(
        "⚠ 700 points pour Léa : c'est bien ça ?"
    )


def _boxes(page) -> list[tuple[float, float]]:
    """Where each visible row of the form and the save button are, top and height."""
    rows = page.locator("#donne-form .hand:visible, #donne-save").all()
    return [(b["y"], b["height"]) for b in (row.bounding_box() for row in rows)]


@pytest.mark.parametrize("seven", [False, True])
def test_the_live_counts_move_nothing_the_scorekeeper_may_be_tapping(phone, seven) -> None:
    """A count answers a moment after the typing; the next field and the save button stay
    where the finger is going. Before, they jumped by 135 px just as save was tapped."""
    page, partie, _width = phone
    if seven:
        page.set_viewport_size({"width": 390, "height": 844})
        names = ["Anne", "Bruno", "Chloé", "David", "Ève", "Farid", "Marie-Christine"]
        partie = make_partie(Donne.objects.get().partie.owner, joueurs=names, preset="rami51")
        page.goto(f"/parties/{partie.pk}/")
        page.wait_for_selector("#donne-form[data-ready]")
    names = list(partie.joueurs.values_list("name", flat=True))
    page.locator("#donne-form .winner-grid label", has_text=re.compile(f"^{names[0]}$")).click()
    before = _boxes(page)
    for i, name in enumerate(names[1:]):
        page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input").fill(str(20 + i))
    page.locator(f"#donne-form .hand[data-joueur='{names[1]}'] .jokers-select").select_option("1")
    expect(page.locator("#apercu-totaux")).to_contain_text(f"{names[-1]} → ")
    last = names[-1]
    expect(page.locator(f"#donne-form .hand[data-joueur='{last}'] .apercu")).not_to_be_empty()
    assert _boxes(page) == before


def test_on_its_side_the_save_button_stays_in_view(page, live_server, screenshot) -> None:
    page.set_viewport_size({"width": 844, "height": 390})
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    names = ["Maman", "Mamie", "Marie-Christine", "Jean-Baptiste", "Zoé", "Zoë"]
    partie = make_partie(alice, joueurs=names)
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Zoé$")).click()
    page.wait_for_timeout(300)  # the focus moves, and scrolls
    field = page.locator("#donne-form .hand[data-joueur='Maman'] .points-input")
    expect(field).to_be_focused()  # the first loser's points, after the winner's tap
    field.fill("12")
    save = page.locator("#donne-save").bounding_box()
    assert save["y"] >= 0 and save["y"] + save["height"] <= 390
    # The field being typed is not under the button.
    box = field.bounding_box()
    assert box["y"] + box["height"] <= save["y"]
    screenshot("landscape-save-in-view", full_page=False)


def test_after_the_tap_the_marque_still_shows_every_donne(phone, screenshot) -> None:
    page, _partie, width = phone
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Papa$")).click()
    page.locator("#donne-form .hand[data-joueur='Léa'] .points-input").fill("5")
    page.locator("#donne-form .hand[data-joueur='Tom'] .points-input").fill("9")
    page.locator("#donne-save").click()
    expect(page.locator("#flash")).to_contain_text("Donne 2 notée.")
    # The answer swapped in shows donne 1 as the page did, not "1 donne plus ancienne".
    expect(page.locator("#marque a.donne-link")).to_have_text(["1", "2"])
    expect(page.locator("#marque")).not_to_contain_text("plus ancienne")
    page.locator("#marque").scroll_into_view_if_needed()
    screenshot(f"marque-after-the-tap-{width}", full_page=False)

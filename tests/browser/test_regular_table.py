"""The regular table on a 390×844 phone: the habitués tapped into the new-partie
form, the rematch prefilled in three taps, who deals each donne (past an eliminated player,
and changed by hand), and the statistics of three known parties. Screenshots in light and
dark go to /tmp/shots/table/. Cast: alice keeps the score of her regular table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.models import Partie
from tests.factories import decide, hand, make_partie, make_user, play
from tests.games.display.test_statistics import three_parties

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path("/tmp/shots/table")
FOUR = ["Anne", "Bruno", "Chloé", "David"]


@pytest.fixture
def alice(page, live_server):
    user = make_user("alice")
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    return user


def shots(page, name: str, *, full_page: bool = True) -> None:
    """The page as it is now, in the light and the dark theme (the phone's setting)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.reload()
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(SHOTS / f"{name}-{scheme}.png"), full_page=full_page)
    page.emulate_media(color_scheme="light")
    page.reload()


def seated(page) -> list[str]:
    return [
        v
        for v in page.locator("#joueur-rows input[name=joueurs]").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
        if v
    ]


def chip(page, name: str):
    return page.locator(".habitue-chip", has_text=re.compile(f"^{name}$"))


def dealer(page) -> str:
    return page.locator("#donne-card select[name=dealer] option:checked").inner_text()


def test_regulars_are_tapped_in_seat_order_and_the_rematch_is_three_taps(page, alice) -> None:
    make_partie(alice, joueurs=["Anne", "Bruno"], name="Hier")
    make_partie(alice, joueurs=["Chloé", "David"], name="Avant-hier")
    page.goto("/parties/nouvelle/")
    expect(page.locator(".habitue-chip")).to_have_count(4)
    for name in ("David", "Anne", "Chloé"):
        chip(page, name).click()
    assert seated(page) == ["David", "Anne", "Chloé"]
    expect(chip(page, "Anne")).to_have_attribute("aria-pressed", "true")
    # A second tap takes Anne off the table; a third seats her again, last.
    chip(page, "Anne").click()
    assert seated(page) == ["David", "Chloé"]
    # Taken off, she looks it even under the pointer: a pale outline, not the seated solid green.
    expect(chip(page, "Anne")).to_have_attribute("aria-pressed", "false")
    expect(chip(page, "Anne")).to_have_css("background-color", "rgb(209, 231, 221)")  # subtle
    expect(chip(page, "David")).to_have_css("background-color", "rgb(25, 135, 84)")  # success
    chip(page, "Anne").click()
    assert seated(page) == ["David", "Chloé", "Anne"]
    # A new name is typed as before, in the next empty place.
    page.locator("#add-joueur").click()
    page.locator("#joueur-rows input[name=joueurs]:focus").fill("Zoé")
    page.keyboard.press("Escape")  # the habitués' suggestions (datalist) close
    # The first dealer is picked by name.
    first = page.locator("select[name=first_dealer]")
    assert first.locator("option").all_inner_texts()[:4] == [
        "1 · David", "2 · Chloé", "3 · Anne", "4 · Zoé"
    ]  # fmt: skip
    first.select_option("2")
    page.locator("#joueurs").screenshot(path=str(SHOTS / "new-partie-habitues.png"))
    page.locator("button", has_text="Commencer la partie").click()
    page.wait_for_url(re.compile(r"/parties/\d+/$"))
    partie = Partie.objects.get(name__startswith="Partie du")
    assert [j.name for j in partie.joueurs.all()] == ["David", "Chloé", "Anne", "Zoé"]
    assert dealer(page) == "Chloé"
    expect(page.locator("#donne-card .donne-head")).to_contain_text("Donne 1")
    shots(page, "partie-dealer", full_page=False)
    page.goto("/parties/nouvelle/")
    shots(page, "new-partie")

    # The eleventh partie of the month, once this one is over: home, "Rejouer", "Commencer la
    # partie" ("Rejouer" is for a finished partie only).
    play(partie, "David", "rami", Chloé=hand(points=5), Anne=hand(points=7), Zoé=hand(points=9))
    services.partie_close(partie=partie)
    page.goto("/")
    page.locator("#rematch-latest").click()
    expect(page.locator("h1")).to_have_text("Rejouer avec les mêmes joueurs")
    assert seated(page) == ["David", "Chloé", "Anne", "Zoé"]
    assert page.locator("select[name=first_dealer]").input_value() == "3"  # one seat on
    page.screenshot(path=str(SHOTS / "rematch-light.png"), full_page=True)
    page.locator("button", has_text="Commencer la partie").click()
    page.wait_for_url(re.compile(r"/parties/\d+/$"))
    assert Partie.objects.count() == 4
    assert dealer(page) == "Anne"


def test_the_dealer_passes_an_eliminated_player_and_is_changed_by_hand(page, alice) -> None:
    partie = make_partie(alice, joueurs=FOUR)
    # Donne 1, dealt by Anne: Bruno crosses 100 and leaves.
    play(partie, "Anne", "rami", Bruno=hand(points=120), Chloé=hand(points=5), David=hand(points=7))
    decide(partie, "Bruno", False)
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_selector("#donne-form[data-ready]")
    # Bruno would deal: he is out, Chloé does.
    assert dealer(page) == "Chloé"
    assert page.locator("#donne-card select[name=dealer] option").all_inner_texts() == [
        "Anne", "Chloé", "David"
    ]  # fmt: skip
    # Chloé was skipped at the table: David dealt. The scorekeeper says so, then the donne.
    page.locator("#donne-card select[name=dealer]").select_option(label="David")
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Anne$")).click()
    page.locator("#donne-form .hand[data-joueur='Chloé'] .points-input").fill("12")
    page.locator("#donne-form .hand[data-joueur='David'] .points-input").fill("9")
    page.locator("#donne-save").click()
    expect(page.locator("#donne-card .donne-head h2")).to_contain_text("Donne 3")
    # The deal goes on from David: Anne.
    assert dealer(page) == "Anne"
    dealt = [d.dealer.name for d in partie.donnes.select_related("dealer")]
    assert dealt == ["Anne", "David"]
    shots(page, "dealer-after-change", full_page=False)
    page.goto(f"/parties/{partie.pk}/marque/")
    # A plain row of the sheet is one cell: number, figures and observations on tab stops.
    expect(page.locator(".marque-sheet tbody tr").nth(1)).to_contain_text("donneur : David")


def test_the_statistics_of_three_known_parties(page, alice) -> None:
    three_parties(alice)
    page.goto("/")
    page.locator("a", has_text="Statistiques").click()
    expect(page.locator("#stats-scope")).to_have_text("3 parties terminées.")
    cards = {
        name: page.locator(f".player-stats[data-habitue='{name}']")
        for name in ("Anne", "Bruno", "Chloé")
    }

    def stat(name: str, key: str) -> list[str]:
        return cards[name].locator(f"[data-stat='{key}']").all_inner_texts()

    assert [stat(n, "won") for n in cards] == [["1"], ["1"], ["1"]]
    assert stat("Anne", "average") == ["49,0"]
    assert stat("Chloé", "rachats") == ["1"] and stat("Anne", "declined") == ["1"]
    assert stat("Bruno", "win") == ["3", "0"]  # rami, rami de la main
    assert stat("Chloé", "money-won") == ["11,40\u00a0€"]
    assert stat("Bruno", "money-lost") == ["\u22127,20\u00a0€"]
    assert stat("Anne", "money-net") == ["\u22122,20\u00a0€"]
    assert stat("Chloé", "heaviest")[0].startswith("90")
    rows = page.locator("#head-to-head tbody tr").all_inner_texts()
    assert [re.split(r"\s+", r.strip()) for r in rows] == [
        ["Anne", "·", "2/3", "1/3"],
        ["Bruno", "1/3", "·", "1/3"],
        ["Chloé", "2/3", "1/3", "·"],
    ]
    expect(page.locator("#money-chart svg .money-line")).to_have_count(3)
    shots(page, "statistics")
    page.locator("#variante").select_option("rami40")
    page.locator("#stats-filters button").click()
    expect(page.locator("#stats-scope")).to_have_text("Aucune partie terminée.")
    page.goto("/habitues/")
    shots(page, "habitues")
    page.locator(".habitue-line summary").first.click()
    page.screenshot(path=str(SHOTS / "habitues-open-light.png"))
    page.goto("/")
    shots(page, "home")
    # A finished partie: its note, and the rematch under the result.
    lundi = Partie.objects.get(name="Lundi")
    page.goto(f"/parties/{lundi.pk}/")
    page.locator("#note summary").click()
    page.locator("#id_note").fill("Chez Chloé. Bruno a apporté le gâteau.")
    page.locator("#note button").click()
    expect(page.locator("#note-text")).to_have_text("Chez Chloé. Bruno a apporté le gâteau.")
    expect(page.locator("#rematch")).to_be_visible()
    shots(page, "finished-partie")
    page.goto(f"/parties/{lundi.pk}/marque/")
    expect(page.locator(".sheet-note")).to_contain_text("Bruno a apporté le gâteau.")
    page.screenshot(path=str(SHOTS / "sheet-light.png"), full_page=True)


def test_a_name_typed_by_hand_lights_its_habitue_as_the_engine_folds_it(page, alice) -> None:
    # games/scoring/players.py person_key: "STRASSE" is "Straße" (case folding, which
    # JavaScript's toLowerCase alone does not do), "anne" is "Anne".
    make_partie(alice, joueurs=["Straße", "Anne"], name="Hier")
    page.goto("/parties/nouvelle/")
    expect(chip(page, "Straße")).to_have_attribute("data-key", "strasse")
    rows = page.locator("#joueur-rows input[name=joueurs]")
    rows.nth(0).fill("STRASSE")
    rows.nth(1).fill("anne")
    page.keyboard.press("Escape")
    expect(chip(page, "Straße")).to_have_attribute("aria-pressed", "true")
    expect(chip(page, "Anne")).to_have_attribute("aria-pressed", "true")
    # A tap on the lit chip takes off the name typed for it.
    chip(page, "Straße").click()
    assert seated(page) == ["anne"]

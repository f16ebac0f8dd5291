"""The home page of a family's evening on a phone, light and dark: "Continuer" on the partie
in progress first, "Rejouer" for the finished one, cards that say the variant, the state and
the players; and one money truth, from a finished partie's transfers to its evening's
Comptes, which name the parties they add up."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.factories import hand, make_partie, make_user, play
from tests.games.display.test_evenings import gerard_wins

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page, theme: str, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"evening-{theme}-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_continuer_first_then_rejouer_then_one_money_truth(chromium, live_server, theme) -> None:
    alice = make_user("alice")
    finished = gerard_wins(alice, paid=("Anne",), name="Jeudi")
    running = make_partie(alice, name="Revanche", joueurs=["Gérard", "Anne", "Bruno"])
    play(running, "Anne", "rami", Gérard=hand("K 5"), Bruno=hand("9"))
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(
        viewport=PHONE, locale="fr-FR", base_url=live_server.url, color_scheme=theme
    )
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto("/")
        shot(page, theme, "01-accueil")
        first = page.locator("main .partie-link").first
        expect(first).to_contain_text("Continuer")
        expect(first).to_contain_text("Revanche")
        expect(first).to_contain_text("Rami classique · En cours · 1 donne · En tête : Anne")
        rematch = page.locator("#rematch-latest")
        expect(rematch).to_contain_text("Rejouer avec les mêmes joueurs")
        expect(rematch).to_contain_text("Gérard, Anne, Bruno · Rami classique")
        assert rematch.get_attribute("href") == f"/parties/nouvelle/?rejouer={finished.pk}"
        # "Continuer" is the first thing on the screen, the one solid large button.
        assert page.locator("#continuer").bounding_box()["y"] < rematch.bounding_box()["y"]
        assert page.locator("#continuer").get_attribute("class").split()[:3] == [
            "btn",
            "btn-success",
            "btn-lg",
        ]
        assert "btn-outline-success" in rematch.get_attribute("class").split()
        expect(page.locator(f"[data-partie='{finished.pk}'] .partie-state")).to_have_text(
            "Rami classique · Terminée · Gagnant : Gérard · 1 donne"
        )

        # The finished partie's transfers, and the evening that counts them.
        page.locator(f"[data-partie='{finished.pk}']").click()
        note = page.locator("#une-seule-fois")
        expect(note).to_contain_text("Pour cette partie seule.")
        expect(note).to_contain_text("payez l'un ou l'autre, jamais les deux.")
        note.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"evening-{theme}-02-reglement.png"))
        note.get_by_role("link").click()
        page.wait_for_url("**/argent/#soiree-*")
        evening = page.locator("article.soiree").first
        expect(evening.locator(".comptees")).to_have_text("Parties comptées : Jeudi.")
        expect(evening.locator(".pas-comptees")).to_have_text(
            "Pas encore comptées (en cours) : Revanche."
        )
        expect(evening.locator(".une-seule-fois")).to_have_text(
            "Les mêmes virements que sur la page de la partie : à payer une seule fois."
        )
        shot(page, theme, "03-comptes")
    finally:
        context.close()

"""Play first, sign up later, on a phone at 390×844, light and dark: from the first tap on the
home page, without an account, to a claimed account that keeps its partie."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Partie
from games.services.guests import GUEST_PREFIX, is_guest
from tests.browser.conftest import PHONE, SCREENSHOTS

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "cartes-sur-table-42"


def shot(page, theme: str, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"guest-{theme}-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    # Nothing wider than the phone on any of these screens.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    return path


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_from_the_first_tap_to_a_claimed_account(chromium, live_server, theme) -> None:
    context = chromium.new_context(
        viewport=PHONE, locale="fr-FR", base_url=live_server.url, color_scheme=theme
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto("/")
        shot(page, theme, "01-accueil")
        # The first thing to tap: a partie, no account asked.
        start = page.locator("#start-guest")
        expect(start).to_contain_text("Nouvelle partie")
        start.click()
        expect(page.locator("#guest-start-note")).to_contain_text(
            "Sans compte : cette partie reste sur ce téléphone 30 jours"
        )
        for i, name in enumerate(["Maman", "Léa", "Papa"]):
            page.locator("input[name=joueurs]").nth(i).fill(name)
        shot(page, theme, "02-nouvelle-partie")
        page.get_by_role("button", name="Commencer la partie").click()
        page.wait_for_selector("#scoreboard")
        assert User.objects.filter(username__startswith=GUEST_PREFIX).count() == 1

        # The partie is fully usable: a donne, Léa fait rami.
        page.locator("#donne-form .winner-grid label", has_text=re.compile("^Léa$")).click()
        page.locator("#win-types label", has_text=re.compile("^Rami$")).click()
        page.locator("#donne-form .hand[data-joueur='Maman'] .points-input").fill("25")
        page.locator("#donne-form .hand[data-joueur='Papa'] .points-input").fill("12")
        page.get_by_role("button", name="Noter la donne").click()
        page.wait_for_selector("text=Donne 1 notée.")
        # The ⚙ menu offers to keep the parties, where an account has its password.
        page.locator("#reglages > summary").click()
        expect(page.locator("#reglages a[href='/comptes/garder/']")).to_have_text(
            "Garder mes parties (créer un compte)"
        )
        page.locator("#reglages > summary").click()
        shot(page, theme, "03-partie")

        # Home: the guest's note, then "Continuer" on the partie, first.
        page.goto("/")
        expect(page.locator("#guest-note")).to_contain_text("Sans compte, vos parties restent")
        current = page.locator(".partie-current")
        expect(current).to_contain_text("Continuer")
        expect(current).to_contain_text("Rami classique · En cours · 1 donne · En tête : Léa")
        expect(current).to_contain_text("Maman, Léa, Papa")
        assert page.locator("#rematch-latest").count() == 0
        shot(page, theme, "04-accueil-invite")

        # "Garder mes parties": the sign-up form for this guest.
        page.locator("#guest-note").get_by_role("link", name="Garder mes parties").click()
        expect(page.locator("h1")).to_have_text("Garder mes parties")
        page.fill("#id_username", f"famille-{theme}")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        shot(page, theme, "05-garder")
        page.get_by_role("button", name="Créer mon compte et garder mes parties").click()
        expect(page.locator(".alert-success")).to_contain_text(
            f"Compte famille-{theme} créé : vos parties sont gardées."
        )
        assert page.locator("#guest-note").count() == 0
        expect(page.locator(".account-nav .username")).to_have_text(f"famille-{theme}")
        expect(page.locator(".partie-current")).to_contain_text("Continuer")
        shot(page, theme, "06-compte-garde")

        account = User.objects.get(username=f"famille-{theme}")
        assert not is_guest(account) and account.check_password(PASSWORD)
        partie = Partie.objects.get(owner=account)
        assert [j.name for j in partie.joueurs.all()] == ["Maman", "Léa", "Papa"]
        assert partie.donnes.count() == 1
        page.locator(".partie-current").click()
        page.wait_for_selector("#scoreboard")
    finally:
        context.close()

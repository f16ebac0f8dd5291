"""The share link in a browser. Cast: alice keeps the score on her phone; a follower at the same
table opens the share link on his own phone, in another browser context, with no account."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.factories import make_partie, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, username: str) -> None:
    page.goto("/comptes/connexion/")
    page.fill("#id_username", username)
    page.fill("#id_password", "cartes-sur-table")
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url("/")


def record(page, winner: str, **points: int) -> None:
    page.locator("#donne-form .winner-grid label", has_text=re.compile(f"^{winner}$")).click()
    for name, value in points.items():
        page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input").fill(str(value))
    page.get_by_role("button", name="Noter la donne").click()


def csp_watch(page) -> list[str]:
    problems: list[str] = []
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text)
            if "Content Security Policy" in msg.text or msg.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda err: problems.append(str(err)))
    return problems


def test_recording_a_donne_breaks_no_content_security_policy_rule(page) -> None:
    alice = make_user("alice")
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    problems = csp_watch(page)
    log_in(page, "alice")
    page.goto(f"/parties/{partie.pk}/")
    # Typing a hand asks for the preview through htmx; recording swaps the partie body.
    record(page, "Anne", Bruno=25, Chloé=12)
    page.wait_for_selector("text=Donne 1 notée.")
    page.locator("#partage summary").click()
    page.get_by_role("button", name="Créer le lien de partage").click()
    page.wait_for_selector("#partage .qr-code")
    assert problems == []


def test_a_follower_sees_each_donne_without_reloading(page, screenshot, chromium, live_server):
    alice = make_user("alice")
    partie = make_partie(alice, name="Mardi chez Anne", joueurs=["Anne", "Bruno", "Chloé"])
    log_in(page, "alice")
    page.goto(f"/parties/{partie.pk}/")
    page.locator("#partage summary").click()
    page.get_by_role("button", name="Créer le lien de partage").click()
    page.wait_for_selector("#partage[open] .qr-code")
    url = page.locator("#share-url").input_value()
    assert re.fullmatch(rf"{live_server.url}/suivre/[\w-]{{32}}/", url)
    page.locator("#partage").scroll_into_view_if_needed()
    screenshot("share-01-lien-qr", full_page=False)

    # The follower: another browser context, so no session and no cookie of alice's.
    context = chromium.new_context(viewport=PHONE, locale="fr-FR")
    try:
        follower = context.new_page()
        problems = csp_watch(follower)
        polls: list[int] = []
        follower.on("response", lambda r: polls.append(r.status) if "/suivre/" in r.url else None)
        follower.goto(url)
        assert follower.locator("form").count() == 0
        assert "alice" not in follower.content().lower()
        assert follower.locator("#marque").inner_text().endswith("Aucune donne pour l'instant.")
        # An unchanged poll is a 304 and swaps nothing: the marker set here survives it.
        follower.evaluate("document.getElementById('suivi').dataset.marker = 'same'")
        follower.wait_for_timeout(4_500)
        assert 304 in polls
        assert follower.locator("#suivi[data-marker='same']").count() == 1

        record(page, "Anne", Bruno=25, Chloé=12)
        page.wait_for_selector("text=Donne 1 notée.")
        # Within one poll (4 s) and some slack, without a reload.
        follower.wait_for_selector(
            "#scoreboard .player[data-joueur='Bruno'] .total[data-total='25']", timeout=9_000
        )
        assert follower.locator("#suivi[data-marker='same']").count() == 0
        assert follower.locator("#marque th[scope=row]").all_inner_texts() == ["1"]
        assert follower.locator("#marque a").count() == 0
        SCREENSHOTS.mkdir(exist_ok=True)
        follower.screenshot(path=str(SCREENSHOTS / "share-02-suivi.png"), full_page=True)

        # Alice ends the partie: the follower sees the result, and the polling stops.
        page.locator("summary", has_text="Terminer la partie").click()
        page.get_by_role("button", name="Oui, terminer maintenant").click()
        page.wait_for_selector("#resultat")
        follower.wait_for_selector("#resultat", timeout=9_000)
        assert follower.locator("#suivi[hx-get]").count() == 0
        follower.screenshot(path=str(SCREENSHOTS / "share-03-suivi-fin.png"), full_page=True)
        seen = len(polls)
        follower.wait_for_timeout(5_000)
        assert len(polls) == seen
        assert problems == []
    finally:
        context.close()

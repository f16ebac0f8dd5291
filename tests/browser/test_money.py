"""On a phone: tick payments in the cagnotte and read what is still owed, then the Comptes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)


def _login(page, live_server, user) -> None:
    """Log in through a session cookie: the login form is tested elsewhere."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def test_marking_payments_on_a_phone(page, live_server, screenshot) -> None:
    alice = make_user("alice")
    partie = make_partie(alice, rachat_price=Decimal("2.00"), mise_initiale=Decimal("1.00"))
    play(partie, "Alice", "rami", Bruno=hand("K Q 5"), Chloé=hand("9 8"))
    play(partie, "Alice", "rami_de_la_main", Bruno=hand("K 7"), Chloé=hand("6 4"))
    play(partie, "Chloé", "rami", Alice=hand("5 2"), Bruno=hand("Q J 9", jokers=1))
    decide(partie, "Bruno", True)
    _login(page, live_server, alice)
    page.goto(f"/parties/{partie.pk}/")
    panel = page.locator("#cagnotte-panel")
    bruno_owes = panel.locator("tr[data-joueur='Bruno'] .owed")
    assert bruno_owes.inner_text() == "3,00\u00a0€"
    # Tick Bruno's stake, then his rachat: htmx swaps the panel each time.
    panel.locator("[data-ligne^='mise-']", has_text="Mise de Bruno").locator("button").click()
    expect(page.locator("tr[data-joueur='Bruno'] .owed")).to_have_text("2,00\u00a0€")
    page.locator("#cagnotte-panel [data-ligne^='rachat-'] button").click()
    expect(page.locator("tr[data-joueur='Bruno'] .owed")).to_have_text("0,00\u00a0€")
    assert panel.locator("tr[data-joueur='Bruno'] .paid").inner_text() == "3,00\u00a0€"
    assert page.locator("#sur-la-table").inner_text() == "3,00\u00a0€"
    assert "Règlement provisoire" in page.locator("#reglement").inner_text()
    panel.scroll_into_view_if_needed()
    screenshot("money-cagnotte")
    page.locator("#cagnotte-panel").screenshot(path=str(SCREENSHOTS / "money-panel.png"))

    # End the partie (docs/rules.md R21): the evening now counts it, with who pays whom.
    page.locator("#actions summary", has_text="Terminer la partie").click()
    page.locator("#actions button", has_text="Oui, terminer maintenant").click()
    # Waited for: the page is drawn anew after the post (read at once, it can be read mid-way).
    expect(page.locator("#reglement")).to_contain_text("Règlement final")
    page.goto("/argent/")
    virements = page.locator(".soiree .virement").all_inner_texts()
    assert "Chloé donne 1,00\u00a0€ à Alice" in virements
    # Alice's unpaid stake is in those transfers, not asked a second time.
    assert page.locator(".impaye").count() == 0
    screenshot("money-comptes")


def test_the_money_settings_read_whole_on_a_phone(page, live_server, screenshot) -> None:
    alice = make_user("alice")
    partie = make_partie(alice, point_value=Decimal("0.10"))
    _login(page, live_server, alice)
    page.goto(f"/parties/{partie.pk}/")
    page.locator("#modifier-argent summary").click()
    settlement = page.locator("#id_settlement")
    expect(settlement).to_have_value("gagnant")
    # The chosen way of settling is shown whole, not cut at half the width of the phone.
    assert settlement.evaluate(
        """select => {
            const style = getComputedStyle(select);
            const canvas = document.createElement("canvas").getContext("2d");
            canvas.font = style.font;
            const text = canvas.measureText(select.selectedOptions[0].text).width;
            const room = select.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            return text <= room;
        }"""
    )
    page.locator("#modifier-argent").scroll_into_view_if_needed()
    screenshot("money-settings", full_page=False)

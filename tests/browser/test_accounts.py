"""Sign-up at phone size: a username whose key is another account's is refused next to the
field (games/usernames.py), and a non-Latin one signs up, logs out and logs in again."""

from __future__ import annotations

import pytest

from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "un-long-mot-de-passe-42"


def sign_up(page, username: str) -> None:
    page.goto("/comptes/inscription/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button.btn-success")


def test_a_colliding_username_is_refused_next_to_the_field(page, screenshot) -> None:
    make_user("vanessa")
    sign_up(page, "vaneßa")
    error = page.locator("#id_username").locator("xpath=..").locator(".invalid-feedback")
    assert error.inner_text().strip() == (
        "Ce nom d'utilisateur est déjà pris (à une majuscule, un accent ou une variante de "
        "lettre près) : choisissez-en un autre."
    )
    screenshot("inscription-nom-pris")


def test_a_cyrillic_username_signs_up_and_logs_in(page, screenshot) -> None:
    sign_up(page, "саrol")
    page.wait_for_url("**/parties/nouvelle/")
    page.context.clear_cookies(name="sessionid")
    page.goto("/comptes/connexion/")
    page.fill("#id_username", "саrol")
    page.fill("#id_password", PASSWORD)
    page.click("form button.btn-success")
    page.wait_for_url("**/")
    assert "саrol" in page.content()
    screenshot("connexion-cyrillique")

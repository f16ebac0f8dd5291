"""Logging in from the login page as a person does, for the browser tests that need a fresh
session mid-test. The form can come back refused (403) when another page of the same browser
got a new CSRF cookie between this page's form and its post (after the cookies were cleared,
a service worker or a queue's probe is answered with one): a person then logs in again."""

from __future__ import annotations

from urllib.parse import urlparse

PASSWORD = "cartes-sur-table"


def log_in(page, username: str, *, attempts: int = 3) -> None:
    """Log in, then wait for the home page itself (not any URL ending in a slash)."""
    for _ in range(attempts):
        page.goto("/comptes/connexion/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            page.locator("#main form button.btn-lg").click()
        if posted.value.status in (302, 303):
            page.wait_for_url(lambda url: urlparse(url).path == "/")
            return
    raise AssertionError(f"{username} could not log in: {posted.value.status} at {page.url}")

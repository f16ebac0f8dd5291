from __future__ import annotations


def test_home_page_says_what_the_app_is(page, screenshot) -> None:
    page.goto("/")
    assert page.locator("h1").inner_text() == "La marque du Rami, tenue pour vous"
    screenshot("home")

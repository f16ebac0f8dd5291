"""The sheet printed by Chromium itself, and the chart on the partie page, at phone size."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from games import services
from tests.factories import make_user
from tests.sheet_records import long_record

pytestmark = pytest.mark.django_db(transaction=True)


def _login(page) -> None:
    page.goto("/comptes/connexion/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "cartes-sur-table")
    page.get_by_role("button", name="Se connecter").click()
    page.wait_for_url("/")


def test_printing_the_sheet_hides_the_navigation_and_buttons(page, screenshot) -> None:
    alice = make_user("alice")
    partie = services.partie_import(owner=alice, record=long_record(30), name="Jeudi au club")
    _login(page)
    page.goto(f"/parties/{partie.pk}/marque/")
    assert page.get_by_role("button", name="Imprimer").is_visible()
    screenshot("sheet-screen")
    pdf = PdfReader(io.BytesIO(page.pdf()))  # Chromium prints with the print stylesheet
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert "Jeudi au club" in text and "Bruno, 176, se rachète (1er rachat) et repart à 19" in text
    assert "ramiscore" not in text and "Imprimer" not in text and "PDF" not in text

    page.goto(f"/parties/{partie.pk}/")
    page.locator("#courbe summary").click()
    chart = page.locator("#courbe svg.score-chart")
    chart.wait_for()  # drawn on opening the fold
    assert chart.is_visible()
    assert chart.locator("polyline.player-line").count() == 7
    page.locator("#courbe").scroll_into_view_if_needed()
    screenshot("partie-chart", full_page=False)


def test_chromium_prints_every_page_number_and_the_observations(page, screenshot) -> None:
    # Seven long names, a rachat and an abandon at 4-digit totals (tests/sheet_records.py).
    from tests.sheet_records import four_digit_record

    alice = make_user("alice")
    record = four_digit_record(60, seuil=1000)
    partie = services.partie_import(owner=alice, record=record, name="Le grand soir")
    _login(page)
    page.goto(f"/parties/{partie.pk}/marque/")
    screenshot("sheet-seven-long-names")
    pdf = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    texts = [p.extract_text() for p in pdf.pages]
    count = len(texts)
    for number, text in enumerate(texts, start=1):
        # In the page's own content, not in a margin box: Firefox and WebKit print it too.
        assert f"page {number} / {count}" in text, number
    whole = "\n".join(texts)
    assert whole.count("Observations") >= 2 and "Jean-Baptiste abandonne" in whole
    assert "Les joueurs éliminés sont classés après ceux restés en course" in whole

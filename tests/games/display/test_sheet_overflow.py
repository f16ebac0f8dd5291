"""Nothing printed runs over its cell (games/display/sheet.py, static/css/sheet.css): every word
that pdftotext finds on the PDF, with its box, stays between two of the column rules, for seven
long names, 4-digit framed totals, a rachat and an ABANDON; and the blank sheet for seven keeps
its "Observations" whole. Real WeasyPrint, read back by poppler's pdftotext -bbox."""

from __future__ import annotations

import re
import subprocess
import tempfile
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from games import services
from tests.sheet_records import LONG_NAMES, four_digit_record

pytestmark = pytest.mark.django_db

MM = 72 / 25.4
MARGIN = 9 * MM  # @page margin (static/css/sheet.css)
# The column rules: the Donne column is 10.5 mm, each player's 21 mm.
RULES = [MARGIN + (10.5 + 21 * k) * MM for k in range(len(LONG_NAMES) + 1)]
WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)


def words(pdf: bytes) -> list[list[tuple[float, float, float, str]]]:
    """Per page, each word's left, right and top edges (points) and its text."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sheet.pdf"
        path.write_bytes(pdf)
        html = subprocess.run(
            ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
    pages = html.split("<page ")[1:]
    return [
        [(float(m[0]), float(m[2]), float(m[1]), unescape(m[4])) for m in WORD.findall(page)]
        for page in pages
    ]


def crossing(page) -> list[str]:
    """The words of the marque's table (from its header to the end's "Classement"), left of
    the observations, that straddle a column rule by more than a quarter of a point."""
    top = min(y for _l, _r, y, text in page if text == "Donne")
    end = min((y for _l, _r, y, text in page if text.startswith("Classement")), default=1e9)
    return [
        text
        for left, right, y, text in page
        if top - 20 <= y < end
        and left < RULES[-1]
        and any(left < rule - 0.25 and right > rule + 0.25 for rule in RULES)
    ]


def pdf_of(alice, record, name) -> bytes:
    partie = services.partie_import(owner=alice, record=record, name=name)
    client = Client()
    client.force_login(alice)
    response = client.get(f"/parties/{partie.pk}/marque.pdf")
    assert response.status_code == 200
    return response.content


def test_seven_long_names_and_four_digit_totals_stay_in_their_cells(alice) -> None:
    pdf = pdf_of(alice, four_digit_record(30, seuil=1000), "Le grand soir")
    pages = words(pdf)
    texts = [text for page in pages for _l, _r, _y, text in page]
    # The record's crossings are on the page: Mamie's rachat, Jean-Baptiste's abandon.
    assert "ABANDON" in texts and any(t.startswith("R1→") for t in texts)
    assert any(re.fullmatch(r"1\d{3}", t) for t in texts)  # a 4-digit framed total
    # The headers whole: the long names on two lines at their hyphen, "Donne" in its column.
    assert {"Marie-", "Christine", "Jean-Baptiste", "Donne", "Observations"} <= set(texts)
    for page in pages:
        if any(text == "Donne" for _l, _r, _y, text in page):
            assert crossing(page) == []


def test_the_blank_sheet_for_seven_keeps_its_headers_whole(alice) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get("/parties/marque-vierge.pdf?preset=rami52_6&joueurs=7")
    [page] = words(response.content)
    texts = [text for _l, _r, _y, text in page]
    assert "Observations" in texts and "Donne" in texts
    assert texts.count("pts") == 7 and texts.count("total") == 7
    assert " ".join(texts).endswith("page 1 / 1")

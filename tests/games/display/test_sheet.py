"""The printed marque laid out for WeasyPrint: a plain row is one line of figures on tab stops,
a row with a framed total or a word under one keeps a cell a player, and the ranking, the money
and the chart stay together on the last page. Real WeasyPrint, read back with pypdf. The kept
sheet (games/views/sheet_cache.py) follows a payment tick, which the revision does not count.

Cast: alice owns the parties."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from pypdf import PdfReader

from games import services
from games.display.marque import Cell
from games.display.sheet import FIGURE_SPACE, Figures, SheetRow, figures_of, line_up
from tests.factories import partie_p1
from tests.sheet_records import long_record

F = FIGURE_SPACE

# -- the rows (pure) ---------------------------------------------------------------------------


def test_a_plain_row_is_one_line_with_the_totals_padded_to_the_widest() -> None:
    rows = line_up(
        [
            SheetRow(1, [figures_of(Cell(points=5, total=5)), figures_of(Cell(points=0, total=0))]),
            SheetRow(2, [figures_of(Cell(points=95, total=100)), figures_of(Cell())]),
        ]
    )
    # Points on the first stop, the total on the second; a player out of the donne leaves both
    # stops empty, so the next player's figures stay in his column.
    assert rows[0].line == f"+5\t{F}{F}5\t0\t{F}{F}0"
    assert rows[1].line == "+95\t100\t\t"


def test_a_framed_total_a_rachat_or_an_exit_keeps_a_cell_a_player() -> None:
    crossed = Cell(points=40, total=27, framed=True, crossed_at=137, rachat_number=1, restart=27)
    out = Cell(points=30, total=120, framed=True, eliminated="declined")
    rows = line_up(
        [
            SheetRow(3, [figures_of(crossed), figures_of(Cell(points=0, total=27))]),
            SheetRow(4, [figures_of(out), figures_of(Cell(points=0, total=27))]),
        ]
    )
    assert [row.line for row in rows] == [None, None]
    # After a rachat the framed total is the one that crossed, and the restart is written under.
    assert rows[0].figures[0] == Figures(
        points="+40", total="137", framed=True, rachat="R1→27", pad=""
    )
    assert rows[0].figures[1] == Figures(points="0", total="27", pad=F)
    assert rows[1].figures[0] == Figures(
        points="+30", total="120", framed=True, eliminated="declined"
    )


# -- the sheet ---------------------------------------------------------------------------------


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_sheet_writes_plain_rows_as_one_cell_and_the_rachat_with_a_cell_each(alice) -> None:
    partie = partie_p1(alice)
    html = _client(alice).get(f"/parties/{partie.pk}/marque/").content.decode()
    # examples.json P1, donne 1: Alice's rami counts −10, Bruno's K Q 5 25, Chloé's 9 8 17; the
    # totals are padded to three figures, as wide as Bruno's 137 to come.
    # The number, the figures and the observation are one text on tab stops.
    assert (
        f'<td class="line" colspan="5">1&#9;−10\t−10\t+25\t{F}25\t+17\t{F}17&#9;'
        "donneur : Alice · Alice fait rami</td>" in html
    )
    # Donne 3: Bruno crosses at 137 and restarts at 27 (docs/rules.md R6): a cell each.
    assert (
        '<td class="figures">+7&#9;−23</td>'
        '<td class="figures">+78&#9;<span class="framed">137</span>'
        '<span class="rachat">R1→27</span></td>'
        f'<td class="figures">−10&#9;{F}27</td>' in html
    )


def _pdf(user, partie) -> list[str]:
    response = _client(user).get(f"/parties/{partie.pk}/marque.pdf")
    assert response.status_code == 200
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


@pytest.mark.parametrize(
    ("donnes", "pages"),
    [
        # 39 lines on the first page, 45 on the next (games/display/sheet.py): 40 donnes
        # leave no room on the first page for the ranking, the money and the chart; they go
        # to the next page together, never the chart alone.
        (40, 2),
        # 10 donnes leave room for them under the donnes.
        (10, 1),
    ],
)
def test_the_chart_is_on_the_last_page_with_the_ranking(alice, donnes, pages) -> None:
    partie = services.partie_import(owner=alice, record=long_record(donnes), name="Long")
    texts = _pdf(alice, partie)
    assert len(texts) == pages
    last = texts[-1]
    assert "Classement" in last and "Argent" in last and "Courbe des scores" in last
    assert "1. David" in " ".join(last.split())
    assert not any("Courbe des scores" in text or "Classement" in text for text in texts[:-1])
    # Each page says its number in its own content (games/display/sheet.py counts them).
    for number, text in enumerate(texts, start=1):
        assert re.findall(r"page \d+ / \d+", text) == [f"page {number} / {pages}"]


# -- what the cached sheet depends on ----------------------------------------------------------


def test_ticking_a_payment_shows_on_the_sheet_at_once(alice) -> None:
    # "Qui paie qui" counts the money already on the table (test_sheet.py): a payment tick,
    # which leaves the partie's revision alone, must not leave the kept sheet stale.
    partie = partie_p1(alice)
    client = _client(alice)
    before = client.get(f"/parties/{partie.pk}/marque/")
    assert "La cagnotte →" not in before.content.decode()
    services.rachat_mark_paid(rachat=partie.donnes.get(number=3).rachats.get(), paid=True)
    after = client.get(f"/parties/{partie.pk}/marque/", headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "La cagnotte →" in after.content.decode()

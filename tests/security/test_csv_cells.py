"""The CSV export opened in Excel or LibreOffice: a text cell that starts like a formula is
shown, never run (OWASP's CSV injection guidance: a leading '), numbers stay numbers, and a
rachat row shows the framed crossing total with the restart, as the sheet does."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from games.models import Partie
from games.scoring.cli import csv_cell
from tests.factories import decide, hand, make_partie, play

pytestmark = pytest.mark.django_db

LINK = '=HYPERLINK("//e.vil","x")'


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (LINK, "'" + LINK),
        ("+1", "'+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-Bob", "'-Bob"),
        ("-1+1", "'-1+1"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("=", "'="),
        # Whatever a formula hides behind: a line feed, white space, an invisible character.
        ("\n" + LINK, "'\n" + LINK),
        (" =1+1", "' =1+1"),
        ("\u00a0=1+1", "'\u00a0=1+1"),
        ("\x85=1+1", "'\x85=1+1"),
        ("\u200b=1+1", "'\u200b=1+1"),
        ("\ufeff@SUM(A1)", "'\ufeff@SUM(A1)"),
        ("\u2066-1+1", "'\u2066-1+1"),
        ("\nChez Anne", "'\nChez Anne"),
        # Numbers stay numbers, written as numbers or as French decimal text.
        (-10, -10),
        (0, 0),
        ("-10", "-10"),
        ("-12,50", "-12,50"),
        ("12,50", "12,50"),
        # Text that does not start like a formula is left alone.
        ("Anne", "Anne"),
        ("137 R1 → 27", "137 R1 → 27"),
        ("a=1", "a=1"),
        ("", ""),
        ("-", "'-"),
        ("-1,", "'-1,"),
        ("-١٢", "'-١٢"),  # digits, but not the ones a spreadsheet reads
    ],
)
def test_a_cell(value, cell) -> None:
    assert csv_cell(value) == cell


@pytest.fixture
def rows(alice) -> list[list[str]]:
    names = [LINK, "+1", "@SUM(A1)", "-Bob"]
    partie = make_partie(
        alice, joueurs=names, mise_initiale=Decimal("1.25"), rachat_price=Decimal("2")
    )
    play(
        partie,
        LINK,
        "rami",
        **{"+1": hand(points=70), "@SUM(A1)": hand("5"), "-Bob": hand(points=60)},
    )
    # -Bob reaches 111 and buys back at 60, the highest total under the seuil (+1's).
    play(partie, "+1", "rami", **{LINK: hand("2"), "@SUM(A1)": hand("5"), "-Bob": hand(points=51)})
    decide(partie, "-Bob", True)
    client = Client()
    client.force_login(alice)
    body = client.get(f"/parties/{partie.pk}/export.csv").content.decode("utf-8")
    return list(csv.reader(io.StringIO(body[1:]), delimiter=";"))


def test_names_that_are_formulas_are_shown_not_run(rows) -> None:
    assert rows[0][:11] == [
        "Donne", "Gagnant", "Gain",
        "'" + LINK + " points", "'" + LINK + " total", "'+1 points", "'+1 total",
        "'@SUM(A1) points", "'@SUM(A1) total", "'-Bob points", "'-Bob total",
    ]  # fmt: skip
    assert (rows[1][1], rows[2][1]) == ("'" + LINK, "'+1")
    # The observations start with a name: defused too.
    assert rows[1][11] == "'" + LINK + " fait rami"
    assert rows[2][11] == "'+1 fait rami ; -Bob, 111, se rachète (1er rachat) et repart à 60"
    assert [c for row in rows for c in row if c[:1] in ("=", "+", "@", "\t", "\r")] == []


def test_numbers_stay_numbers_and_a_rachat_shows_the_crossing_and_the_restart(rows) -> None:
    assert rows[1][3:11] == ["-10", "-10", "70", "70", "5", "5", "60", "60"]
    assert rows[2][3:11] == ["2", "-8", "-10", "60", "5", "10", "51", "111 R1 → 60"]
    # The money: negative amounts are numbers with a decimal comma, not defused text.
    money = {row[0]: row[1:] for row in rows[3:] if row}
    assert money["Cagnotte"] == ["7,00"]
    assert money["'-Bob"] == ["3,25", "0,00", "-3,25"]
    assert money["'" + LINK] == ["1,25", "0,00", "5,75"]


def test_a_note_starting_with_a_line_feed_keeps_its_guard(alice) -> None:
    """A note stored before the note's rules reached every import (they trim it now): the
    CSV defuses its cell whatever it starts with."""
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    play(partie, "Anne", "rami", Bruno=hand("K"))
    Partie.objects.filter(pk=partie.pk).update(note="\n" + LINK)
    client = Client()
    client.force_login(alice)
    body = client.get(f"/parties/{partie.pk}/export.csv").content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(body[1:]), delimiter=";"))
    assert rows[-1] == ["Note", "'\n" + LINK]

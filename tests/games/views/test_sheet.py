"""The printable marque, its PDF and the blank sheet through their pages (games/views/sheet.py).

Cast: alice owns the parties, bob is another account, and an anonymous visitor."""

from __future__ import annotations

import io
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from pypdf import PdfReader

from games import services
from tests.factories import make_partie, make_user
from tests.sheet_records import ABC, P1, SEVEN, long_record

PASSWORD = "cartes-sur-table"


# -- pages -------------------------------------------------------------------------------------


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def p1(alice):
    return services.partie_import(
        owner=alice,
        record={
            "preset": "classique",
            "players": ABC,
            "donnes": P1,
            "config": {"prix_rachat": 200, "mise_initiale": 100},
        },
        name="Mardi soir",
    )


def test_the_sheet_shows_header_framed_totals_observations_and_money(alice, p1) -> None:
    response = _client(alice).get(f"/parties/{p1.pk}/marque/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Mardi soir</h1>" in html
    assert "Rami classique</strong> · éliminé dès 100 · 3 rachats au plus" in html
    assert "Argent : mise initiale 1,00\xa0€ · rachat 2,00\xa0€" in html
    # Seed 000: totals at or over 100 are framed; Bruno's 137 then his rachat to 27.
    assert '<span class="framed">137</span><span class="rachat">R1→27</span>' in html
    assert "Chloé fait rami ; Bruno, 137, se rachète (1er rachat) et repart à 27" in html
    assert "Fin de la partie : Anne est le dernier joueur en course" in html
    assert 'href="/static/css/sheet.css"' in html
    css = (Path(settings.BASE_DIR) / "static" / "css" / "sheet.css").read_text()
    assert "@page { size: A4 landscape" in css and "thead { display: table-header-group; }" in css
    # Cagnotte: 3 stakes of 1,00 € and one rachat of 2,00 €; Anne takes it.
    assert '<strong class="pot">5,00\xa0€</strong>' in html
    assert "Bruno → Anne : 3,00\xa0€" in html and "Chloé → Anne : 1,00\xa0€" in html


def test_the_sheet_counts_the_money_already_on_the_table_as_the_panel_does(alice, p1) -> None:
    # Bruno's stake and his 2,00 € rachat are on the table: the cagnotte pays Anne from them,
    # and Bruno owes nothing more. Paper and screen must say the same (new-user test).
    bruno = p1.joueurs.get(name="Bruno")
    services.mise_mark_paid(joueur=bruno, paid=True)
    services.rachat_mark_paid(rachat=p1.donnes.get(number=3).rachats.get(), paid=True)
    html = _client(alice).get(f"/parties/{p1.pk}/marque/").content.decode()
    assert "La cagnotte → Anne : 3,00\xa0€" in html
    assert "Chloé → Anne : 1,00\xa0€" in html
    assert "Bruno → Anne" not in html
    panel = _client(alice).get(f"/parties/{p1.pk}/").content.decode()
    assert "L'argent sur la table va à <strong>Anne</strong> : 3,00\xa0€" in panel


def test_the_partie_page_links_the_sheet_and_folds_the_chart(alice, p1) -> None:
    html = _client(alice).get(f"/parties/{p1.pk}/").content.decode()
    assert f'href="/parties/{p1.pk}/marque/"' in html
    assert f'href="/parties/{p1.pk}/marque.pdf"' in html
    # The chart is drawn when its fold is opened (htmx), not with every page.
    assert f'hx-get="/parties/{p1.pk}/courbe/" hx-trigger="toggle once"' in html
    assert 'class="player-line"' not in html
    chart = _client(alice).get(f"/parties/{p1.pk}/courbe/").content.decode()
    assert chart.count('class="player-line"') == 3


def _import_long(owner: User, donnes: int):
    return services.partie_import(owner=owner, record=long_record(donnes), name=f"{donnes} donnes")


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        # The page again, unchanged: session, user, the partie with its stored result and its
        # players (one query), and its kept entry (the database's cache): no state is read.
        ("/parties/{pk}/", 4),
        # The sheet again, unchanged: session, user, partie, and the cache (the database's).
        ("/parties/{pk}/marque/", 4),
        # The CSV also says who dealt each donne: one query.
        # Files cost one more query: the account's rate-limit bucket (games/views/costly.py).
        ("/parties/{pk}/export.csv", 7),
        # The export also carries the game record: donnes, hands and rachats (its players are
        # those of its state, read once).
        ("/parties/{pk}/export.json", 9),
    ],
)
def test_pages_run_the_same_queries_for_5_or_60_donnes(
    alice, url, queries, django_assert_num_queries
) -> None:
    client = _client(alice)
    for donnes in (5, 60):
        partie = _import_long(alice, donnes)
        client.get(url.format(pk=partie.pk))  # an import's replay is stored on first read
        with django_assert_num_queries(queries):
            assert client.get(url.format(pk=partie.pk)).status_code == 200


# -- access ------------------------------------------------------------------------------------

URLS = [
    "/parties/{pk}/marque/",
    "/parties/{pk}/marque.pdf",
    "/parties/{pk}/export.csv",
    "/parties/{pk}/export.json",
]


@pytest.mark.parametrize("url", URLS)
def test_each_sheet_url_is_for_the_owner_only(alice, p1, url) -> None:
    url = url.format(pk=p1.pk)
    anonymous = _client(None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/comptes/connexion/")
    assert _client(make_user("bob")).get(url).status_code == 404
    assert _client(alice).get(url).status_code == 200


@pytest.mark.parametrize("url", ["/parties/marque-vierge.pdf?joueurs=5", "/parties/importer/"])
def test_the_blank_sheet_and_the_import_need_an_account(alice, url) -> None:
    anonymous = _client(None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/comptes/connexion/")
    assert _client(make_user("bob")).get(url).status_code == 200
    assert _client(alice).get(url).status_code == 200


def _pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_blank_sheet_has_empty_columns_for_the_players(alice) -> None:
    response = _client(alice).get("/parties/marque-vierge.pdf?joueurs=5&preset=classique")
    assert response["Content-Type"] == "application/pdf"
    pages, text = _pdf_text(response.content)
    assert pages == 1
    assert "Rami classique" in text and "Observations" in text and text.count("total") == 5
    too_many = _client(alice).get("/parties/marque-vierge.pdf?joueurs=9&preset=classique")
    assert too_many.status_code == 400
    assert _client(alice).get("/parties/marque-vierge.pdf?preset=poker").status_code == 400


# -- the long partie's PDF (built once for the module) -------------------------------------------


@pytest.fixture(scope="module")
def long_pdf(django_db_setup, django_db_blocker):
    from django.test import override_settings

    # Module-scoped: the task runner of tests/conftest.py is set here for the whole module.
    immediate = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with (
        django_db_blocker.unblock(),
        override_settings(TASKS=immediate, PDF_RENDER_ON_CHANGE=False),
    ):
        owner = User.objects.create_user("long", password=PASSWORD)
        partie = _import_long(owner, 120)
        client = _client(owner)
        response = client.get(f"/parties/{partie.pk}/marque.pdf")
        owner.delete()
    return response


# Marked so that the test database is set up even when this test runs alone (pytest-django
# sets up only what some test is marked for): long_pdf writes there.
@pytest.mark.django_db
def test_the_pdf_of_a_long_partie_has_the_totals_and_the_observations(long_pdf) -> None:
    assert long_pdf.status_code == 200
    assert long_pdf["Content-Type"] == "application/pdf"
    assert long_pdf["Content-Disposition"] == 'inline; filename="marque-120-donnes.pdf"'
    pages, text = _pdf_text(long_pdf.content)
    assert "Bruno, 176, se rachète (1er rachat) et repart à 19" in text
    assert "Chloé abandonne" in text
    assert "Fin de la partie : dernière manche jouée" in text
    # Final ranking: David 100, Anne 101 … Chloé frozen at 202 when she abandoned (R19).
    ranking = re.search(r"Classement\n(.*?)Argent", text, re.S)
    assert ranking is not None
    lines = [" ".join(line.split()) for line in ranking.group(1).strip().splitlines()]
    assert lines[0] == "1. David 100" and lines[-2] == "7. Chloé 202 abandon"
    # As on the screen, the sheet says why Chloé ranks last (docs/rules.md R19).
    assert lines[-1] == (
        "Les joueurs éliminés sont classés après ceux restés en course, le dernier éliminé d'abord."
    )
    assert "Cagnotte : 11,00" in text
    # The header row is repeated on every page that carries donnes.
    assert text.count("Observations") == 3
    # Counted by the sheet (games/display/sheet.py): 39 lines under the title, 45 on the next
    # pages, so 120 donnes take three pages, and the ranking, the money and the chart, kept
    # together, would not fit under the last ones: a fourth page.
    assert pages == 4
    assert all(name in text for name in SEVEN)


def test_money_options_show_decimal_amounts(alice) -> None:
    partie = make_partie(alice, point_value=Decimal("0.05"), settlement="croise")
    html = _client(alice).get(f"/parties/{partie.pk}/marque/").content.decode()
    assert "point 0,05\xa0€ (chaque paire règle son écart)" in html

"""English for an English-speaking browser, French by default, and a catalogue with every
string translated (French is the source language; `make messages` refreshes the catalogue)."""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games.errors import translated
from games.scoring import RamiError, explain_hand
from games.scoring.errors import N_, Detail
from tests.factories import hand, make_partie, make_user, play

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
EN = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}


@pytest.fixture(autouse=True)
def _back_to_french():
    # A request with Accept-Language: en leaves English active in this thread; the tests
    # that follow call the services directly and expect the default language.
    yield
    translation.activate("fr")


@pytest.fixture
def partie(client):
    alice = make_user("alice")
    partie = make_partie(
        alice, joueurs=["Anne", "Bruno", "Chloé"], name="Mardi soir", rachat_price=Decimal("2.00")
    )
    play(partie, "Anne", "rami_de_la_main", Bruno=hand("K Q 5"), Chloé=hand("A", jokers=1))
    client.force_login(alice)
    return partie


# --- pages -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_home_in_english(client) -> None:
    body = client.get(reverse("home"), **EN).content.decode()
    assert '<html lang="en">' in body
    assert "Your Rami score sheet, kept for you" in body
    assert "Create an account" in body and "Log in" in body
    assert "Créer un compte" not in body


@pytest.mark.django_db
def test_login_page_in_english(client) -> None:
    body = client.get(reverse("login"), **EN).content.decode()
    assert '<html lang="en">' in body
    assert "No account yet?" in body
    assert "Username" in body  # Django's own form labels follow the same language
    assert "Se connecter" not in body


@pytest.mark.django_db
def test_partie_page_in_english(client, partie) -> None:
    body = client.get(reverse("partie_detail", args=[partie.pk]), **EN).content.decode()
    assert '<html lang="en">' in body
    for text in ("1 deal", "Who won?", "Record the deal", "Score sheet", "End the game"):
        assert text in body, text
    assert "Score chart" in body  # the server-drawn SVG
    for text in ("Noter la donne", "Qui a gagné", "Terminer la partie", "Courbe des scores"):
        assert text not in body, text


@pytest.mark.django_db
def test_french_stays_the_default(client, partie) -> None:
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert '<html lang="fr">' in body
    assert "Noter la donne" in body and "Qui a gagné ?" in body
    client.logout()
    body = client.get(reverse("home")).content.decode()
    assert '<html lang="fr">' in body
    assert "La marque du Rami, tenue pour vous" in body
    body = client.get(reverse("login")).content.decode()
    assert "Pas encore de compte ?" in body


@pytest.mark.django_db
def test_french_counts_zero_and_one_in_the_singular(client) -> None:
    """French takes the singular for 0 and 1 (locale/fr, plural=(n > 1)); English for 1 only."""
    alice = make_user("alice")
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"], name="Mardi soir")
    client.force_login(alice)
    url = reverse("partie_detail", args=[partie.pk])
    counted = '<small class="text-body-secondary">{}</small>'
    assert counted.format("0 donne") in client.get(url).content.decode()
    assert counted.format("0 deals") in client.get(url, **EN).content.decode()
    play(partie, "Anne", "rami", Bruno=hand(points=5), Chloé=hand(points=7))
    assert counted.format("1 donne") in client.get(url).content.decode()
    play(partie, "Bruno", "rami", Anne=hand(points=5), Chloé=hand(points=7))
    assert counted.format("2 donnes") in client.get(url).content.decode()
    assert counted.format("2 deals") in client.get(url, **EN).content.decode()


@pytest.mark.django_db
def test_printed_sheet_in_english(client, partie) -> None:
    body = client.get(reverse("partie_sheet", args=[partie.pk]), **EN).content.decode()
    assert "out at 100 · at most 3 buy-backs" in body
    assert "Anne goes RAMI DE LA MAIN (out in one go)" in body


# --- the engine's messages, translated by the interface ----------------------------------


def test_engine_messages_in_english() -> None:
    err = RamiError("main_invalide", detail=Detail(N_("champ inconnu « %(field)s »"), field="x"))
    assert str(err) == "La main de ce joueur est illisible : champ inconnu « x »"
    with translation.override("en"):
        assert translated(err) == ("The hand of this player cannot be read: unknown field “x”")
        err = RamiError("main_en_trop", player="Bruno", reason=N_("éliminé"), donne=3)
        assert translated(err) == ("Deal 3: Bruno must not have a hand in this deal (out).")
        text = explain_hand("classique", {"cards": ["K", "5"], "jokers": 1}, "rami_de_la_main")
        assert text == "(10 + 10 + 5) × 4 = 100 — rami de la main et un joker en main"
        text = explain_hand(
            "classique",
            {"cards": ["K", "5"], "jokers": 1},
            "rami_de_la_main",
            translate=translation.gettext,
        )
        assert text.endswith("— rami de la main and one joker in hand")


# --- the catalogue ------------------------------------------------------------------------


def read_po(path: Path) -> list[dict]:
    """A tiny .po reader: one dict per entry with its flags, msgid and msgstr(s)."""
    entries: list[dict] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": "", "msgid": "", "msgid_plural": None, "msgstr": {}}
        key = None
        for line in block.strip().splitlines():
            if line.startswith("#,"):
                entry["flags"] += line
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                value = ast.literal_eval(line)
                if key in ("msgid", "msgid_plural"):
                    entry[key] += value
                else:
                    entry["msgstr"][key] += value
            else:
                key, _, value = line.partition(" ")
                if key.startswith("msgstr"):
                    entry["msgstr"][key] = ast.literal_eval(value)
                else:
                    entry[key] = ast.literal_eval(value)
        if entry["msgstr"]:
            entries.append(entry)
    return entries


def problems(path: Path) -> list[str]:
    found = []
    for entry in read_po(path):
        if not entry["msgid"]:
            continue  # the header
        if "fuzzy" in entry["flags"]:
            found.append(f"fuzzy: {entry['msgid']!r}")
        if not all(entry["msgstr"].values()):
            found.append(f"untranslated: {entry['msgid']!r}")
    return found


def test_every_string_is_translated() -> None:
    entries = read_po(PO)
    assert len(entries) > 300
    assert problems(PO) == []


def test_compiled_catalogue_matches_the_po() -> None:
    """`make messages` compiles the .mo; a .po edited without compiling fails here."""
    with MO.open("rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    for entry in read_po(PO):
        if not entry["msgid"]:
            continue
        if entry["msgid_plural"] is None:
            assert catalog.get(entry["msgid"]) == entry["msgstr"]["msgstr"], entry["msgid"]
        else:
            assert catalog.get((entry["msgid"], 1)) == entry["msgstr"]["msgstr[1]"]


def test_the_french_catalogue_gives_every_plural_its_own_two_forms() -> None:
    """locale/fr holds French's plural rule and nothing else: each plural msgid of the English
    catalogue (kept up to date with the code below), translated by its own two forms."""
    fr = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    header, *entries = read_po(fr)
    assert "Plural-Forms: nplurals=2; plural=(n > 1);" in header["msgstr"]["msgstr"]
    assert "fuzzy" not in header["flags"]  # msgfmt would skip the header and its rule
    plurals = {(e["msgid"], e["msgid_plural"]) for e in read_po(PO) if e["msgid_plural"]}
    assert len(plurals) > 20
    assert {(e["msgid"], e["msgid_plural"]) for e in entries} == plurals, "run `make messages`"
    for entry in entries:
        forms = entry["msgstr"]
        assert (forms["msgstr[0]"], forms["msgstr[1]"]) == (entry["msgid"], entry["msgid_plural"])
    with fr.with_suffix(".mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    assert compiled.ngettext("%(n)s donne", "%(n)s donnes", 0) == "%(n)s donne"
    assert compiled.ngettext("%(n)s donne", "%(n)s donnes", 2) == "%(n)s donnes"
    assert len(compiled._catalog) == 2 * len(plurals) + 1  # type: ignore[attr-defined]


def test_catalogue_is_up_to_date_with_the_code(tmp_path: Path) -> None:
    """makemessages on a copy of the code: a string marked but not yet in the .po (or not yet
    translated) shows up as untranslated. Needs GNU gettext (`apt-get install gettext`)."""
    if not (shutil.which("xgettext") and shutil.which("msgmerge")):
        message = "GNU gettext is not installed"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    for name in ("games", "ramiscore", "templates", "locale"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "en", "--no-obsolete"],
        cwd=tmp_path,
        env={**os.environ, "DJANGO_DEBUG": "True"},
        check=True,
        capture_output=True,
    )
    copy = tmp_path / "locale" / "en" / "LC_MESSAGES" / "django.po"
    assert problems(copy) == [], "run `make messages` and translate the new strings"
    ids = {e["msgid"] for e in read_po(copy)}
    assert ids == {e["msgid"] for e in read_po(PO)}, "run `make messages`"


def test_money_follows_the_language() -> None:
    from games.display.numbers import format_money

    assert format_money(Decimal("1234.5")) == "1\u202f234,50\u00a0€"
    assert format_money(Decimal("-2")) == "\u22122,00\u00a0€"
    assert format_money(Decimal("2"), "CHF") == "2,00\u00a0CHF"
    with translation.override("en"):
        assert format_money(Decimal("1234.5")) == "€1,234.50"
        assert format_money(Decimal("-2")) == "\u2212€2.00"

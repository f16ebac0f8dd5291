"""The limits (issue "Flat cost"; docs/rules.md R28; README "Limits"), the same on every way
in: recording a donne, the import page, the backup restore, ``rami import`` and, for the
engine's part, ``rami score``. Each refusal is a French sentence that names the limit and says
what to do, and leaves nothing half-saved.

Cast: alice owns the parties; bob is another account, who restores files into his own."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.errors import PartieError, translated
from games.files import (
    BACKUP_FORMAT,
    FORMAT,
    MAX_DONNES_PER_FILE,
    MAX_PARTIES_PER_FILE,
    MAX_UPLOAD_BYTES,
    read_upload,
)
from games.models import Donne, DonneResult, Hand, Joueur, Partie, PartieResult, Rachat
from games.scoring import RamiError, replay
from games.scoring.replay import MAX_DONNES
from games.services.parties import MAX_PARTIES_PER_ACCOUNT
from tests.factories import hand, make_partie, make_user, partie_form, play

TOO_MANY_DONNES = (
    "Donne 1001 : Valeur hors limites pour « donnes » : une partie compte au plus 1000 donnes."
)
TOO_BIG = (
    "Ce fichier dépasse 10 Mo, le plus qu'on puisse importer à la fois : découpez la "
    "sauvegarde en plusieurs fichiers."
)
TOO_MANY_PARTIES = (
    "Ce fichier contient 201 parties ; importez-en au plus 200 à la fois (découpez la sauvegarde)."
)
TOO_MANY_IN_FILE = (
    "Ce fichier contient 5001 donnes en tout ; importez-en au plus 5000 à la fois (découpez "
    "la sauvegarde)."
)
ACCOUNT_FULL = (
    "Ce compte garde déjà 2000 parties, et un compte en garde au plus 2000 : pour en créer "
    "ou en importer d'autres, ouvrez un autre compte."
)
ACCOUNT_NEARLY_FULL = (
    "Ce fichier ajouterait 3 parties à ce compte, qui en garde déjà 1998 ; un compte en "
    "garde au plus 2000 : importez-en au plus 2 (découpez la sauvegarde) ou ouvrez un autre "
    "compte."
)


def flat_record(donnes: int, players: tuple[str, ...] = ("Anne", "Bruno")) -> dict[str, Any]:
    """classique, each player winning in turn and each loser keeping 1 point: nobody ever
    nears the seuil, so the partie runs as long as asked."""
    rows = []
    for n in range(donnes):
        winner = players[n % len(players)]
        hands = {p: {"points": 1} for p in players if p != winner}
        rows.append({"winner": winner, "win": "rami", "hands": hands})
    return {"preset": "classique", "players": list(players), "donnes": rows}


def backup(*records: dict[str, Any]) -> bytes:
    """A backup file as the Sauvegarder button writes it, one partie per record."""
    parties = [
        {
            "format": FORMAT,
            "name": "Mardi" if n == 2 else f"Soirée {n}",
            "created_at": f"2026-11-01T{20 + n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}+01:00",
            "payes": {},
            "record": record,
        }
        for n, record in enumerate(records, 1)
    ]
    data = {"format": BACKUP_FORMAT, "exported_at": "2026-12-01T10:00:00+01:00", "parties": parties}
    return json.dumps(data, ensure_ascii=False).encode()


def nothing_saved() -> bool:
    models = (Partie, Joueur, Donne, Hand, Rachat, DonneResult, PartieResult)
    return all(model.objects.count() == 0 for model in models)


def upload(client: Client, content: bytes) -> str:
    """Post a file to the import page; the one error it answers with (422)."""
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("f.json", content, "application/json")},
    )
    assert response.status_code == 422
    [message] = response.context["form"].errors["fichier"]
    return message


def rami_import(path: Path, username: str = "bob") -> str:
    """``rami import``; the error line it stops with."""
    with pytest.raises(CommandError) as err:
        call_command("rami", "import", str(path), "--user", username, stdout=io.StringIO())
    return str(err.value)


@pytest.fixture
def client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


def fill(owner, count: int) -> None:
    """``count`` empty parties for ``owner``, straight into the table (partie_create would
    take minutes for two thousand)."""
    Partie.objects.bulk_create(
        Partie(owner=owner, name=f"Ancienne {n}", preset="classique") for n in range(count)
    )


# -- 1000 donnes in a partie: the engine ---------------------------------------------------


def test_the_engine_takes_1000_donnes_and_refuses_the_1001st_with_its_number() -> None:
    record = flat_record(MAX_DONNES)
    result = replay("classique", record["players"], record["donnes"])
    assert (len(result.states), result.states[-1].totals) == (1000, {"Anne": -4500, "Bruno": -4500})
    with pytest.raises(RamiError) as err:
        replay("classique", record["players"], flat_record(1001)["donnes"])
    assert (err.value.code, err.value.donne, str(err.value)) == (
        "valeur_hors_limites",
        1001,
        TOO_MANY_DONNES,
    )
    # Resumed from the state of donne 1000 (as the app does), one more is still the 1001st.
    with pytest.raises(RamiError) as err:
        replay("classique", ["Anne", "Bruno"], record["donnes"][:1], after=result.states[-1])
    assert str(err.value) == TOO_MANY_DONNES


def test_the_limit_speaks_english_too() -> None:
    with pytest.raises(RamiError) as err:
        replay("classique", ["Anne", "Bruno"], flat_record(1001)["donnes"])
    with translation.override("en"):
        assert translated(err.value) == (
            "Deal 1001: Value out of bounds for “donnes”: a game has at most 1000 deals."
        )
        assert translated(PartieError("trop_de_parties", count=201, max=200)) == (
            "This file holds 201 games; import at most 200 at a time (split the backup)."
        )


def test_rami_score_refuses_the_1001st_donne(tmp_path: Path) -> None:
    path = tmp_path / "longue.json"
    path.write_text(json.dumps(flat_record(1001)), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as err:
        call_command("rami", "score", str(path), "--format", "json", stdout=out)
    assert str(err.value) == "Erreur valeur_hors_limites (donne 1001) : " + TOO_MANY_DONNES
    assert json.loads(out.getvalue())["error"] == {
        "code": "valeur_hors_limites",
        "donne": 1001,
        "message": TOO_MANY_DONNES,
    }


@pytest.mark.django_db
def test_recording_the_1001st_donne_is_refused_and_saves_nothing(alice) -> None:
    partie = services.partie_import(owner=alice, record=flat_record(1000), name="Marathon")
    assert partie.donnes.count() == 1000
    with pytest.raises(RamiError) as err:
        play(partie, "Bruno", "rami", Anne=hand(points=1))
    assert (err.value.code, translated(err.value)) == ("valeur_hors_limites", TOO_MANY_DONNES)
    assert partie.donnes.count() == 1000
    assert Hand.objects.filter(donne__partie=partie).count() == 1000


@pytest.mark.django_db
def test_the_import_page_refuses_a_partie_of_1001_donnes(client) -> None:
    assert upload(client, json.dumps(flat_record(1001)).encode()) == TOO_MANY_DONNES
    assert nothing_saved()


@pytest.mark.django_db
def test_a_backup_names_the_partie_of_1001_donnes_and_restores_nothing(client) -> None:
    content = backup(flat_record(3), flat_record(1001))
    assert upload(client, content) == "Partie 2 « Mardi » : " + TOO_MANY_DONNES
    assert nothing_saved()


@pytest.mark.django_db
def test_rami_import_refuses_a_partie_of_1001_donnes(bob, tmp_path: Path) -> None:
    path = tmp_path / "longue.json"
    path.write_text(json.dumps(flat_record(1001)), encoding="utf-8")
    assert rami_import(path) == "Erreur valeur_hors_limites : " + TOO_MANY_DONNES
    assert nothing_saved()


# -- the size of a file ----------------------------------------------------------------------


def test_a_file_at_the_byte_limit_is_read_and_one_byte_more_is_not() -> None:
    text = json.dumps(flat_record(2))
    padded = text.encode() + b" " * (MAX_UPLOAD_BYTES - len(text.encode()))
    assert len(padded) == MAX_UPLOAD_BYTES == 10_000_000
    [read] = read_upload(padded)
    assert len(read.record["donnes"]) == 2
    with pytest.raises(PartieError) as err:
        read_upload(padded + b" ")
    assert (err.value.code, translated(err.value)) == ("fichier_trop_gros", TOO_BIG)


@pytest.mark.django_db
def test_the_import_page_refuses_a_file_over_10_mo(client) -> None:
    assert upload(client, b" " * (MAX_UPLOAD_BYTES + 1)) == TOO_BIG
    assert nothing_saved()


@pytest.mark.django_db
def test_rami_import_refuses_a_file_over_10_mo(bob, tmp_path: Path) -> None:
    path = tmp_path / "gros.json"
    path.write_bytes(b" " * (MAX_UPLOAD_BYTES + 1))
    assert rami_import(path) == "Erreur fichier_trop_gros : " + TOO_BIG
    assert nothing_saved()


SEVEN = [f"{first} de Saint-Gérôme-Évêque-des-Champs"[:30] for first in ("Anaïs", "Bérénice",
         "Céleste", "Désirée", "Éléonore", "Françoise", "Gwendoline")]  # fmt: skip
FULL_HAND = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "10", "9", "8", "7", "6", "5"]


@pytest.mark.django_db
def test_the_largest_partie_the_rules_allow_exports_and_imports_back(alice, client) -> None:
    """1000 donnes (R28), 7 players (§8), names of 30 characters (R28), every loser's hand
    written card by card, 15 of them (the most any preset deals): its export fits the limit."""
    assert all(len(name) == 30 for name in SEVEN)
    rows = []
    for n in range(MAX_DONNES):
        winner = SEVEN[n % 7]
        hands = {p: {"cards": FULL_HAND, "jokers": 0} for p in SEVEN if p != winner}
        rows.append({"winner": winner, "win": "sortie", "hands": hands})
    record = {"preset": "rami51", "players": SEVEN, "config": {"target": 100_000}, "donnes": rows}
    partie = services.partie_import(owner=alice, record=record, name="La plus longue")
    owner = Client()
    owner.force_login(alice)
    exported = owner.get(reverse("partie_export_json", args=[partie.pk])).content
    print(f"export of the largest partie: {len(exported)} bytes")
    assert 4_000_000 < len(exported) < MAX_UPLOAD_BYTES
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("longue.json", exported, "application/json")},
    )
    assert response.status_code == 302
    copy = Partie.objects.get(owner__username="bob")
    assert (copy.name, copy.donnes.count()) == ("La plus longue", 1000)


# -- the number of parties and of donnes in a file -----------------------------------------


def test_a_file_of_200_parties_and_5000_donnes_is_read() -> None:
    read = read_upload(backup(*[flat_record(25)] * MAX_PARTIES_PER_FILE))
    assert (len(read), sum(len(u.record["donnes"]) for u in read)) == (200, 5000)
    assert MAX_DONNES_PER_FILE == 5000


@pytest.mark.django_db
def test_the_import_page_refuses_201_parties(client) -> None:
    assert upload(client, backup(*[flat_record(0)] * 201)) == TOO_MANY_PARTIES
    assert nothing_saved()


@pytest.mark.django_db
def test_rami_import_refuses_201_parties(bob, tmp_path: Path) -> None:
    path = tmp_path / "sauvegarde.json"
    path.write_bytes(backup(*[flat_record(0)] * 201))
    assert rami_import(path) == "Erreur trop_de_parties : " + TOO_MANY_PARTIES
    assert nothing_saved()


@pytest.mark.django_db
def test_the_import_page_refuses_5001_donnes_in_one_file(client) -> None:
    content = backup(*[flat_record(1000)] * 5, flat_record(1))
    assert upload(client, content) == TOO_MANY_IN_FILE
    assert nothing_saved()


@pytest.mark.django_db
def test_rami_import_refuses_5001_donnes_in_one_file(bob, tmp_path: Path) -> None:
    path = tmp_path / "sauvegarde.json"
    path.write_bytes(backup(*[flat_record(1000)] * 5, flat_record(1)))
    assert rami_import(path) == "Erreur trop_de_donnes : " + TOO_MANY_IN_FILE
    assert nothing_saved()


# -- the number of parties of an account ----------------------------------------------------


@pytest.mark.django_db
def test_partie_create_refuses_the_2001st_partie_of_an_account(alice) -> None:
    fill(alice, MAX_PARTIES_PER_ACCOUNT - 1)
    make_partie(alice, name="La dernière")
    with pytest.raises(PartieError) as err:
        make_partie(alice, name="Une de trop")
    assert (err.value.code, translated(err.value)) == ("compte_plein", ACCOUNT_FULL)
    assert Partie.objects.filter(owner=alice).count() == 2000
    assert not Partie.objects.filter(name="Une de trop").exists()
    # Another account is not concerned.
    assert make_partie(make_user("bob"), name="Chez Bob").owner.username == "bob"


@pytest.mark.django_db
def test_the_new_partie_page_says_the_account_is_full(alice) -> None:
    fill(alice, MAX_PARTIES_PER_ACCOUNT)
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("partie_new"), partie_form(name="Une de trop"))
    assert response.context["form"].non_field_errors() == [ACCOUNT_FULL]
    assert Partie.objects.filter(owner=alice).count() == 2000


@pytest.mark.django_db
def test_a_backup_that_would_pass_the_account_limit_restores_nothing(client, bob) -> None:
    fill(bob, MAX_PARTIES_PER_ACCOUNT - 2)
    assert upload(client, backup(flat_record(1), flat_record(2), flat_record(3))) == (
        ACCOUNT_NEARLY_FULL
    )
    assert Partie.objects.filter(owner=bob).count() == 1998
    assert Donne.objects.count() == 0


@pytest.mark.django_db
def test_the_import_page_refuses_a_partie_into_a_full_account(client, bob) -> None:
    fill(bob, MAX_PARTIES_PER_ACCOUNT)
    assert upload(client, json.dumps(flat_record(2)).encode()) == ACCOUNT_FULL
    assert (Partie.objects.count(), Donne.objects.count()) == (2000, 0)


@pytest.mark.django_db
def test_rami_import_refuses_a_partie_into_a_full_account(bob, tmp_path: Path) -> None:
    fill(bob, MAX_PARTIES_PER_ACCOUNT)
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(flat_record(2)), encoding="utf-8")
    assert rami_import(path) == "Erreur compte_plein : " + ACCOUNT_FULL
    assert (Partie.objects.count(), Donne.objects.count()) == (2000, 0)


@pytest.mark.django_db
def test_a_backup_restored_twice_into_a_full_account_skips_what_is_there(client, bob) -> None:
    content = backup(flat_record(1), flat_record(2))
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("f.json", content, "application/json")},
    )
    assert response.status_code == 302
    fill(bob, MAX_PARTIES_PER_ACCOUNT - 2)
    # Full now, but nothing of the file is new: nothing to refuse.
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("f.json", content, "application/json")},
    )
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "2 parties restaurées depuis la sauvegarde.",  # the first time, not shown yet
        "« Soirée 1 » est déjà dans vos parties : ignorée.",
        "« Mardi » est déjà dans vos parties : ignorée.",
        "0 partie restaurée depuis la sauvegarde.",  # French: the singular for 0
    ]
    assert Partie.objects.filter(owner=bob).count() == 2000

"""One validator per field on every way in (games/validators.py): what the note form refuses,
the import page, a backup restored and ``rami import`` refuse too, with the same French
message, and nothing is written; what the form stores (a CR LF made a line feed, the
surrounding white space gone), the import stores the same. Cast: alice types at the table,
bob imports."""

from __future__ import annotations

import html
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.files import BACKUP_FORMAT, export_dict
from games.models import Partie
from games.services.parties import note_token
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db

NOTE_REFUSED = (
    "La note contient un caractère de contrôle (invisible) : retirez-le, puis enregistrez."
)
# Each in the middle of a note: at its ends, white space among them is trimmed, as typed.
REFUSED = {
    "ESC sequence": "\x1b[31m",
    "BEL": "\x07",
    "CR alone": "\r",
    "DEL": "\x7f",
    "U+0085": "\x85",
    "U+009B": "\x9b",
    "VT": "\x0b",
    "FF": "\x0c",
    "RLO": "\u202e",
    "ZWSP": "\u200b",
    "BOM": "\ufeff",
    "U+2066": "\u2066",
}


@pytest.fixture
def export(alice) -> dict:
    partie = make_partie(alice, name="Mardi", joueurs=["Anne", "Bruno"])
    play(partie, "Anne", "rami", Bruno=hand("K"))
    return export_dict(selectors.partie_export(partie))


@pytest.fixture
def phone(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def importer(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


def form_refusal(phone: Client, note: str) -> str:
    partie = Partie.objects.get(owner__username="alice")
    url = reverse("partie_note", args=[partie.pk])
    response = phone.post(url, {"note": note, "note_token": note_token(partie.note)})
    assert response.status_code == 422
    [message] = response.context["note_form"].errors["note"]
    return message


def page_refusal(importer: Client, content: dict) -> str:
    upload = SimpleUploadedFile("f.json", json.dumps(content).encode(), "application/json")
    response = importer.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 422
    [message] = response.context["form"].errors["fichier"]
    return message


def command_refusal(tmp_path: Path, content: dict) -> str:
    path = tmp_path / "f.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("rami", "import", str(path), "--user", "bob", stdout=io.StringIO())
    return str(err.value)


@pytest.mark.parametrize("char", REFUSED.values(), ids=REFUSED.keys())
def test_a_note_the_form_refuses_is_refused_by_every_import(
    char, export, phone, importer, tmp_path
) -> None:
    note = f"Chez Anne{char} et Bruno"
    assert form_refusal(phone, note) == NOTE_REFUSED
    content = {**export, "note": note}
    assert page_refusal(importer, content) == NOTE_REFUSED
    backup = {"format": BACKUP_FORMAT, "exported_at": "", "parties": [export, content]}
    assert page_refusal(importer, backup) == f"Partie 2 « Mardi » : {NOTE_REFUSED}"
    assert command_refusal(tmp_path, content) == f"Erreur note_illisible : {NOTE_REFUSED}"
    assert not Partie.objects.filter(owner__username="bob").exists()
    assert Partie.objects.get(owner__username="alice").note == ""


def test_an_imported_note_is_stored_as_the_form_stores_it(export, phone, importer) -> None:
    typed = "\n  Chez Anne.\r\n\tBruno a apporté le gâteau. \r\n"
    partie = Partie.objects.get(owner__username="alice")
    phone.post(
        reverse("partie_note", args=[partie.pk]), {"note": typed, "note_token": note_token("")}
    )
    partie.refresh_from_db()
    assert partie.note == "Chez Anne.\n\tBruno a apporté le gâteau."
    upload = json.dumps({**export, "note": typed}).encode()
    response = importer.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("f.json", upload, "application/json")},
    )
    assert response.status_code == 302
    assert Partie.objects.get(owner__username="bob").note == partie.note


def test_the_import_page_s_name_is_checked_next_to_it(export, importer) -> None:
    upload = SimpleUploadedFile("f.json", json.dumps(export).encode(), "application/json")
    response = importer.post(reverse("partie_import"), {"fichier": upload, "name": "Ma\u202erdi"})
    assert response.status_code == 422
    assert response.context["form"].errors["name"] == [
        "Le nom de la partie contient un caractère invisible ou de contrôle : retirez-le."
    ]


def test_a_dealer_the_donne_form_refuses_is_refused_by_the_import(alice, importer) -> None:
    """docs/rules.md "Le donneur": one of the players the donne is dealt to. Chloé left at
    donne 1 (she declined her rachat): she cannot deal donne 2, in the form or in a file."""
    partie = make_partie(alice, name="Jeudi", joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand(points=10), Chloé=hand(points=120))
    services.rachat_decide(partie=partie, joueur=partie.joueurs.get(name="Chloé"), accepted=False)
    play(partie, "Bruno", "rami", Anne=hand("K"))
    export = export_dict(selectors.partie_export(partie))
    assert export["donneurs"] == ["Anne", "Bruno"]
    for dealers, message in [
        (
            ["Anne", "Chloé"],
            "Donne 2 : Le donneur doit être un joueur encore en course à cette donne.",
        ),
        (
            ["Anne", "Zoé"],
            "Donne 2 : Le donneur doit être un joueur encore en course à cette donne.",
        ),
    ]:
        assert page_refusal(importer, {**export, "donneurs": dealers}) == message
    assert not Partie.objects.filter(owner__username="bob").exists()
    # As the export wrote them, and the same names written another way (R28's key).
    for dealers in (["Anne", "Bruno"], ["anne ", "BRUNO"]):
        upload = json.dumps({**export, "donneurs": dealers}).encode()
        response = importer.post(
            reverse("partie_import"),
            {"fichier": SimpleUploadedFile("f.json", upload, "application/json")},
        )
        assert response.status_code == 302
    copies = Partie.objects.filter(owner__username="bob")
    assert [[d.dealer.name for d in c.donnes.all()] for c in copies] == [["Anne", "Bruno"]] * 2


def test_the_note_form_s_refusal_is_shown_next_to_the_note(phone, export) -> None:
    partie = Partie.objects.get(owner__username="alice")
    url = reverse("partie_note", args=[partie.pk])
    response = phone.post(url, {"note": "Chez\u202eAnne", "note_token": note_token("")})
    body = html.unescape(response.content.decode())
    assert (
        f'<div class="alert alert-danger py-1 small" id="note-erreur">{NOTE_REFUSED}</div>' in body
    )

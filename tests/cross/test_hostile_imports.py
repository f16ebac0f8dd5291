"""The hostile-import corpus (tests/data/hostile/): every file is refused with a 4xx and a
French message saying what and where, on the import page, in a backup and by ``rami import``,
and nothing is written. Run on SQLite and on PostgreSQL (a NUL that reached the database was
a DataError there; a date at year 9999, -14:00, an OverflowError)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from games import services
from games.errors import translated
from games.files import read_upload
from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.scoring import RamiError, cli
from tests.factories import make_user

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[1] / "data" / "hostile"
NAME_REFUSED = "Nom de joueur refusé : « %s » contient un caractère invisible ou de contrôle (%s)."

# file → (code, the French message of the import page and of ``rami import``).
EXPECTED: dict[str, tuple[str, str]] = {
    # Found by an audit: each of these answered 500.
    "deep-nesting-1000.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : plus de 16 niveaux d'imbrication",
    ),
    "integer-5000-digits.json": (
        "valeur_hors_limites",
        "Valeur hors limites pour « config.mise_initiale » : un nombre de plus de 12 chiffres.",
    ),
    "payes-wrong-types.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « payes.rachats » doit être une liste de "
        "[numéro de donne, joueur]",
    ),
    "created-at-year-9999.json": (
        "valeur_hors_limites",
        "Valeur hors limites pour « created_at » : une date entre le 1er janvier 2000 et le "
        "31 décembre 2099.",
    ),
    "name-nul.json": ("nom_invalide", NAME_REFUSED % ("Anne<U+0000>", "U+0000")),
    "name-right-to-left-override.json": (
        "nom_invalide",
        NAME_REFUSED % ("Anne<U+202E>", "U+202E"),
    ),
    "name-zero-width-space.json": ("nom_invalide", NAME_REFUSED % ("An<U+200B>ne", "U+200B")),
    "name-bel.json": ("nom_invalide", NAME_REFUSED % ("Anne<U+0007>", "U+0007")),
    # Our own.
    "nesting-17-levels.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : plus de 16 niveaux d'imbrication, à "
        "« donnes[1][1][1][1][1][1][1][1][1][1][1][1][1][1][1] »",
    ),
    "integer-13-digits.json": (
        "valeur_hors_limites",
        "Donne 1 : Valeur hors limites pour « hands.Bruno.points » : un nombre de plus de 12 "
        "chiffres.",
    ),
    "lone-surrogate.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : à « players[1] », un caractère qui n'existe pas (U+D800)",
    ),
    "nan.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « NaN » n'est pas une valeur JSON",
    ),
    "not-utf8.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : il n'est pas en UTF-8",
    ),
    "partie-name-nul.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « name » contient un caractère nul",
    ),
    # Found by an audit: a partie's name follows the form's rules.
    "partie-name-bel.json": (
        "import_invalide",
        "Fichier de partie refusé : name : Le nom de la partie contient un caractère "
        "invisible ou de contrôle : retirez-le.",
    ),
    "partie-name-86-characters.json": (
        "import_invalide",
        "Fichier de partie refusé : name : Assurez-vous que cette valeur comporte au plus 80 "
        "caractères (actuellement 86).",
    ),
    "first-dealer-seat-9-of-2.json": (
        "premier_donneur_invalide",
        "Le premier donneur doit être l'un des 2 joueurs de la table.",
    ),
    # The note form's own rule and message (games/validators.py).
    "note-2001-characters.json": ("note_trop_longue", "La note tient en 2000 caractères au plus."),
    "note-nul.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « note » contient un caractère nul",
    ),
    "created-at-without-offset.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « created_at » doit être une date avec son fuseau "
        "(2026-11-03T20:15:00+01:00)",
    ),
    "payes-unknown-player.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « payes.mises » nomme Zorro, qui ne joue pas à cette table",
    ),
    "payes-donne-out-of-range.json": (
        "enregistrement_invalide",
        "Fichier de partie illisible : « payes.rachats » : il n'y a pas de donne 7",
    ),
    "name-31-characters.json": (
        "nom_invalide",
        f"Nom de joueur refusé : « {'A' * 31} » a 31 caractères, 30 au plus.",
    ),
    "names-same-after-case-and-trim.json": (
        "joueurs_en_double",
        "Le joueur anne apparaît deux fois à la table.",
    ),
    "hand-named-twice.json": (
        "donne_invalide",
        "Donne 1 : Donne illisible : Bruno est nommé deux fois dans « hands »",
    ),
    "points-over-1000.json": (
        "valeur_hors_limites",
        "Donne 1 : Valeur hors limites pour « points de Bruno » : au plus 1\u00a0000 pour une "
        "main.",
    ),
    "threshold-over-limit.json": (
        "valeur_hors_limites",
        "Valeur hors limites pour « threshold » : au plus 100\u00a0000.",
    ),
    "money-over-limit.json": (
        "valeur_hors_limites",
        "Valeur hors limites pour « prix_rachat » : au plus 100\u00a0000\u00a0000 centimes.",
    ),
    "fixed-manches-over-limit.json": (
        "valeur_hors_limites",
        "Valeur hors limites pour « fixed_manches » : au plus 1\u00a0000.",
    ),
    "backup-second-partie-broken.json": (
        "partie_refusee",
        "Partie 2 « Jeudi » : Fichier de partie illisible : « payes.rachats » doit être une "
        "liste de [numéro de donne, joueur]",
    ),
}
FILES = sorted(EXPECTED)
# Refused before any partie is read out of the file: inside a backup, the same refusal,
# without a partie's number.
# (Nesting is counted on the whole file: a backup adds three levels.)
WHOLE_FILE = {
    "deep-nesting-1000.json",
    "lone-surrogate.json",
    "nan.json",
    "nesting-17-levels.json",
    "not-utf8.json",
}


def rows() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Partie, Joueur, Donne, Hand, Rachat))


@pytest.fixture
def client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_every_file_of_the_corpus_has_its_answer() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.json")) == FILES


@pytest.mark.parametrize("name", FILES)
def test_the_import_page_refuses_it_with_a_4xx_and_says_why(client, name: str) -> None:
    code, message = EXPECTED[name]
    before = rows()
    upload = SimpleUploadedFile(name, (CORPUS / name).read_bytes(), "application/json")
    response = client.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 422
    assert response.context["form"].errors["fichier"] == [message]
    assert rows() == before


@pytest.mark.parametrize("name", FILES)
def test_the_service_refuses_it_with_its_code(alice, name: str) -> None:
    code, message = EXPECTED[name]
    with pytest.raises(RamiError) as err:
        services.parties_import(owner=alice, records=read_upload((CORPUS / name).read_bytes()))
    assert (err.value.code, translated(err.value)) == (code, message)
    assert rows() == (0, 0, 0, 0, 0)


@pytest.mark.parametrize("name", FILES)
def test_rami_import_refuses_it_with_the_same_message(alice, name: str) -> None:
    code, message = EXPECTED[name]
    with pytest.raises(CommandError) as err:
        call_command("rami", "import", str(CORPUS / name), "--user", "alice")
    assert str(err.value) == f"Erreur {code} : {message}"
    assert err.value.returncode == 1
    assert rows() == (0, 0, 0, 0, 0)


GOOD = {
    "format": "ramiscore/1",
    "name": "Lundi",
    "created_at": "2026-11-02T20:00:00+01:00",
    "payes": {"mises": [], "rachats": []},
    "record": {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [{"winner": "Anne", "win": "rami", "hands": {"Bruno": {"cards": ["K"]}}}],
    },
}


def in_backup(raw: bytes) -> bytes:
    """The file as the second partie of a backup, after a sound one: an export as it is, a
    bare record inside an export named « X »."""
    text = raw.strip()
    if b'"format"' not in text:
        text = b'{"format": "ramiscore/1", "name": "X", "record": ' + text + b"}"
    good = json.dumps(GOOD).encode()
    return b'{"format": "ramiscore-sauvegarde/1", "parties": [' + good + b", " + text + b"]}"


@pytest.mark.parametrize("name", sorted(set(FILES) - {"backup-second-partie-broken.json"}))
def test_inside_a_backup_it_is_named_and_nothing_is_restored(client, name: str) -> None:
    code, message = EXPECTED[name]
    upload = SimpleUploadedFile("b.json", in_backup((CORPUS / name).read_bytes()))
    response = client.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 422
    [said] = response.context["form"].errors["fichier"]
    if name in WHOLE_FILE:
        assert said.startswith("Fichier de partie illisible : ")
    else:
        # An export keeps its name, shown as a message shows what the engine refuses.
        title = "Mardi" if b'"format"' in (CORPUS / name).read_bytes() else "X"
        title = {
            "partie-name-nul.json": "Mardi<U+0000>",
            "partie-name-bel.json": "Mardi<U+0007>",
            "partie-name-86-characters.json": "Mardi soir " + "x" * 20 + "…",
        }.get(name, title)
        assert said == f"Partie 2 « {title} » : {message}"
    assert rows() == (0, 0, 0, 0, 0)


RECORDS = [n for n in FILES if b'"format"' not in (CORPUS / n).read_bytes()]


@pytest.mark.parametrize("name", RECORDS)
def test_rami_score_prints_the_json_error_and_exits_1(name: str) -> None:
    code, message = EXPECTED[name]
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["score", str(CORPUS / name), "--format", "json"], stdout=out, stderr=err)
    assert status == 1
    error = json.loads(out.getvalue())["error"]
    assert error["code"] == code
    if name == "not-utf8.json":  # a file says its own name
        assert error["message"].endswith(f"{CORPUS / name} n'est pas en UTF-8")
    else:
        assert error["message"] == message
    assert "Traceback" not in err.getvalue()


def test_a_backup_restored_with_a_sound_partie_before_a_broken_one_restores_nothing(
    client,
) -> None:
    make_user("bob")  # another account: nothing of his is touched either
    before = rows()
    raw = (CORPUS / "backup-second-partie-broken.json").read_bytes()
    upload = SimpleUploadedFile("b.json", raw, "application/json")
    assert client.post(reverse("partie_import"), {"fichier": upload}).status_code == 422
    assert rows() == before

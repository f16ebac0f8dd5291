"""CSV and JSON exports, and the import (web page, service and ``rami import``).

Cast: alice owns the parties, bob is another account."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from games import services
from games.errors import translated
from games.files import partie_record
from games.models import Donne, Hand, Partie, Rachat
from games.scoring import RamiError
from games.selectors import partie_replay
from tests.factories import partie_p1
from tests.sheet_records import SEVEN, long_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def p1(alice) -> Partie:
    return partie_p1(alice)


def test_the_csv_is_the_marque_for_french_excel(client, p1) -> None:
    response = client.get(f"/parties/{p1.pk}/export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="marque-mardi-soir.csv"'
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body[1:]), delimiter=";"))
    assert rows[0] == [
        "Donne", "Gagnant", "Gain", "Alice points", "Alice total", "Bruno points",
        "Bruno total", "Chloé points", "Chloé total", "Observations", "Donneur",
    ]  # fmt: skip
    assert rows[1][:9] == ["1", "Alice", "Rami", "-10", "-10", "25", "25", "17", "17"]
    # A rachat shows the framed total that crossed and the restart, as the sheet does.
    assert rows[3][:9] == ["3", "Chloé", "Rami", "7", "-23", "78", "137 R1 → 27", "-10", "27"]
    assert rows[3][9] == "Chloé fait rami ; Bruno, 137, se rachète (1er rachat) et repart à 27"
    # Donne 4: Alice (11+10)×2 = 42, Chloé 12, Bruno −10 (docs/rules.md §3.2).
    assert rows[4][:9] == ["4", "Bruno", "Rami", "42", "19", "-10", "17", "12", "39"]
    _data, result = partie_replay(p1)
    for row, state in zip(rows[1:5], result.states, strict=True):
        totals = [row[i].rpartition("→ ")[2] for i in (4, 6, 8)]
        assert [int(total) for total in totals] == list(state.totals.values())
    # The money, with French decimal commas: stakes 3 × 1,00 + one rachat 2,00.
    assert rows[6] == ["Cagnotte", "5,00"]
    assert rows[7] == ["Joueur", "Mis au pot", "Règlement des points", "Net"]
    assert rows[9] == ["Bruno", "3,00", "0,00", "2,00"]


def test_the_json_export_carries_the_record_the_states_and_the_final(client, p1) -> None:
    response = client.get(f"/parties/{p1.pk}/export.json")
    data = json.loads(response.content)
    assert set(data) == {
        "format",
        "name",
        "created_at",
        "updated_at",
        "payes",
        "note",
        "premier_donneur",
        "donneurs",
        "record",
        "states",
        "final",
    }
    assert data["payes"] == {"mises": [], "rachats": []}
    assert data["format"] == "ramiscore/1" and data["name"] == "Mardi soir"
    assert data["record"]["config"] == {"prix_rachat": 200, "mise_initiale": 100}
    assert data["record"]["donnes"][2] == {
        "winner": "Chloé",
        "win": "rami",
        "hands": {
            "Alice": {"cards": ["5", "2"], "jokers": 0},
            "Bruno": {"cards": ["Q", "J", "9"], "jokers": 1},
        },
        "rachat": {"Bruno": True},
    }
    _data, result = partie_replay(p1)
    assert data["states"] == [s.to_dict() for s in result.states]
    assert data["final"] == json.loads(json.dumps(result.final.to_dict()))


def test_export_then_import_gives_the_same_partie(client, alice, p1) -> None:
    exported = client.get(f"/parties/{p1.pk}/export.json").content
    upload = SimpleUploadedFile("p1.json", exported, content_type="application/json")
    response = client.post("/parties/importer/", {"fichier": upload, "name": ""})
    assert response.status_code == 302
    copy = Partie.objects.exclude(pk=p1.pk).get()
    assert response["Location"] == f"/parties/{copy.pk}/"
    assert copy.name == "Mardi soir" and copy.owner == alice
    assert (copy.mise_initiale, copy.rachat_price, copy.rachat_price_2) == (
        Decimal("1.00"),
        Decimal("2.00"),
        None,
    )
    _d, original = partie_replay(p1)
    _d, imported = partie_replay(copy)
    assert [s.to_dict() for s in imported.states] == [s.to_dict() for s in original.states]
    assert imported.final.to_dict() == original.final.to_dict()
    assert (
        client.get(f"/parties/{copy.pk}/export.json").json()["record"]
        == json.loads(exported)["record"]
    )


def test_a_long_record_with_rule_overrides_round_trips(alice) -> None:
    record = long_record(60)
    partie = services.partie_import(owner=alice, record=record)
    assert partie.name == "Partie importée"
    assert (partie.seuil, partie.fixed_manches, partie.seuil_inclusive) == (150, 60, None)
    data, result = partie_replay(partie)

    assert partie_record(data) == record
    assert result.over and result.final.ranking[-1] == (7, "Chloé", 202)
    assert len(SEVEN) == len(data.joueurs)


BROKEN = {"preset": "classique", "players": ["Anne", "Bruno", "Chloé"]}


@pytest.mark.parametrize(
    ("record", "code", "message"),
    [
        (
            [1, 2],
            "enregistrement_invalide",
            "Fichier de partie illisible : le fichier doit contenir un objet JSON {…}",
        ),
        (
            {"players": ["Anne"], "donnes": []},
            "enregistrement_invalide",
            "Fichier de partie illisible : le champ « preset » manque",
        ),
        (
            {
                **BROKEN,
                "donnes": [
                    {
                        "winner": "Anne",
                        "win": "rami",
                        "hands": {"Bruno": {"cards": ["2"]}, "Chloé": {"cards": ["3"]}},
                    },
                    {"winner": "Anne", "win": "rami", "hands": {"Chloé": {"cards": ["3"]}}},
                ],
            },
            "mains_incompletes",
            "Donne 2 : Il manque la main de Bruno.",
        ),
        (
            {
                **BROKEN,
                "donnes": [
                    {
                        "winner": "Anne",
                        "win": "rami",
                        "hands": {"Bruno": {"cards": ["Z"]}, "Chloé": {"cards": ["3"]}},
                    }
                ],
            },
            "carte_inconnue",
            "Donne 1 : La carte « Z » n'existe pas (A R D V 10 9 … 2, ou A K Q J …).",
        ),
    ],
)
def test_import_refuses_a_broken_record_and_creates_nothing(alice, record, code, message) -> None:
    with pytest.raises(RamiError) as err:
        services.partie_import(owner=alice, record=record)
    assert (err.value.code, translated(err.value)) == (code, message)
    assert Partie.objects.count() == Donne.objects.count() == Hand.objects.count() == 0


def test_an_import_refused_by_the_database_after_the_engine_leaves_nothing(alice) -> None:
    # The engine accepts 104 cards in hand, but they do not fit Hand.cards (200 characters):
    # the refusal comes after the partie and its donnes were written, and must undo them.
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    cards = [rank for rank in ranks for _copy in range(8)]
    record = {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [{"winner": "Anne", "win": "rami", "hands": {"Bruno": {"cards": cards}}}],
    }
    with pytest.raises(RamiError) as err:
        services.partie_import(owner=alice, record=record)
    assert err.value.code == "import_invalide"
    assert Partie.objects.count() == Donne.objects.count() == Hand.objects.count() == 0


def test_the_import_page_says_what_is_wrong(client) -> None:
    upload = SimpleUploadedFile("x.json", b"pas du json", content_type="application/json")
    response = client.post("/parties/importer/", {"fichier": upload})
    assert response.status_code == 422
    assert "Fichier de partie illisible : ce n&#x27;est pas du JSON (ligne 1, colonne 1)" in (
        response.content.decode()
    )
    missing = {
        **BROKEN,
        "donnes": [{"winner": "Anne", "win": "rami", "hands": {"Chloé": {"cards": ["3"]}}}],
    }
    upload = SimpleUploadedFile("x.json", json.dumps(missing).encode(), "application/json")
    response = client.post("/parties/importer/", {"fichier": upload})
    assert response.status_code == 422
    assert "Donne 1 : Il manque la main de Bruno." in response.content.decode()
    assert Partie.objects.count() == 0


def test_a_record_waiting_for_a_decision_is_accepted_as_the_app_stores_it(alice) -> None:
    record = {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [{"winner": "Anne", "win": "rami", "hands": {"Bruno": {"points": 150}}}],
    }
    partie = services.partie_import(owner=alice, record=record)
    _data, result = partie_replay(partie)
    assert [(p.player, p.restart) for p in result.pending] == [("Bruno", -10)]
    # Also before later donnes, as after an old donne was edited: they wait for the answer.
    record["donnes"].append({"winner": "Anne", "win": "rami", "hands": {"Bruno": {"points": 3}}})
    partie = services.partie_import(owner=alice, record=record)
    _data, result = partie_replay(partie)
    assert (len(result.states), result.blocked_after) == (1, 1)
    # What comes before the missing answer must still be sound.
    record["donnes"][0]["hands"]["Bruno"] = {"cards": ["Z"]}
    with pytest.raises(RamiError) as err:
        services.partie_import(owner=alice, record=record)
    assert err.value.code == "carte_inconnue" and translated(err.value).startswith("Donne 1 :")


def test_rami_import_creates_the_partie_for_the_account(alice, tmp_path) -> None:
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(long_record(8)), encoding="utf-8")
    out = io.StringIO()
    call_command("rami", "import", str(path), "--user", "alice", "--name", "Jeudi", stdout=out)
    partie = Partie.objects.get(owner=alice)
    assert out.getvalue() == f"Partie « Jeudi » importée (n° {partie.pk}, 8 donnes).\n"
    assert Rachat.objects.filter(donne__partie=partie).count() == 0
    with pytest.raises(CommandError, match="Le compte « zoé » n'existe pas."):
        call_command("rami", "import", str(path), "--user", "zoé")
    path.write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="Erreur enregistrement_invalide"):
        call_command("rami", "import", str(path), "--user", "alice")
    assert Partie.objects.count() == 1

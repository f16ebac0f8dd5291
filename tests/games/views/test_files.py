"""Backups: the owner downloads every partie as one JSON file and imports it back.
Cast: alice has three parties; bob restores alice's file into his own account."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import replays, selectors, services
from games.models import Partie
from games.selectors import partie_replay
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(alice):
    """alice of the cast, with two parties: Lundi (a rachat bought back) and Mardi."""
    one = make_partie(alice, name="Lundi", rachat_price=Decimal("2.00"))
    play(one, "Alice", "rami", Bruno=hand(points=95), Chloé=hand("2"))
    play(one, "Alice", "rami", Bruno=hand("9"), Chloé=hand("3"))
    decide(one, "Bruno", True)
    two = make_partie(alice, name="Mardi", preset="rami51", joueurs=["Zoé", "Yves"])
    play(two, "Zoé", "tout_d_un_coup", Yves=hand("K"))
    services.partie_close(partie=two)
    make_partie(alice, name="Mercredi", joueurs=["Anne", "Paul"])
    return alice


def states(partie: Partie) -> list[dict]:
    _data, result = partie_replay(partie)
    return [s.to_dict() for s in result.states] + [result.final.to_dict()]


def test_a_backup_restores_every_partie_with_the_same_marque(client, alice) -> None:
    client.force_login(alice)
    response = client.get(reverse("backup_download"))
    assert response["Content-Disposition"].startswith('attachment; filename="ramiscore-sauvegarde-')
    backup = json.loads(response.content)
    assert backup["format"] == "ramiscore-sauvegarde/1"
    assert sorted(p["name"] for p in backup["parties"]) == ["Lundi", "Mardi", "Mercredi"]

    bob = make_user("bob")
    client.force_login(bob)
    upload = SimpleUploadedFile("sauvegarde.json", response.content, "application/json")
    restored = client.post(reverse("partie_import"), {"fichier": upload})
    assert restored.status_code == 302 and restored["Location"] == reverse("home")
    for original in Partie.objects.filter(owner=alice):
        copy = Partie.objects.get(owner=bob, name=original.name)
        assert states(copy) == states(original)
        assert copy.ended == original.ended
        assert copy.rachat_price == original.rachat_price


def test_a_broken_backup_names_the_partie_and_restores_nothing(client, alice) -> None:
    client.force_login(alice)
    backup = json.loads(client.get(reverse("backup_download")).content)
    mardi = next(p for p in backup["parties"] if p["name"] == "Mardi")
    # A plain sortie: a flat win (tout d'un coup) needs no hands (docs/rules.md R27).
    mardi["record"]["donnes"][0]["win"] = "sortie"
    del mardi["record"]["donnes"][0]["hands"]["Yves"]
    position = backup["parties"].index(mardi) + 1
    count = Partie.objects.count()
    client.force_login(make_user("bob"))
    upload = SimpleUploadedFile("s.json", json.dumps(backup).encode(), "application/json")
    response = client.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 422
    [message] = response.context["form"].errors["fichier"]
    assert message == f"Partie {position} « Mardi » : Donne 1 : Il manque la main de Yves."
    assert Partie.objects.count() == count


def test_the_backup_runs_a_fixed_number_of_queries(client, alice, django_assert_max_num_queries):
    client.force_login(alice)
    # 8, and 3 for the account's first expensive answer (its bucket made: games/throttle.py).
    with django_assert_max_num_queries(8 + 3):
        client.get(reverse("backup_download"))


def test_the_import_page_offers_the_backup_once_and_keeps_its_title_plain(client) -> None:
    client.force_login(make_user("bob"))
    html = client.get(reverse("partie_import")).content.decode()
    assert "<title>Importer une partie · ramiscore</title>" in html
    assert html.count(reverse("backup_download")) == 1


def test_restoring_twice_skips_what_is_already_there_and_keeps_dates_and_payments(
    client, alice
) -> None:
    lundi = Partie.objects.get(name="Lundi")
    rachat = lundi.donnes.get(number=2).rachats.get()
    services.rachat_mark_paid(rachat=rachat, paid=True)
    client.force_login(alice)
    content = client.get(reverse("backup_download")).content

    bob = make_user("bob")
    client.force_login(bob)
    for _ in range(2):
        upload = SimpleUploadedFile("s.json", content, "application/json")
        response = client.post(reverse("partie_import"), {"fichier": upload}, follow=True)
    assert Partie.objects.filter(owner=bob).count() == 3
    assert "« Lundi » est déjà dans vos parties : ignorée." in response.content.decode()
    copy = Partie.objects.get(owner=bob, name="Lundi")
    assert copy.created_at == lundi.created_at  # the Comptes page groups by evening
    assert copy.donnes.get(number=2).rachats.get().paid is True


# Donnes in each of a backup's 5 parties. A file at the limits (5000 donnes, 200 parties) is
# read in tests/cross/test_limits.py, and one of 5 parties of 1000 donnes restored against the
# worker's timeout by bench/restore.py; here a restore proves what it writes, whatever the count.
MARATHON = 100


def marathons(players: list[str]) -> bytes:
    """The backup of an account of 5 parties of MARATHON donnes, each player winning in turn,
    each loser keeping a few points."""
    rows = []
    for n in range(MARATHON):
        winner = players[n % len(players)]
        hands = {p: {"points": 1 + n % 5} for p in players if p != winner}
        rows.append({"winner": winner, "win": "sortie", "hands": hands})
    record = {"preset": "rami51", "players": players, "config": {"target": 100_000}}
    carole = make_user("carole")
    for n in range(5):
        partie = services.partie_import(
            owner=carole, record={**record, "donnes": rows}, name=f"Marathon {n + 1}"
        )
        services.partie_note_set(partie=partie, note=f"Soirée {n + 1}")
    client = Client()
    client.force_login(carole)
    return client.get(reverse("backup_download")).content


def test_a_backup_of_5_long_parties_restores_whole(client) -> None:
    """Restored in one transaction with each partie's stored replay, never a replay per
    donne (bench/restore.py times it against the worker timeout)."""
    backup = json.loads(marathons(["Anne", "Bruno", "Chloé"]))
    assert sum(len(p["record"]["donnes"]) for p in backup["parties"]) == 5 * MARATHON
    bob = make_user("bob")
    client.force_login(bob)
    upload = SimpleUploadedFile("sauvegarde.json", json.dumps(backup).encode(), "application/json")
    response = client.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 302
    copies = Partie.objects.filter(owner=bob)
    assert copies.count() == 5
    assert sum(copy.donnes.count() for copy in copies) == 5 * MARATHON
    for exported in backup["parties"]:
        copy = copies.get(name=exported["name"])
        assert copy.note == exported["note"]
        assert replays.agrees(copy)  # its stored replay is the engine's, tagged fresh
        stored = selectors.partie_state(copy)
        assert stored.last.totals == exported["states"][-1]["totals"]
        assert stored.summary.final.to_dict() == exported["final"]


def test_a_backup_whose_last_partie_is_refused_restores_nothing(client) -> None:
    backup = json.loads(marathons(["Anne", "Bruno"]))
    last = backup["parties"][-1]
    last_index = MARATHON - 1
    del last["record"]["donnes"][last_index]["hands"]["Anne" if last_index % 2 else "Bruno"]
    client.force_login(make_user("bob"))
    upload = SimpleUploadedFile("sauvegarde.json", json.dumps(backup).encode(), "application/json")
    response = client.post(reverse("partie_import"), {"fichier": upload})
    assert response.status_code == 422
    [message] = response.context["form"].errors["fichier"]
    assert message == f"Partie 5 « {last['name']} » : Donne {MARATHON} : Il manque la main de Anne."
    assert not Partie.objects.filter(owner__username="bob").exists()

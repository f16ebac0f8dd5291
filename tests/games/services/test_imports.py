"""Imports outside the write lock (issue "Flat cost"): a file is read, replayed and checked
before one short transaction writes it, with bulk inserts and its stored replay. A phone
recording a donne meanwhile is not held up for the whole import; a refused file still
creates nothing (tests/cross/test_limits.py, tests/games/test_files.py,
tests/games/views/test_files.py).

Cast: alice owns the parties; bob restores her backup into his own account."""

from __future__ import annotations

import json
import threading
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors, services
from games.errors import translated
from games.models import Donne, Hand, Partie, PartieResult, Rachat
from games.scoring import ENGINE_VERSION, RamiError
from games.selectors import partie_replay
from games.services import imports
from tests.cross.test_limits import backup, flat_record
from tests.factories import hand, make_partie, make_user, play
from tests.sheet_records import long_record

SIX = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")


@pytest.mark.django_db(transaction=True)
def test_a_donne_is_recorded_while_a_large_import_runs(monkeypatch) -> None:
    """A real thread imports a partie of 1000 donnes of 6 players; once it has read and
    replayed the file, and before it writes, it waits for this thread to record donnes on
    another partie through the services. They succeed at once: the import holds the write
    lock only for its inserts. (An import that held it throughout would leave these saves
    waiting for the lock the import holds while it waits for them: "database is locked".)"""
    alice = make_user("alice")
    lundi = make_partie(alice, name="Lundi", joueurs=["Anne", "Bruno"])
    record = flat_record(1000, SIX)
    read, saved_them = threading.Event(), threading.Event()
    prepare = imports._prepare

    def prepare_then_wait(*args, **kwargs):
        ready = prepare(*args, **kwargs)
        read.set()
        saved_them.wait(60)
        return ready

    monkeypatch.setattr(imports, "_prepare", prepare_then_wait)
    outcome: dict = {}

    def run_import() -> None:
        try:
            outcome["partie"] = services.partie_import(owner=alice, record=record, name="Long")
        except BaseException as err:  # an error in the thread must fail the test
            outcome["error"] = err
        finally:
            read.set()
            connections.close_all()  # this thread's own ORM connection

    thread = threading.Thread(target=run_import)
    thread.start()
    assert read.wait(60)
    saved = []
    for index in range(6):
        # Each wins in turn, the other keeps 1 point: nobody nears the seuil.
        winner, loser = ("Anne", "Bruno") if index % 2 == 0 else ("Bruno", "Anne")
        play(lundi, winner, "rami", **{loser: hand(points=1)})
        saved.append(index)
    saved_them.set()
    thread.join(120)
    assert not thread.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["partie"].donnes.count() == 1000
    numbers = list(lundi.donnes.values_list("number", flat=True))
    assert numbers == list(range(1, len(saved) + 1))
    _data, result = partie_replay(lundi)
    anne_won = (len(saved) + 1) // 2
    bruno_won = len(saved) // 2
    assert result.states[-1].totals == {
        "Anne": -10 * anne_won + bruno_won,
        "Bruno": -10 * bruno_won + anne_won,
    }


@pytest.mark.django_db
def test_an_import_writes_in_bulk(alice) -> None:
    """A few statements per table, whatever the number of donnes: 1000 donnes add only the
    batches the backend needs (SQLite: 999 values a statement), not a query per row."""
    counts = []
    # Each import into a new account: both create their habitués, one query.
    for donnes, owner in ((10, alice), (1000, make_user("bob"))):
        with CaptureQueriesContext(connection) as queries:
            services.partie_import(owner=owner, record=flat_record(donnes, SIX))
        counts.append(len(queries))
    assert counts[0] <= counts[1] <= counts[0] + 40
    assert Hand.objects.count() == 5 * 1010


@pytest.mark.django_db
def test_an_imported_partie_stores_the_replay_the_app_would_derive(alice) -> None:
    """Rachats bought back and declined, stakes, a partie ended by its last manche."""
    partie = services.partie_import(owner=alice, record=long_record(90), name="Jeudi")
    stored = PartieResult.objects.get(partie=partie)
    partie.refresh_from_db()
    assert (stored.engine, stored.revision) == (ENGINE_VERSION, partie.revision)
    states = [s.to_storage() for s in selectors.states_of(partie)]
    _data, result = partie_replay(partie)
    assert states == [s.to_storage() for s in result.states]
    assert len(states) == 90
    summary = json.loads(stored.summary)
    assert summary["over"] is True and summary["recorded"] == 90
    assert [(r["donne"], r["player"]) for r in summary["rachats"]] == [
        (21, "Bruno"),
        (81, "Bruno"),
    ]


@pytest.mark.django_db
def test_a_partie_waiting_for_a_decision_stores_what_it_waits_for(alice) -> None:
    record = {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [
            {"winner": "Anne", "win": "rami", "hands": {"Bruno": {"points": 150}}},
            {"winner": "Anne", "win": "rami", "hands": {"Bruno": {"points": 3}}},
        ],
    }
    partie = services.partie_import(owner=alice, record=record)
    summary = json.loads(PartieResult.objects.get(partie=partie).summary)
    assert (summary["recorded"], summary["applied"]) == (2, 1)
    assert [(p["donne"], p["player"], p["restart"]) for p in summary["pending"]] == [
        (1, "Bruno", -10)
    ]


@pytest.mark.django_db
def test_a_stranger_behind_a_decision_still_to_take_is_refused_before_any_write(alice) -> None:
    """The donnes after a missing decision are not replayed (lenient), but are read: an
    unknown name there is refused like anywhere else, and nothing is written."""
    record = {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [
            {"winner": "Anne", "win": "rami", "hands": {"Bruno": {"points": 150}}},
            {"winner": "Zoé", "win": "rami", "hands": {"Bruno": {"points": 3}}},
        ],
    }
    with pytest.raises(RamiError) as err:
        services.partie_import(owner=alice, record=record)
    assert translated(err.value) == "Donne 2 : Zoé ne joue pas à cette table."
    assert Partie.objects.count() == Donne.objects.count() == 0


@pytest.mark.django_db
def test_a_restored_backup_keeps_dates_payments_and_fresh_replays(alice) -> None:
    lundi = make_partie(
        alice, name="Lundi", mise_initiale=Decimal("1.00"), rachat_price=Decimal("2.00")
    )
    play(lundi, "Alice", "rami", Bruno=hand(points=95), Chloé=hand("2"))
    play(lundi, "Alice", "rami", Bruno=hand("9"), Chloé=hand("3"))
    services.rachat_decide(partie=lundi, joueur=lundi.joueurs.get(name="Bruno"), accepted=True)
    rachat = Rachat.objects.get(donne__partie=lundi)
    services.rachat_mark_paid(rachat=rachat, paid=True)
    services.mise_mark_paid(joueur=lundi.joueurs.get(name="Chloé"), paid=True)
    owner = Client()
    owner.force_login(alice)
    content = owner.get(reverse("backup_download")).content

    bob = make_user("bob")
    client = Client()
    client.force_login(bob)
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("s.json", content, "application/json")},
    )
    assert response.status_code == 302
    copy = Partie.objects.get(owner=bob)
    assert copy.created_at == Partie.objects.get(pk=lundi.pk).created_at
    assert list(copy.joueurs.filter(mise_paid=True).values_list("name", flat=True)) == ["Chloé"]
    assert Rachat.objects.get(donne__partie=copy).paid is True
    stored = PartieResult.objects.get(partie=copy)
    assert stored.revision == Partie.objects.get(pk=copy.pk).revision
    assert json.loads(stored.summary)["rachats"] == [
        {"donne": 2, "player": "Bruno", "number": 1, "price": 200}
    ]


@pytest.mark.django_db
def test_a_backup_with_one_partie_refused_creates_none(client, alice) -> None:
    content = backup(flat_record(4), flat_record(1000), {"preset": "classique"})
    client.force_login(alice)
    response = client.post(
        reverse("partie_import"),
        {"fichier": SimpleUploadedFile("s.json", content, "application/json")},
    )
    assert response.status_code == 422
    [message] = response.context["form"].errors["fichier"]
    assert (
        message
        == "Partie 3 « Soirée 3 » : Fichier de partie illisible : le champ « players » manque"
    )
    assert Partie.objects.count() == Donne.objects.count() == PartieResult.objects.count() == 0
    assert json.loads(content)["parties"][1]["name"] == "Mardi"

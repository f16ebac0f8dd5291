"""A request replays as little as it can: the pages read the stored replay (games/replays.py)
and replay nothing; recording a donne replays that donne alone, under the service's lock;
editing donne k replays from k. The replay counted here is the engine's own function,
wrapped so that it still runs, with the number of donnes it was given. Cast: alice owns a
4-player partie of 3 donnes."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Donne
from games.scoring.replay import replay as engine_replay
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Anne", "Bruno", "Chloé", "David"]


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """How many donnes each engine replay of the request went through."""
    calls: list[int] = []
    real = engine_replay

    def counted(preset, players, donnes, *args, **kwargs):
        calls.append(len(donnes))
        return real(preset, players, donnes, *args, **kwargs)

    # Where the app calls the engine: the loaded partie, and the append of a new donne.
    monkeypatch.setattr("games.selectors.state.replay", counted)
    monkeypatch.setattr("games.services.donnes.replay", counted)
    return calls


@pytest.fixture
def partie():
    partie = make_partie(make_user("alice"), joueurs=NAMES)
    for _ in range(3):
        play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("5"))
    return partie


def _loads(queries: CaptureQueriesContext) -> int:
    """Loads of the partie: partie_load reads the hands in one query."""
    return sum('FROM "games_hand"' in q["sql"] for q in queries.captured_queries)


def _next_donne_post(client, partie) -> dict[str, str]:
    """The form of the page as the phone has it, filled in: every field the page rendered."""
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    fields = dict(
        re.findall(
            r'<input type="hidden" name="(idempotency_key|revision|players)" value="([^"]*)"', page
        )
    )
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    return {
        **fields,
        "winner": str(pk["Bruno"]),
        "win": "rami",
        f"points_{pk['Anne']}": "7",
        f"points_{pk['Chloé']}": "3",
        f"points_{pk['David']}": "12",
    }


def test_the_partie_page_replays_nothing_and_loads_no_hand(client, partie, replays) -> None:
    client.force_login(partie.owner)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("partie_detail", args=[partie.pk]))
    assert response.status_code == 200
    assert replays == []
    assert _loads(queries) == 0


def test_recording_a_donne_replays_once_under_the_lock(client, partie, replays) -> None:
    client.force_login(partie.owner)
    data = _next_donne_post(client, partie)
    replays.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("donne_create", args=[partie.pk]), data, **HTMX)
    assert response.status_code == 200
    assert "Donne 4 notée." in response.content.decode()
    # The new donne alone, after the stored state of donne 3; the page reads what was stored.
    assert replays == [1]
    assert _loads(queries) == 0
    assert Donne.objects.filter(partie=partie).count() == 4


def test_a_double_tap_replays_once_and_records_once(client, partie, replays) -> None:
    client.force_login(partie.owner)
    data = _next_donne_post(client, partie)
    client.post(reverse("donne_create", args=[partie.pk]), data, **HTMX)
    replays.clear()
    response = client.post(reverse("donne_create", args=[partie.pk]), data, **HTMX)
    assert response.status_code == 200
    assert replays == []
    assert Donne.objects.filter(partie=partie).count() == 4


def test_the_live_count_of_a_hand_needs_no_replay(client, partie, replays) -> None:
    client.force_login(partie.owner)
    data = _next_donne_post(client, partie)
    replays.clear()
    response = client.post(reverse("donne_preview", args=[partie.pk]), data, **HTMX)
    assert replays == []
    assert "12" in response.content.decode()


def test_editing_a_donne_replays_only_under_the_lock(client, partie, replays) -> None:
    client.force_login(partie.owner)
    page = client.get(reverse("donne_edit", args=[partie.pk, 2])).content.decode()
    fields = dict(re.findall(r'name="(idempotency_key|revision|players)" value="([^"]*)"', page))
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data = {**fields, "winner": str(pk["Anne"]), "win": "rami"}
    data |= {f"points_{pk[name]}": "4" for name in ("Bruno", "Chloé", "David")}
    replays.clear()
    response = client.post(reverse("donne_edit", args=[partie.pk, 2]), data)
    assert response.status_code == 302
    # Donnes 2 and 3, after the stored state of donne 1, under the lock.
    assert replays == [2]

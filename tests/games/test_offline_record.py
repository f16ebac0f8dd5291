"""What the partie page carries for the phone's own replay (games/offline_record.py): the
record header, its revision and the stored state after the last donne. The engine carrying on
from that state with the next donne gives exactly the server's state after recording it: what
the phone shows offline is what the server will show. Cast: alice keeps the score."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games import selectors
from games.scoring import DonneState, replay
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
FOUR = ["Anne", "Bruno", "Chloé", "David"]


def page_record(client: Client, partie) -> dict:
    html = client.get(f"/parties/{partie.pk}/").content.decode()
    found = re.search(r'<script id="partie-record" type="application/json">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


def test_the_page_carries_the_record_at_its_revision() -> None:
    alice = make_user("alice")
    partie = make_partie(alice, joueurs=FOUR)
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=95))
    client = Client()
    client.force_login(alice)
    page = page_record(client, partie)
    assert page["record"] == {
        "preset": "classique",
        "players": FOUR,
        "config": {},
        "donnes": [],
        "ended": False,
    }
    partie.refresh_from_db()
    assert page["revision"] == selectors.partie_state(partie).revision
    assert page["after"]["number"] == 1
    assert page["after"]["totals"] == {"Anne": -10, "Bruno": 12, "Chloé": 7, "David": 95}
    assert page["blocked"] is False
    assert sorted(page["joueurs"].values()) == sorted(FOUR)
    assert (page["default_win"], page["talon"]) == ("rami", "talon_epuise")
    # Where the queue sends what is decided offline; the record's first donne; the currency.
    pks = {name: pk for pk, name in page["joueurs"].items()}
    assert (
        page["rachat_urls"][pks["David"]]
        == f"/parties/{partie.pk}/hors-ligne/rachats/{pks['David']}/"
    )
    assert page["close_url"] == f"/parties/{partie.pk}/hors-ligne/terminer/"
    assert page["rematch_url"] == f"/parties/{partie.pk}/hors-ligne/rejouer/"
    assert (page["first"], page["currency"]) == (2, "EUR")

    # The phone's replay of a waiting donne (as static/js/engine-worker.js runs it)…
    donne = {
        "winner": "Bruno",
        "win": "rami",
        "hands": {
            "Anne": {"points": 4, "jokers": 0},
            "Chloé": {"cards": "R D", "jokers": 1},
            "David": {"points": 9, "jokers": 0},
        },
    }
    record = page["record"]
    phone = replay(
        record["preset"],
        record["players"],
        [donne],
        record["config"],
        lenient=True,
        after=DonneState.from_storage(page["after"]),
    )
    # …and the server's, once it is sent.
    play(
        partie,
        "Bruno",
        "rami",
        Anne=hand(points=4),
        Chloé=hand("R D", jokers=1),
        David=hand(points=9),
    )
    partie.refresh_from_db()  # its stored replay as the write left it
    assert phone.states[-1].to_storage() == selectors.partie_state(partie).states[-1].to_storage()
    assert phone.states[-1].totals == {"Anne": -6, "Bruno": 2, "Chloé": 67, "David": 104}


def test_behind_a_crosser_to_decide_the_phone_replays_nothing() -> None:
    alice = make_user("alice")
    partie = make_partie(alice, joueurs=FOUR)
    play(
        partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=120)
    )
    client = Client()
    client.force_login(alice)
    assert page_record(client, partie)["blocked"] is True

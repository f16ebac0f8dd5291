"""The stored replay (games/replays.py): after every kind of write it is what a fresh replay
gives; a stale or missing one is rebuilt on read, and logged; ``rami rebuild`` recomputes
them all and ``--check`` finds one that differs. Cast: alice owns the parties."""

from __future__ import annotations

import json
import logging
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games import replays, selectors, services
from games.models import DonneResult, Hand, Partie, PartieResult, Rachat
from games.selectors import partie_replay
from tests.factories import decide, hand, make_partie, partie_p1, play
from tests.sheet_records import long_record

pytestmark = pytest.mark.django_db


def agrees_everywhere() -> None:
    for partie in Partie.objects.all():
        assert replays.agrees(partie), f"partie {partie.pk} « {partie.name} »"


def test_every_kind_of_write_keeps_the_stored_replay_equal_to_a_fresh_one(alice) -> None:
    partie = make_partie(
        alice, joueurs=["Anne", "Bruno", "Chloé", "David"], mise_initiale=Decimal("1")
    )
    agrees_everywhere()  # created: no donne yet
    play(partie, "Anne", "rami", Bruno=hand("K Q 5"), Chloé=hand("9"), David=hand("2"))
    play(partie, "Bruno", "rami", Anne=hand(points=110), Chloé=hand("3"), David=hand("4"))
    agrees_everywhere()  # Anne crossed at donne 2: a decision waits
    decide(partie, "Anne", True)
    services.rachat_mark_paid(rachat=Rachat.objects.get(accepted=True), paid=True)
    play(partie, "Chloé", "rami", Anne=hand("5"), Bruno=hand(points=120), David=hand("7"))
    decide(partie, "Bruno", False)
    agrees_everywhere()  # a rachat bought and one declined
    play(partie, "David", "rami_de_la_main", Anne=hand("8"), Chloé=hand("9"))
    donne1 = partie.donnes.get(number=1)
    joueurs = {j.name: j for j in partie.joueurs.all()}
    services.donne_update(
        donne=donne1,
        winner=joueurs["Anne"],
        win="rami",
        hands={joueurs[n]: hand("6") for n in ("Bruno", "Chloé", "David")},
    )
    agrees_everywhere()  # an old donne edited: every later one replayed
    services.donne_delete(donne=partie.donnes.get(number=2))
    agrees_everywhere()  # a middle donne deleted: the later ones renumbered
    services.donne_delete(donne=partie.donnes.order_by("-number").first())
    agrees_everywhere()  # the last one undone
    services.mise_mark_paid(joueur=joueurs["Anne"], paid=True)
    agrees_everywhere()  # a payment tick
    services.partie_update_money(
        partie=partie,
        mise_initiale=Decimal("2"),
        rachat_price=Decimal("3"),
        point_value=Decimal("0.10"),
        settlement="croise",
    )
    agrees_everywhere()  # the money changed
    services.partie_close(partie=partie)
    agrees_everywhere()
    services.partie_reopen(partie=partie)
    agrees_everywhere()
    services.partie_import(owner=alice, record=long_record(40), name="Importée")
    agrees_everywhere()
    call_command("rami", "rebuild", "--check")


def test_a_partie_ended_by_a_decision_and_a_fixed_manche_end_agree(alice) -> None:
    partie = make_partie(alice, preset="rami52_6", joueurs=["Anne", "Bruno"])
    for _ in range(4):
        play(partie, "Anne", "rami", Bruno=hand("K Q"))
    agrees_everywhere()
    assert selectors.summary_of(Partie.objects.get(pk=partie.pk)).end_reason == "fixed_manches"


def test_a_stored_replay_of_another_engine_is_replayed_on_read_and_stored_by_a_write(
    alice, monkeypatch, caplog
) -> None:
    partie = partie_p1(alice)
    monkeypatch.setattr(replays, "ENGINE_VERSION", "a-later-engine")
    monkeypatch.setattr("games.selectors.stored.ENGINE_VERSION", "a-later-engine")
    with caplog.at_level(logging.WARNING, logger="games.selectors"):
        summary = selectors.summary_of(Partie.objects.select_related("result").get(pk=partie.pk))
    _data, fresh = partie_replay(partie)
    assert summary.final.ranking == fresh.final.ranking
    # A read never writes: the stale summary stays until a write, under its lock, stores it.
    assert PartieResult.objects.get(partie=partie).engine != "a-later-engine"
    assert not replays.agrees(partie)
    assert "is stale" in caplog.text and f"partie {partie.pk}" in caplog.text
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    assert PartieResult.objects.get(partie=partie).engine == "a-later-engine"
    assert replays.agrees(partie)


def test_a_change_made_outside_the_app_is_seen_and_rebuilt(alice, client) -> None:
    partie = partie_p1(alice)
    before = Partie.objects.get(pk=partie.pk).revision
    chloe = selectors.states_of(partie, last=1)[0].totals["Chloé"]
    # A manual fix in the database: Chloé kept 20 points more at donne 4 (12 → 32).
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_hand SET points = 32 WHERE id = %s",
            [Hand.objects.get(donne__partie=partie, donne__number=4, points=12).pk],
        )
    assert Partie.objects.get(pk=partie.pk).revision > before  # the trigger moved it
    client.force_login(alice)
    page = client.get(f"/parties/{partie.pk}/").content.decode()
    assert f'data-total="{chloe + 20}"' in page  # never the stale total
    assert not replays.agrees(partie)  # the page read it in memory; it stored nothing
    call_command("rami", "rebuild")
    assert replays.agrees(partie)


def test_a_missing_stored_replay_is_rebuilt_on_read(alice) -> None:
    partie = partie_p1(alice)
    PartieResult.objects.filter(partie=partie).delete()
    DonneResult.objects.filter(partie=partie).delete()
    stored = selectors.partie_state(Partie.objects.get(pk=partie.pk))
    assert [s.number for s in stored.states] == [1, 2, 3, 4]
    _data, fresh = partie_replay(partie)
    assert stored.states == fresh.states


def test_rebuild_recomputes_every_partie_and_check_finds_a_corrupted_state(alice) -> None:
    first, second = partie_p1(alice), partie_p1(alice)
    # A stored state corrupted without the partie changing: the tag cannot see it, the
    # comparison does.
    row = DonneResult.objects.get(partie=second, number=2)
    row.state = json.dumps(
        {**json.loads(row.state), "totals": {"Alice": 0, "Bruno": 0, "Chloé": 0}}
    )
    row.save()
    with pytest.raises(CommandError, match=f"parties {second.pk}"):
        call_command("rami", "rebuild", "--check")
    call_command("rami", "rebuild")
    call_command("rami", "rebuild", "--check")
    assert replays.agrees(first) and replays.agrees(second)

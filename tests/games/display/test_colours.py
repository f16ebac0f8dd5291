"""Player colours (games/display/colours.py): chosen once per habitué, kept from partie to
partie, distinct at one table."""

from __future__ import annotations

import pytest

from games import selectors
from games.display.colours import first_free, glyph
from games.display.marque import build_marque
from games.models import Habitue
from tests.factories import make_partie

pytestmark = pytest.mark.django_db


def _colours(partie) -> dict[str, int]:
    return {
        line.joueur.name: line.colour
        for line in build_marque(selectors.partie_state(partie)).players
    }


def test_a_habitue_keeps_his_colour_at_his_next_table(alice) -> None:
    first = make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    assert _colours(first) == {"Léa": 0, "Papa": 1, "Tom": 2}
    second = make_partie(alice, joueurs=["Tom", "Mamie", "Léa"])
    # Tom and Léa as before; Mamie, new, takes the first colour free at this table.
    assert _colours(second) == {"Tom": 2, "Mamie": 1, "Léa": 0}
    assert Habitue.objects.get(name="Mamie").colour == 1


def test_two_habitues_of_one_colour_at_one_table_are_still_told_apart(alice) -> None:
    make_partie(alice, joueurs=["Léa", "Papa"])
    make_partie(alice, joueurs=["Zoé", "Ana"])  # Zoé 0 and Ana 1, as Léa and Papa
    together = make_partie(alice, joueurs=["Léa", "Zoé", "Ana", "Papa"])
    assert _colours(together) == {"Léa": 0, "Zoé": 2, "Ana": 1, "Papa": 3}
    assert Habitue.objects.get(name="Zoé").colour == 0  # his own is unchanged


def test_every_colour_has_its_marker() -> None:
    assert [glyph(c) for c in range(8)] == ["●", "■", "▲", "◆", "✚", "✱", "○", "▬"]
    assert first_free([0, 1, 3]) == 2
    assert first_free(list(range(8)) + [0]) == 1


def test_the_migration_gives_the_habitues_already_there_a_colour(alice) -> None:
    import importlib

    from django.apps import apps

    make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    make_partie(alice, joueurs=["Tom", "Mamie"])
    Habitue.objects.update(colour=None)
    backfill = importlib.import_module("games.migrations.0015_habitue_colour").backfill
    backfill(apps, None)
    colours = dict(Habitue.objects.values_list("name", "colour"))
    # Each at his first table: Léa 0, Papa 1, Tom 2; then Mamie beside Tom takes 0.
    assert colours == {"Léa": 0, "Papa": 1, "Tom": 2, "Mamie": 0}

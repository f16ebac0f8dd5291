"""docs/rules.md §1.3, R27: what a typed donne means (games/scoring/entry.py): the winner keeps
no hand, cards typed win over a points total, jokers alone are a hand, an exhausted talon is
its own win type, and a flat win needs no hand."""

from __future__ import annotations

import pytest

from games.scoring import TALON_EPUISE, Boxes, RamiError, get_preset, read_typed, typed_win
from games.scoring.entry import BOX_MAX_POINTS, typed_cards, typed_hand

CLASSIQUE = get_preset("classique")
RAMI51 = get_preset("rami51")
RAMI52_7 = get_preset("rami52_7")
TABLE = ["Anne", "Bruno", "Chloé"]


def test_an_exhausted_talon_is_its_own_win_type_and_no_win_is_the_first() -> None:
    assert typed_win(RAMI52_7, TALON_EPUISE, "rami") == TALON_EPUISE
    assert typed_win(CLASSIQUE, "Anne", None) == "rami"
    assert typed_win(CLASSIQUE, "Anne", "") == "rami"
    assert typed_win(CLASSIQUE, "Anne", "rami_de_la_main") == "rami_de_la_main"


def test_cards_win_over_points_and_jokers_alone_are_a_hand() -> None:
    assert typed_hand(Boxes(cards="R, D 10", points=40, jokers=1)) == {
        "cards": ["K", "Q", "10"],
        "jokers": 1,
    }
    assert typed_hand(Boxes(points=0, jokers=2)) == {"points": 0, "jokers": 2}
    assert typed_hand(Boxes(jokers=2)) == {"cards": [], "jokers": 2}
    assert typed_hand(Boxes(cards="   ")) is None
    assert typed_cards("a,k q") == ["A", "K", "Q"]


def test_the_winner_keeps_no_hand_and_a_missing_hand_is_named() -> None:
    boxes = {"Anne": Boxes(points=12), "Bruno": Boxes(cards="Z 3"), "Chloé": Boxes()}
    typed = read_typed(CLASSIQUE, TABLE, "Anne", "rami", boxes)
    assert typed.hands == {}  # Anne won: her 12 points are not read
    assert list(typed.unreadable) == ["Bruno"]
    assert typed.unreadable["Bruno"].code == "carte_inconnue"
    assert typed.missing == ["Chloé"]


def test_a_flat_win_needs_no_hand_but_keeps_those_typed() -> None:
    boxes = {"Bruno": Boxes(points=5)}
    typed = read_typed(RAMI51, TABLE, "Anne", "tout_d_un_coup", boxes)
    assert typed.win == "tout_d_un_coup"
    assert typed.hands == {"Bruno": {"points": 5, "jokers": 0}}
    assert typed.missing == []


def test_an_exhausted_talon_reads_every_hand() -> None:
    boxes = {name: Boxes(points=n) for n, name in enumerate(TABLE, 1)}
    typed = read_typed(RAMI52_7, TABLE, None, TALON_EPUISE, boxes)
    assert typed.hands == {
        "Anne": {"points": 1, "jokers": 0},
        "Bruno": {"points": 2, "jokers": 0},
        "Chloé": {"points": 3, "jokers": 0},
    }


def test_a_points_box_takes_up_to_five_thousand() -> None:
    # docs/rules.md R28's 1000 is the engine's refusal, with its own message, below it.
    assert BOX_MAX_POINTS == 5000
    with pytest.raises(RamiError):
        typed_cards("K X")

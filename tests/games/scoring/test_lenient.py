"""Lenient replay for the web UI: pending rachats, stale decisions, blocked donnes."""

from __future__ import annotations

import pytest

from games.scoring import PendingRachat, RamiError, replay

from .helpers import donne

PLAYERS = ["A", "B", "C"]
# A rami −10; B 100 crosses; C 2. Reference = 2.
CROSS_B = donne("A", "rami", {"B": "K K K K Q Q Q Q J J", "C": "2"})
NEXT = donne("C", "rami", {"A": "5", "B": "3"})


def test_stops_at_the_first_donne_waiting_for_a_decision() -> None:
    result = replay("classique", PLAYERS, [CROSS_B, NEXT, NEXT], {"prix_rachat": 150}, lenient=True)
    assert len(result.states) == 1
    assert result.blocked_after == 2
    assert result.pending == [
        PendingRachat(donne=1, player="B", total=100, number=1, restart=2, price=150)
    ]
    state = result.states[0]
    assert state.totals == {"A": -10, "B": 100, "C": 2}
    assert state.in_race == PLAYERS
    assert state.partie_over is False
    assert (result.over, result.final.provisional) == (False, True)


def test_a_decided_crosser_is_applied_while_another_is_pending() -> None:
    both = donne("A", "rami", {"B": "K K K K Q Q Q Q J J", "C": "K K K K Q Q Q Q J J", "D": "2"})
    result = replay("classique", [*PLAYERS, "D"], [both | {"rachat": {"C": True}}], lenient=True)
    assert [(p.player, p.restart) for p in result.pending] == [("B", 2)]
    assert result.states[0].totals == {"A": -10, "B": 100, "C": 2, "D": 2}


def test_decisions_that_no_longer_apply_are_stale() -> None:
    # Editing donne 1 made B cross no more: his old decision is ignored, not an error.
    edited = donne("A", "rami", {"B": "K", "C": "2"}, {"B": True, "C": False})
    result = replay("classique", PLAYERS, [edited, NEXT], lenient=True)
    assert result.stale_decisions == [(1, "B"), (1, "C")]
    assert result.pending == []
    assert len(result.states) == 2
    assert result.states[0].rachats == {}


def test_decision_after_the_last_manche_is_stale() -> None:
    donnes = [
        donne("A", "rami", {"B": "K K K K Q Q Q Q 9", "C": "2"}),
        donne("A", "rami", {"B": "K Q", "C": "2"}, {"B": True}),
    ]
    result = replay("rami52_6", PLAYERS, donnes, {"fixed_manches": 2}, lenient=True)
    assert result.stale_decisions == [(2, "B")]
    assert result.end_reason == "fixed_manches"


def test_other_errors_still_raise() -> None:
    with pytest.raises(RamiError) as info:
        replay("classique", PLAYERS, [donne("A", "rami", {"B": ("K", 5), "C": "2"})], lenient=True)
    assert (info.value.code, info.value.donne, info.value.player) == ("trop_de_jokers", 1, "B")


def test_manual_end_right_after_a_crossing_asks_no_decision() -> None:
    # Decision (see docs/decisions.md): as R15, a rachat after the end would buy nothing.
    result = replay("classique", PLAYERS, [CROSS_B], ended=True)
    assert (result.over, result.end_reason, result.pending) == (True, "manual", [])
    assert result.states[0].in_race == PLAYERS
    assert result.final.ranking == [(1, "A", -10), (2, "C", 2), (3, "B", 100)]

"""docs/rules.md R27 (flat wins need no hands) and the plausible hand of each preset."""

from __future__ import annotations

import pytest

from games.scoring import Hand, RamiError, get_preset, implausible, plausible_max, replay


def test_a_flat_win_in_rami51_needs_no_hands() -> None:
    result = replay("rami51", ["A", "B", "C"], [{"winner": "A", "win": "rami_sec", "hands": {}}])
    assert result.states[0].points == {"A": 0, "B": 200, "C": 200}
    assert result.states[0].explanations["B"] == "200 — rami sec (forfait)"


def test_a_hand_given_in_a_flat_win_is_checked_but_does_not_count() -> None:
    donne = {"winner": "A", "win": "tout_d_un_coup", "hands": {"B": {"cards": ["K"]}}}
    result = replay("rami51", ["A", "B", "C"], [donne])
    assert result.states[0].points == {"A": 0, "B": 100, "C": 100}
    bad = {"winner": "A", "win": "tout_d_un_coup", "hands": {"B": {"cards": [], "jokers": 0}}}
    with pytest.raises(RamiError) as err:
        replay("rami51", ["A", "B", "C"], [bad])
    assert err.value.code == "main_vide"


def test_an_ordinary_win_still_needs_every_hand() -> None:
    with pytest.raises(RamiError) as err:
        replay("rami51", ["A", "B", "C"], [{"winner": "A", "win": "sortie", "hands": {}}])
    assert err.value.code == "mains_incompletes"


@pytest.mark.parametrize(
    ("preset", "most"),
    [("classique", 148), ("rami52_7", 84), ("rami52_6", 74), ("rami51", 158), ("rami40", 148)],
)
def test_the_most_a_hand_can_hold(preset: str, most: int) -> None:
    preset = get_preset(preset)
    assert plausible_max(preset) == most
    assert not implausible(preset, Hand(cards=None, points=most))
    assert implausible(preset, Hand(cards=None, points=most + 1))


def test_more_cards_than_a_player_keeps_is_implausible() -> None:
    preset = get_preset("rami52_6")  # 6 dealt + 1
    assert not implausible(preset, Hand.of("2 3 4 5 6 7", jokers=1))
    assert implausible(preset, Hand.of("2 3 4 5 6 7 8", jokers=1))

"""docs/rules.md §2.4 "Le donneur": the first dealer, the deal passing to the next seat still
en course, and the rematch's first dealer one seat on."""

from __future__ import annotations

import pytest

from games.scoring import RamiError
from games.scoring.dealer import can_deal, first_dealer, next_dealer, rematch_seat

TABLE = ["Anne", "Bruno", "Chloé", "David"]


def test_the_first_donne_is_dealt_by_the_chosen_seat() -> None:
    assert first_dealer(TABLE, 1) == "Anne"
    assert first_dealer(TABLE, 3) == "Chloé"
    assert next_dealer(TABLE, TABLE, None, "Chloé") == "Chloé"


def test_the_deal_passes_to_the_next_seat_and_round_the_table() -> None:
    assert next_dealer(TABLE, TABLE, "Anne", "Anne") == "Bruno"
    assert next_dealer(TABLE, TABLE, "David", "Anne") == "Anne"


def test_an_eliminated_player_is_skipped() -> None:
    in_race = ["Anne", "Chloé", "David"]  # Bruno declined his rachat
    assert next_dealer(TABLE, in_race, "Anne", "Anne") == "Chloé"


def test_a_dealer_eliminated_by_his_own_donne_hands_the_deal_to_the_seat_after_him() -> None:
    in_race = ["Anne", "Bruno", "David"]  # Chloé dealt, then left
    assert next_dealer(TABLE, in_race, "Chloé", "Anne") == "David"


def test_a_first_dealer_who_is_out_hands_the_first_donne_on() -> None:
    assert next_dealer(TABLE, ["Anne", "Bruno", "David"], None, "Chloé") == "David"


def test_an_unknown_previous_dealer_starts_again_from_the_first() -> None:
    assert next_dealer(TABLE, TABLE, None, "Bruno") == "Bruno"
    assert next_dealer(TABLE, TABLE, "Zoé", "Bruno") == "Bruno"


def test_nobody_en_course_deals_to_nobody() -> None:
    assert next_dealer(TABLE, [], "Anne", "Anne") is None


@pytest.mark.parametrize(
    ("seat", "count", "expected"), [(1, 4, 2), (3, 4, 4), (4, 4, 1), (2, 2, 1)]
)
def test_a_rematch_moves_the_first_dealer_one_seat_on(seat, count, expected) -> None:
    assert rematch_seat(seat, count) == expected


@pytest.mark.parametrize("seat", [0, 5, 7, -1, True])
def test_a_seat_off_the_table_is_refused_never_read_as_another(seat) -> None:
    with pytest.raises(RamiError) as info:
        first_dealer(TABLE, seat)
    assert info.value.code == "premier_donneur_invalide"
    assert str(info.value) == "Le premier donneur doit être l'un des 4 joueurs de la table."


def test_no_table_has_no_first_dealer() -> None:
    with pytest.raises(RamiError, match="l'un des 0 joueurs"):
        first_dealer([], 1)


def test_only_a_player_en_course_deals() -> None:
    assert can_deal(["Anne", "Chloé"], "Chloé")
    assert not can_deal(["Anne", "Chloé"], "Bruno")  # Bruno left the partie


def test_the_seats_stop_at_the_largest_table_of_any_preset() -> None:
    # docs/rules.md §8: rami52_6 and rami51 seat 7, no preset more.
    from games.scoring import MAX_SEATS, PRESETS

    assert MAX_SEATS == 7
    assert max(p.max_players for p in PRESETS.values()) == MAX_SEATS

"""Hand parsing, penalties and explanations (docs/rules.md §3 to §6, R1, R2, R13, R17, R22)."""

from __future__ import annotations

import pytest

from games.scoring import (
    PRESETS,
    Hand,
    RamiError,
    explain_hand,
    get_preset,
    hand_penalty,
    implausible,
    plausible_max,
    replay,
)
from tests.games.scoring.helpers import refusal, win


def test_seed_000_examples() -> None:
    # Seed 000: 3 Rois + 2 Sept + 1 Quatre + 1 Dame + 1 Trois = 30 + 14 + 4 + 10 + 3 = 61.
    kkk = {"cards": ["K", "K", "K", "7", "7", "4", "Q", "3"], "jokers": 0}
    assert hand_penalty("classique", kkk, "rami") == 61
    assert hand_penalty("classique", kkk, "rami_de_la_main") == 122
    # Seed 000: Joker + Dame + 2 = (10 + 10 + 2) × 2 = 44, and 88 on rami de la main.
    jq2 = {"cards": ["Q", "2"], "jokers": 1}
    assert hand_penalty("classique", jq2, "rami") == 44
    assert hand_penalty("classique", jq2, "rami_de_la_main") == 88


@pytest.mark.parametrize(
    ("cards", "jokers", "win", "expected"),
    [
        # R1: joker 10 then the WHOLE hand doubled, not 10 + 2 × 12 = 34.
        ("Q 2", 1, "rami", 44),
        # R2: each joker 10 before ×4, so two jokers + Q + 2 = 128, not 208.
        ("Q 2", 2, "rami", 128),
        ("", 2, "rami", 80),
        ("", 3, "rami_de_la_main", 120),
        ("A", 0, "rami", 11),
    ],
)
def test_classique_joker_resolutions(cards: str, jokers: int, win: str, expected: int) -> None:
    assert hand_penalty("classique", Hand.of(cards, jokers), win) == expected


@pytest.mark.parametrize(
    ("preset", "cards", "jokers", "win", "expected"),
    [
        ("classique", "K 5", 0, "rami", 15),
        ("classique", "K 5", 0, "rami_de_la_main", 30),
        # R13: no multiplier and no joker doubling in the 52-card presets; joker 20.
        ("rami52_7", "K 5", 1, "rami", 35),
        ("rami52_7", "K 5", 1, "talon_epuise", 35),
        ("rami52_6", "K 5", 1, "rami", 35),
        # §5: Rami 51 joker 150, ace always 11; R17: flat 100 and 200 replace the count.
        ("rami51", "K 5", 1, "sortie", 165),
        ("rami51", "K 5", 4, "tout_d_un_coup", 100),
        ("rami51", "2", 0, "rami_sec", 200),
        # R22: A-2-3 kept in hand counts 11 + 2 + 3, even though it would be a sequence.
        ("rami51", "A 2 3", 0, "sortie", 16),
        # §6: Rami 40 joker 15, going rami + 25.
        ("rami40", "K 5", 1, "sortie_rami", 30),
        ("rami40", "K 5", 1, "going_rami", 55),
    ],
)
def test_penalty_per_preset(preset: str, cards: str, jokers: int, win: str, expected: int) -> None:
    assert hand_penalty(preset, Hand.of(cards, jokers), win) == expected


def test_ten_counts_ten_and_french_letters_map_to_english() -> None:
    # docs/rules.md §1: R→K, D→Q, V→J; R22: the 10 counts 10.
    french = Hand.from_dict({"cards": ["R", "D", "V", "10", "a"], "jokers": 0})
    assert french.cards == ("K", "Q", "J", "10", "A")
    assert hand_penalty("classique", french, "rami") == 51


def test_points_total_counts_like_cards() -> None:
    # docs/rules.md §1: {"points": S, "jokers": n} is counted from S and n exactly as from cards.
    assert hand_penalty("classique", {"points": 12, "jokers": 1}, "rami") == 44
    assert hand_penalty("rami51", {"points": 10, "jokers": 2}, "sortie") == 310
    # Only the per-rank deck checks are skipped; the joker count is still checked.
    with pytest.raises(RamiError) as info:
        hand_penalty("rami52_7", {"points": 10, "jokers": 2}, "rami")
    assert info.value.code == "trop_de_jokers"


@pytest.mark.parametrize(
    ("preset", "hand", "win", "code"),
    [
        ("classique", {"cards": ["K"], "jokers": 5}, "rami", "trop_de_jokers"),
        ("rami40", {"cards": [], "jokers": 3}, "going_rami", "trop_de_jokers"),
        ("rami52_7", {"cards": ["K"] * 5, "jokers": 0}, "rami", "trop_de_cartes_de_meme_rang"),
        ("classique", {"cards": ["2"] * 9, "jokers": 0}, "rami", "trop_de_cartes_de_meme_rang"),
        ("classique", {"cards": [], "jokers": 0}, "rami", "main_vide"),
        ("classique", {"points": 0, "jokers": 0}, "rami", "main_vide"),
        ("classique", {"cards": ["X"], "jokers": 0}, "rami", "carte_inconnue"),
        ("classique", {"cards": ["1"], "jokers": 0}, "rami", "carte_inconnue"),
        ("classique", {"points": -3}, "rami", "points_invalides"),
        ("classique", {"points": 3.5}, "rami", "points_invalides"),
        ("classique", {"cards": ["K"], "jokers": -1}, "rami", "jokers_invalides"),
        ("classique", {"cards": ["K"], "points": 10}, "rami", "main_invalide"),
        ("classique", {"cards": ["K"]}, "going_rami", "type_de_gain_inconnu"),
        ("classique", {"cards": ["K"]}, "talon_epuise", "talon_epuise_non_compte"),
        ("rami52_6", {"cards": ["K"]}, "talon_epuise", "talon_epuise_non_compte"),
    ],
)
def test_invalid_hands_are_refused(preset: str, hand: dict, win: str, code: str) -> None:
    with pytest.raises(RamiError) as info:
        hand_penalty(preset, hand, win)
    assert info.value.code == code


def test_eight_of_a_rank_allowed_with_two_decks() -> None:
    assert hand_penalty("classique", {"cards": ["2"] * 8}, "rami") == 16


@pytest.mark.parametrize(
    ("preset", "hand", "win", "text"),
    [
        ("classique", Hand.of("Q 2", 1), "rami", "(10 + 10 + 2) × 2 = 44 — un joker en main"),
        (
            "classique",
            Hand.of("Q 2", 1),
            "rami_de_la_main",
            "(10 + 10 + 2) × 4 = 88 — rami de la main et un joker en main",
        ),
        ("classique", Hand.of("K K K 7 7 4 Q 3"), "rami", "10 + 10 + 10 + 7 + 7 + 4 + 10 + 3 = 61"),
        ("classique", {"points": 61}, "rami", "61"),
        ("classique", Hand.of("A"), "rami_de_la_main", "11 × 2 = 22 — rami de la main"),
        ("rami40", Hand.of("A K 5"), "going_rami", "(11 + 10 + 5) + 25 = 51 — going rami"),
        ("rami51", Hand.of("K", 3), "tout_d_un_coup", "100 — tout d'un coup (forfait)"),
        ("rami51", Hand.of("K"), "rami_sec", "200 — rami sec (forfait)"),
        ("rami52_7", Hand.of("9 9"), "talon_epuise", "9 + 9 = 18 — talon épuisé"),
    ],
)
def test_explain_hand(preset: str, hand: Hand | dict, win: str, text: str) -> None:
    assert explain_hand(preset, hand, win) == text


def test_presets_table() -> None:
    # docs/rules.md §8, column by column.
    assert list(PRESETS) == ["classique", "rami52_7", "rami52_6", "rami51", "rami40"]
    table = {
        key: (
            p.joker_value,
            list(p.win_types),
            p.talon_epuise,
            p.seuil,
            p.seuil_inclusive,
            p.max_rachats if p.has_elimination else None,
            p.fixed_manches,
            p.target,
            (p.min_players, p.max_players),
            (p.deck_jokers, p.max_same_rank),
        )
        for key, p in PRESETS.items()
    }
    assert table == {
        "classique": (10, ["rami", "rami_de_la_main"], False, 100, True, 3, None, None,
                      (2, 6), (4, 8)),
        "rami52_7": (20, ["rami"], True, 100, True, 3, 4, None, (2, 5), (1, 4)),
        "rami52_6": (20, ["rami"], False, 100, True, 3, 4, None, (2, 7), (1, 4)),
        "rami51": (150, ["sortie", "tout_d_un_coup", "rami_sec"], False, None, True, None, None,
                   1000, (2, 7), (4, 8)),
        "rami40": (15, ["sortie_rami", "going_rami"], False, 150, False, 3, None, None,
                   (2, 5), (2, 8)),
    }  # fmt: skip
    assert get_preset("classique").winner_points == {"rami": -10, "rami_de_la_main": -20}
    assert get_preset("rami51").default_win == "sortie"
    assert all(p.label and p.summary.count("\n") == 1 for p in PRESETS.values())


def test_unknown_preset() -> None:
    with pytest.raises(RamiError) as info:
        get_preset("belote")
    assert info.value.code == "preset_inconnu"


def test_a_hand_holds_at_most_1000_points() -> None:
    up_to = {"threshold": 5000}
    result = replay("rami40", ["A", "B"], [win("A", "sortie_rami", B=1000)], up_to)
    assert result.states[0].points == {"A": 0, "B": 1000}
    err = refusal("rami40", ["A", "B"], [win("A", "sortie_rami", B=1001)], up_to)
    assert err.code == "valeur_hors_limites"
    assert err.message == (
        "Donne 1 : Valeur hors limites pour « points de B » : au plus 1\u00a0000 pour une main."
    )


def test_too_many_jokers_keep_their_own_code() -> None:
    donne = {"winner": "A", "win": "rami", "hands": {"B": {"points": 1, "jokers": 10**11}}}
    assert refusal("classique", ["A", "B"], [donne]).code == "trop_de_jokers"


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

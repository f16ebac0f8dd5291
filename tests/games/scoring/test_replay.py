"""The §2 algorithm, every RESOLUTION, strict errors and three parties worked by hand."""

from __future__ import annotations

import pytest

from games.scoring import Config, RamiError, check_next_donne, get_preset, replay
from games.scoring.final import compute_final
from tests.games.scoring.helpers import refusal, win

from .helpers import donne


def _code(excinfo: pytest.ExceptionInfo[RamiError]) -> tuple[str, int | None, str | None]:
    return excinfo.value.code, excinfo.value.donne, excinfo.value.player


# -- three parties worked by hand ----------------------------------------------------------------


def test_two_crossers_in_one_donne_share_a_negative_reference() -> None:
    players = ["A", "B", "C", "D"]
    donnes = [
        # A rami −10; B K K K K Q Q Q = 70; C K K K K Q Q = 60; D 5.
        donne("A", "rami", {"B": "K K K K Q Q Q", "C": "K K K K Q Q", "D": "5"}),
        # D rami −10 → −5; A 2 → −8; B K Q J = 30 → exactly 100 (R4: crosses);
        # C joker + Q 9 = (10 + 10 + 9) × 2 = 58 → 118.
        # R6: ref = max(A −8, D −5) = −5 for both crossers; B buys back, C declines.
        donne("D", "rami", {"A": "2", "B": "K Q J", "C": ("Q 9", 1)}, {"B": True, "C": False}),
        # B rami de la main −20 → −25; A A × 2 = 22 → 14; D 7 3 × 2 = 20 → 15.
        donne("B", "rami_de_la_main", {"A": "A", "D": "7 3"}),
    ]
    config = {"prix_rachat": 100, "mise_initiale": 50}
    result = replay("classique", players, donnes, config, ended=True)
    second = result.states[1]
    assert second.totals_before_rachat == {"A": -8, "B": 100, "C": 118, "D": -5}
    assert second.crossings == {"B": 1, "C": 1}
    assert second.reference == -5
    assert second.to_dict()["rachats"] == {"B": {"number": 1, "restart": -5, "price": 100}}
    assert second.eliminated == {"C": "declined"}
    assert second.totals == {"A": -8, "B": -5, "C": 118, "D": -5}
    assert second.in_race == ["A", "B", "D"]
    assert second.pot == 300
    third = result.states[2]
    assert third.totals == {"A": 14, "B": -25, "C": 118, "D": 15}
    assert (result.over, result.end_reason) == (True, "manual")
    assert result.final.to_dict() == {
        "winner": "B",
        "ranking": [[1, "B", -25], [2, "A", 14], [3, "D", 15], [4, "C", 118]],
        "pot": 300,
        "paid": {"A": 0, "B": 100, "C": 0, "D": 0},
        "points_settlement": {"A": 0, "B": 0, "C": 0, "D": 0},
        "net": {"A": -50, "B": 150, "C": -50, "D": -50},
    }


FOURTH_CROSSING = [
    # A rami −10; B K K K K Q Q Q Q J J = 100 → crossing 1; C 2. ref = max(−10, 2) = 2.
    donne("A", "rami", {"B": "K K K K Q Q Q Q J J", "C": "2"}, {"B": True}),
    # C rami −10 → −8; B 100 → 102, crossing 2; A 3 → −7. ref = max(−7, −8) = −7.
    donne("C", "rami", {"A": "3", "B": "K K K K Q Q Q Q J J"}, {"B": True}),
    # A rami → −17; B joker + K K K K Q = (10 + 50) × 2 = 120 → 113, crossing 3;
    # C 4 → −4. ref = max(−17, −4) = −4.
    donne("A", "rami", {"B": ("K K K K Q", 1), "C": "4"}, {"B": True}),
    # C rami de la main −20 → −24; B 100 × 2 = 200 → 196, crossing 4 > 3 rachats:
    # exclusion définitive (R8), no decision asked; A 5 × 2 = 10 → −7.
    donne("C", "rami_de_la_main", {"A": "5", "B": "K K K K Q Q Q Q J J"}),
    # A rami → −17; C 9 → −15.
    donne("A", "rami", {"C": "9"}),
]


def test_fourth_crossing_is_an_exclusion_definitive() -> None:
    config = {"prix_rachat": [100, 200, 300], "valeur_point": 1}
    result = replay("classique", ["A", "B", "C"], FOURTH_CROSSING, config, ended=True)
    restarts = [(s.rachats["B"].restart, s.rachats["B"].price) for s in result.states[:3]]
    assert restarts == [(2, 100), (-7, 200), (-4, 300)]
    fourth = result.states[3]
    assert fourth.crossings == {"B": 4}
    assert fourth.rachats == {}
    assert fourth.eliminated == {"B": "definitive_exclusion"}
    assert fourth.totals == {"A": -7, "B": 196, "C": -24}
    assert fourth.rachats_used == {"A": 0, "B": 3, "C": 0}
    assert result.final.to_dict() == {
        "winner": "A",
        "ranking": [[1, "A", -17], [2, "C", -15], [3, "B", 196]],
        "pot": 600,
        "paid": {"A": 0, "B": 600, "C": 0},
        # R12 gagnant: C pays (−15 − −17) × 1 = 2, B pays (196 − −17) × 1 = 213.
        "points_settlement": {"A": 215, "B": -213, "C": -2},
        "net": {"A": 815, "B": -813, "C": -2},
    }


RAMI51_TO_1000 = [
    # X sortie: Y 4 jokers + K = 600 + 10 = 610; Z A 2 3 = 16 (R22).
    donne("X", "sortie", {"Y": ("K", 4), "Z": "A 2 3"}),
    # Z rami sec: 200 flat each (R17) → X 200, Y 810.
    donne("Z", "rami_sec", {"X": ("K Q", 2), "Y": "2"}),
    # X tout d'un coup: 100 flat each → Y 910, Z 116.
    donne("X", "tout_d_un_coup", {"Y": "A", "Z": "K K"}),
    # Y sortie: X K Q J 10 9 8 7 6 5 4 3 2 A = 95 → 295; Z joker + 5 = 155 → 271.
    donne("Y", "sortie", {"X": "K Q J 10 9 8 7 6 5 4 3 2 A", "Z": ("5", 1)}),
    # X sortie: Y K K Q Q J J 10 10 9 = 89 → 999, not yet 1000; Z 2 → 273.
    donne("X", "sortie", {"Y": "K K Q Q J J 10 10 9", "Z": "2"}),
    # Z sortie: Y A = 11 → 1010 ≥ 1000, the partie ends (R18); X 2 → 297.
    donne("Z", "sortie", {"X": "2", "Y": "A"}),
]


def test_rami51_reaches_1000() -> None:
    config = {"valeur_point": 10, "reglement": "croise"}
    result = replay("rami51", ["X", "Y", "Z"], RAMI51_TO_1000, config)
    assert [s.totals["Y"] for s in result.states] == [610, 810, 910, 910, 999, 1010]
    assert [s.partie_over for s in result.states] == [False] * 5 + [True]
    assert result.end_reason == "target_reached"
    assert result.final.to_dict() == {
        "winner": "Z",
        "ranking": [[1, "Z", 273], [2, "X", 297], [3, "Y", 1010]],
        "pot": 0,
        "paid": {"X": 0, "Y": 0, "Z": 0},
        # R12 croise: Z (24 + 737) × 10, X (−24 + 713) × 10, Y (−737 − 713) × 10.
        "points_settlement": {"X": 6890, "Y": -14500, "Z": 7610},
        "net": {"X": 6890, "Y": -14500, "Z": 7610},
    }
    with pytest.raises(RamiError) as info:
        replay("rami51", ["X", "Y", "Z"], [*RAMI51_TO_1000, RAMI51_TO_1000[0]], config)
    assert _code(info) == ("partie_terminee", 7, None)


# -- RESOLUTIONS ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "config", "crosses"),
    [
        ("classique", {}, True),  # R4: exactly 100 crosses (≥).
        ("rami52_7", {}, True),
        ("rami52_6", {}, True),
        ("rami52_7", {"inclusive": False}, False),  # the table may choose strict > 100.
    ],
)
def test_r4_exactly_100(preset: str, config: dict, crosses: bool) -> None:
    # B: K K K K Q Q Q J J J = 100 in every preset without multiplier (no joker, ordinary win).
    hands = {"B": "K K K K Q Q Q Q J J", "C": "2"}
    if preset != "classique":
        hands["B"] = "K K K K Q Q Q Q J J".replace("Q Q Q Q", "Q Q Q").replace("J J", "J J J")
    winner_bonus = -10 if preset == "classique" else 0
    result = replay(preset, ["A", "B", "C"], [donne("A", "rami", hands)], config, lenient=True)
    state = result.states[0]
    assert state.totals_before_rachat == {"A": winner_bonus, "B": 100, "C": 2}
    assert state.crossings == ({"B": 1} if crosses else {})


def test_r7_ceiling_stays_absolute_after_rachat() -> None:
    donnes = [
        # B 100 → crosses; ref = C 90 (9 × 10); B restarts at 90.
        donne("A", "rami", {"B": "K K K K Q Q Q Q J J", "C": "K K K K Q Q Q Q J"}, {"B": True}),
        # B 10 more → 100 again: a crossing, not 90 + 100 (R7).
        donne("C", "rami", {"A": "2", "B": "K"}, {"B": False}),
    ]
    result = replay("classique", ["A", "B", "C"], donnes)
    assert result.states[0].totals["B"] == 90
    assert result.states[1].crossings == {"B": 2}
    assert result.states[1].eliminated == {"B": "declined"}


def test_r8_any_decision_at_exclusion_is_refused() -> None:
    donnes = [*FOURTH_CROSSING[:3], {**FOURTH_CROSSING[3], "rachat": {"B": False}}]
    with pytest.raises(RamiError) as info:
        replay("classique", ["A", "B", "C"], donnes)
    assert _code(info) == ("rachat_impossible", 4, "B")
    assert str(info.value) == (
        "Donne 4 : B a franchi le seuil pour la 4e fois : il est définitivement exclu, "
        "sans rachat possible."
    )


def test_r9_last_standing_ends_a_fixed_manche_partie_early() -> None:
    result = replay("rami52_7", ["A", "B"], [donne("A", "rami", {"B": ("K K K K Q Q Q Q 9", 1)})
                                             | {"rachat": {"B": False}}])  # fmt: skip
    assert result.states[0].totals_before_rachat == {"A": 0, "B": 109}
    assert (result.over, result.end_reason) == (True, "last_standing")
    assert result.final.winner == "A"


TALON_ALL_CROSS = [
    donne("A", "rami", {"B": "K K K K Q Q Q Q 9", "C": "K K K K Q Q Q Q 8"}),
    # talon épuisé: A 100, B 89 + 20 = 109, C 88 + 20 = 108: nobody is left under 100.
    donne(None, "talon_epuise", {"A": "K K K K Q Q Q Q J J", "B": "K Q", "C": "K Q"}),
]


def test_r10_all_crossed_after_talon_epuise() -> None:
    result = replay("rami52_7", ["A", "B", "C"], TALON_ALL_CROSS)
    state = result.states[1]
    assert state.crossings == {"A": 1, "B": 1, "C": 1}
    assert (state.reference, state.rachats, state.eliminated) == (None, {}, {})
    assert (result.over, result.end_reason) == (True, "all_crossed")
    assert result.final.ranking == [(1, "A", 100), (2, "C", 108), (3, "B", 109)]
    with pytest.raises(RamiError) as info:
        with_decision = {**TALON_ALL_CROSS[1], "rachat": {"A": True}}
        replay("rami52_7", ["A", "B", "C"], [TALON_ALL_CROSS[0], with_decision])
    assert _code(info) == ("pas_de_reference", 2, "A")


def _settlement(reglement: str, totals: tuple[int, int, int]) -> dict:
    config = Config.from_record(
        get_preset("classique"), {"valeur_point": 1, "reglement": reglement}
    )
    players = ["W", "L", "E"]
    final = compute_final(
        config, players, dict(zip(players, totals, strict=True)), ["W", "L"], {"E": 3},
        dict.fromkeys(players, 0), provisional=False,
    )  # fmt: skip
    return final.points_settlement


@pytest.mark.parametrize(
    ("reglement", "expected"),
    [
        # R12 gagnant: L pays 216 − (−84) = 300; E, eliminated at a frozen 50, pays 134.
        ("gagnant", {"W": 434, "L": -300, "E": -134}),
        # R12 croise: every pair settles; E (50) receives from L (216) more than he pays W,
        # the reason croise is not the default in elimination parties.
        ("croise", {"W": 300 + 134, "L": -300 - 166, "E": -134 + 166}),
    ],
)
def test_r12_gagnant_and_croise(reglement: str, expected: dict) -> None:
    assert _settlement(reglement, (-84, 216, 50)) == expected


def test_r12_gagnant_never_charges_a_negative_due() -> None:
    # The last player standing wins at 90 although E was eliminated at a lower total 40.
    assert _settlement("gagnant", (90, 120, 40)) == {"W": 30, "L": -30, "E": 0}


def test_r15_no_rachat_after_the_last_manche() -> None:
    donnes = [
        donne("A", "rami", {"B": "K K K K Q Q Q Q 9", "C": "2"}),
        donne("A", "rami", {"B": "K Q", "C": "2"}, {"B": True}),
    ]
    with pytest.raises(RamiError) as info:
        replay("rami52_6", ["A", "B", "C"], donnes, {"fixed_manches": 2})
    assert _code(info) == ("pas_de_rachat_apres_la_derniere_manche", 2, "B")
    result = replay("rami52_6", ["A", "B", "C"], [d | {"rachat": {}} for d in donnes],
                    {"fixed_manches": 2})  # fmt: skip
    assert result.states[1].crossings == {"B": 1}
    assert result.states[1].in_race == ["A", "B", "C"]
    assert result.final.ranking == [(1, "A", 0), (2, "C", 4), (3, "B", 109)]


def test_r16_shared_win_odd_remainder_to_earliest_seat() -> None:
    donnes = [
        donne("A", "sortie", {"B": "5", "C": "9"}),
        donne("B", "sortie", {"A": "5", "C": "9"}),
    ]
    config = {"mise_initiale": 101, "valeur_point": 1}
    result = replay("rami51", ["A", "B", "C"], donnes, config, ended=True)
    final = result.final
    assert final.winner == ["A", "B"]
    assert final.ranking == [(1, "A", 5), (1, "B", 5), (3, "C", 18)]
    assert final.pot == 303
    # C owes 18 − 5 = 13, split 7 / 6; the pot 303 splits 152 / 151: earliest seat gets the extra.
    assert final.points_settlement == {"A": 7, "B": 6, "C": -13}
    assert final.net == {"A": -101 + 152 + 7, "B": -101 + 151 + 6, "C": -101 - 13}
    assert sum(final.net.values()) == 0


def test_r18_target_inclusive_and_strict() -> None:
    tens = "K K K K Q Q Q Q J J"
    donnes = [
        # B: 4 jokers + 8 figures = 600 + 80 = 680, then 100 three times: 980, then K K: 1000.
        donne("A", "sortie", {"B": ("K K K K Q Q Q Q", 4)}),
        donne("A", "sortie", {"B": tens}),
        donne("A", "sortie", {"B": tens}),
        donne("A", "sortie", {"B": tens}),
        donne("A", "sortie", {"B": "K K"}),
    ]
    inclusive = replay("rami51", ["A", "B"], donnes)
    assert [s.totals["B"] for s in inclusive.states] == [680, 780, 880, 980, 1000]
    assert inclusive.end_reason == "target_reached"
    strict = replay("rami51", ["A", "B"], donnes, {"target_inclusive": False})
    assert strict.over is False
    assert strict.final.provisional is True


def test_r19_eliminated_rank_by_elimination_order_then_total() -> None:
    donnes = [
        # A −10; B K K K K Q Q Q Q J J 9 = 109 and C K K K K Q Q Q Q J 9 5 = 104 both decline.
        donne(
            "A",
            "rami",
            {"B": "K K K K Q Q Q Q J J 9", "C": "K K K K Q Q Q Q J 9 5", "D": "2"},
            {"B": False, "C": False},
        ),
        # A −20; D 2 + 100 = 102 declines later, so he ranks above B and C despite 102.
        donne("A", "rami", {"D": "K K K K Q Q Q Q J J"}, {"D": False}),
    ]
    result = replay("classique", ["A", "B", "C", "D"], donnes)
    assert result.states[0].eliminated == {"B": "declined", "C": "declined"}
    assert result.final.ranking == [(1, "A", -20), (2, "D", 102), (3, "C", 104), (4, "B", 109)]


@pytest.mark.parametrize(
    ("total", "crosses"),
    [(150, False), (151, True)],
)
def test_r20_rami40_strictly_above_150(total: int, crosses: bool) -> None:
    # B: 140 first donne, then 10 or 11 more; C sits at exactly 150 and can be the reference.
    first = donne("A", "sortie_rami", {"B": "K K K K Q Q Q Q J J 10 10 10 10",
                                       "C": "K K K K Q Q Q Q J J 10 10 10 10 J"})  # fmt: skip
    second = donne("C", "sortie_rami", {"A": "2", "B": "10" if total == 150 else "A"})
    result = replay("rami40", ["A", "B", "C"], [first, second], lenient=True)
    assert result.states[0].totals == {"A": 0, "B": 140, "C": 150}
    assert result.states[0].crossings == {}
    assert result.states[1].totals_before_rachat == {"A": 2, "B": total, "C": 150}
    assert result.states[1].crossings == ({"B": 1} if crosses else {})


def test_r20_restart_can_be_exactly_150() -> None:
    first = donne("A", "sortie_rami", {"B": "K K K K Q Q Q Q J J 10 10 10 10", "C": "9"})
    # B 140 + 11 = 151 crosses; C 9 + 141 = 150 stays in and is the reference.
    second = donne("A", "sortie_rami", {"B": "A", "C": "K K K K Q Q Q Q J J 10 10 10 A"},
                   {"B": True})  # fmt: skip
    result = replay("rami40", ["A", "B", "C"], [first, second], {"prix_rachat": 500})
    assert result.states[1].reference == 150
    assert result.states[1].totals == {"A": 0, "B": 150, "C": 150}
    assert result.final.pot == 500


def test_r21_manual_end_with_no_donne_and_after_donnes() -> None:
    empty = replay("classique", ["A", "B"], [], ended=True)
    assert (empty.over, empty.end_reason, empty.final.winner) == (True, "manual", ["A", "B"])
    result = replay("classique", ["A", "B"], [donne("B", "rami", {"A": "K"})], ended=True)
    assert result.states[0].to_dict()["end_reason"] == "manual"
    assert result.final.winner == "B"
    assert result.final.provisional is False


# -- strict errors -------------------------------------------------------------------------------

PLAYERS = ["A", "B", "C"]
CROSS_B = donne("A", "rami", {"B": "K K K K Q Q Q Q J J", "C": "2"})


@pytest.mark.parametrize(
    ("donnes", "expected"),
    [
        ([donne("Z", "rami", {"B": "K", "C": "2"})], ("joueur_inconnu", 1, "Z")),
        ([donne(None, "rami", {"B": "K", "C": "2"})], ("gagnant_manquant", 1, None)),
        ([donne("A", "rami", {"B": "K"})], ("mains_incompletes", 1, "C")),
        ([donne("A", "rami", {"A": "K", "B": "K", "C": "2"})], ("main_en_trop", 1, "A")),
        ([donne("A", "rami", {"B": ("K", 5), "C": "2"})], ("trop_de_jokers", 1, "B")),
        ([donne("A", "rami", {"B": "", "C": "2"})], ("main_vide", 1, "B")),
        ([donne("A", "rami", {"B": "X", "C": "2"})], ("carte_inconnue", 1, "B")),
        ([donne("A", "sortie", {"B": "K", "C": "2"})], ("type_de_gain_inconnu", 1, None)),
        ([donne("A", "rami", {"B": "K", "C": "2"}, {"B": True})], ("pas_de_rachat", 1, "B")),
        ([CROSS_B], ("decision_manquante", 1, "B")),
        ([CROSS_B | {"rachat": {"B": "oui"}}], ("decision_invalide", 1, "B")),
        (
            [CROSS_B | {"rachat": {"B": False}}, donne("B", "rami", {"A": "K", "C": "2"})],
            ("gagnant_hors_course", 2, "B"),
        ),
        (
            [CROSS_B | {"rachat": {"B": False}}, donne("A", "rami", {"B": "K", "C": "2"})],
            ("main_en_trop", 2, "B"),
        ),
        ([{"winner": "A"}], ("donne_invalide", 1, None)),
    ],
)
def test_strict_errors_name_the_donne_and_the_player(donnes: list, expected: tuple) -> None:
    with pytest.raises(RamiError) as info:
        replay("classique", PLAYERS, donnes)
    assert _code(info) == expected
    assert info.value.message.startswith(f"Donne {expected[1]} : ")


@pytest.mark.parametrize(
    ("players", "config", "code"),
    [
        (["A"], None, "nombre_de_joueurs"),
        (["A", "B", "C", "D", "E", "F", "G"], None, "nombre_de_joueurs"),
        (["A", "A"], None, "joueurs_en_double"),
        (["A", ""], None, "nom_invalide"),
        (["A", "B"], {"prix_rachat": []}, "option_invalide"),  # R25: [1, 2] is fine
        (["A", "B"], {"prix_rachat": -1}, "option_invalide"),
        (["A", "B"], {"reglement": "moitie"}, "option_invalide"),
        (["A", "B"], {"threshold": 0}, "option_invalide"),
        (["A", "B"], {"inclusive": "oui"}, "option_invalide"),
        (["A", "B"], {"couleur": "rouge"}, "option_invalide"),
        (["A", "B"], {"mise_initiale": True}, "option_invalide"),
    ],
)
def test_setup_errors(players: list[str], config: dict | None, code: str) -> None:
    with pytest.raises(RamiError) as info:
        replay("classique", players, [], config)
    assert info.value.code == code
    assert info.value.donne is None


def test_message_is_french_template_with_params() -> None:
    with pytest.raises(RamiError) as info:
        replay("classique", PLAYERS, [donne("A", "rami", {"B": ("K", 5), "C": "2"})])
    err = info.value
    assert err.template == "La main de %(player)s a %(jokers)s jokers ; ce jeu n'en a que %(max)s."
    assert err.params["jokers"] == 5
    assert str(err) == "Donne 1 : La main de B a 5 jokers ; ce jeu n'en a que 4."


def test_every_message_formats() -> None:
    from games.scoring.errors import MESSAGES

    params = dict.fromkeys(
        ["preset", "option", "detail", "min", "max", "count", "card", "jokers", "win", "reason",
         "total", "restart", "crossing", "field", "other", "char"], "x",
    )  # fmt: skip
    for code in MESSAGES:
        assert RamiError(code, donne=2, player="Léa", **params).message.startswith("Donne 2 : ")


def test_rachat_price_list_and_beyond() -> None:
    options = {"prix_rachat": [100, 200, 300], "max_rachats": 5}
    config = Config.from_record(get_preset("classique"), options)
    assert [config.rachat_price(n) for n in range(1, 6)] == [100, 200, 300, 300, 300]


def test_state_explanations_in_seat_order() -> None:
    state = replay("classique", PLAYERS, [donne("B", "rami", {"A": ("Q 2", 1), "C": "K"})]).states[
        0
    ]
    assert state.explanations == {
        "A": "(10 + 10 + 2) × 2 = 44 — un joker en main",
        "B": "-10 — rami (bonification)",
        "C": "10",
    }


@pytest.mark.parametrize(
    ("over", "ended", "pending", "code"),
    [
        (True, False, [], "partie_terminee"),
        (False, True, [], "partie_terminee"),
        (False, False, ["a crosser"], "decision_en_attente"),
    ],
)
def test_the_engine_says_when_no_donne_may_follow(over, ended, pending, code) -> None:
    # docs/rules.md R5 and R18: no donne after the end, none before the crossers answer.
    with pytest.raises(RamiError) as refused:
        check_next_donne(over=over, ended=ended, pending=pending)
    assert refused.value.code == code


def test_a_partie_under_way_takes_the_next_donne() -> None:
    assert check_next_donne(over=False, ended=False, pending=[]) is None


# -- R23: table options in every preset ------------------------------------------------------


def test_a_decision_refused_on_the_target_says_the_target_not_the_last_manche() -> None:
    donnes = [win("A", B=60, C=5), {**win("A", B=50, C=5), "rachat": {"B": True}}]
    err = refusal("classique", PLAYERS, donnes, {"target": 100, "threshold": 100})
    assert err.code == "pas_de_rachat_objectif_atteint"
    assert err.message == (
        "Donne 2 : La partie s'est terminée sur l'objectif : B ne se rachète pas, il est classé "
        "à son total."
    )


def test_the_last_manche_keeps_its_own_message() -> None:
    donnes = [win("A", B=60, C=5), {**win("A", B=50, C=5), "rachat": {"B": True}}]
    err = refusal("rami52_7", PLAYERS, donnes, {"fixed_manches": 2})
    assert err.code == "pas_de_rachat_apres_la_derniere_manche"


def test_classique_up_to_a_target_without_elimination_and_rami51_with_a_seuil() -> None:
    result = replay("classique", ["A", "B"], [win("A", B=120)], {"target": 500, "threshold": 1000})
    assert (result.over, result.states[0].totals) == (False, {"A": -10, "B": 120})
    # Rami 51 with a seuil: no rachat unless the table allows some, so a crossing excludes.
    result = replay("rami51", PLAYERS, [win("A", "sortie", B=300, C=5)], {"threshold": 300})
    assert result.states[0].eliminated == {"B": "definitive_exclusion"}


def test_target_and_last_manche_on_the_same_donne_end_on_the_target() -> None:
    result = replay("rami52_7", ["A", "B"], [win("A", B=50)], {"fixed_manches": 1, "target": 50})
    assert result.end_reason == "target_reached"


# -- R26: manual end right after a crossing ----------------------------------------------------


def test_a_crosser_of_the_last_donne_is_not_asked_after_a_manual_end() -> None:
    result = replay("classique", PLAYERS, [win("A", B=120, C=5)], ended=True)
    assert (result.end_reason, result.pending) == ("manual", [])
    assert result.final.ranking[-1] == (3, "B", 120)
    decided = [{**win("A", B=120, C=5), "rachat": {"B": True}}]
    result = replay("classique", PLAYERS, decided, ended=True)
    assert result.states[0].totals["B"] == 5  # the decision given still applies


def test_a_manual_end_without_donne_is_a_shared_win_at_zero() -> None:
    result = replay("classique", PLAYERS, [], ended=True)
    assert result.final.ranking == [(1, "A", 0), (1, "B", 0), (1, "C", 0)]


# -- R27 ------------------------------------------------------------------------------------


def test_a_flat_win_counts_the_flat_penalty_for_any_subset_of_hands() -> None:
    donne = {"winner": "A", "win": "rami_sec", "hands": {"C": {"cards": ["K"]}}}
    assert replay("rami51", PLAYERS, [donne]).states[0].points == {"A": 0, "B": 200, "C": 200}


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

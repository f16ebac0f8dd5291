"""Table options over the preset's defaults (games/scoring/config.py; docs/rules.md §8, R24, R25,
R28): ``fixed_manches: 0``, price lists of any length, and every option's limit."""

from __future__ import annotations

import pytest

from games.scoring import Config, get_preset, replay
from tests.games.scoring.helpers import refusal, win

PLAYERS = ["A", "B", "C"]


# -- R24: fixed_manches 0 is none, null the preset's default ---------------------------------


def test_fixed_manches_zero_plays_on_past_the_fourth_manche() -> None:
    donnes = [win("A", B=5, C=5)] * 6
    assert replay("rami52_7", PLAYERS, donnes[:4]).end_reason == "fixed_manches"
    result = replay("rami52_7", PLAYERS, donnes, {"fixed_manches": 0})
    assert (len(result.states), result.over) == (6, False)
    assert replay("rami52_7", PLAYERS, donnes[:4], {"fixed_manches": None}).over


def test_no_fixed_manches_is_written_as_zero_wherever_a_default_would_come_back() -> None:
    preset = get_preset("rami52_7")
    config = Config.from_record(preset, {"fixed_manches": 0})
    assert config.fixed_manches is None
    assert config.changed_from(preset) == {"fixed_manches": 0}
    assert config.to_record()["fixed_manches"] == 0
    assert (
        Config.from_record(get_preset("classique"), {"fixed_manches": 0}).changed_from(
            get_preset("classique")
        )
        == {}
    )


@pytest.mark.parametrize("value", [-1, 2.5, "4", True])
def test_fixed_manches_must_be_a_whole_number(value) -> None:
    err = refusal("classique", PLAYERS, [], {"fixed_manches": value})
    assert (err.code, err.extra["option"]) == ("option_invalide", "fixed_manches")


# -- R25: price lists of any length --------------------------------------------------------


@pytest.mark.parametrize(
    ("prices", "paid"),
    [
        ([100], [100, 100, 100, 100]),
        ([100, 200], [100, 200, 200, 200]),
        ([100, 200, 300, 400], [100, 200, 300, 400]),
    ],
)
def test_rachat_k_pays_the_kth_price_and_later_ones_the_last(prices, paid) -> None:
    config = Config.from_record(get_preset("classique"), {"prix_rachat": prices})
    assert [config.rachat_price(k) for k in range(1, 5)] == paid


def test_an_empty_price_list_is_refused() -> None:
    err = refusal("classique", PLAYERS, [], {"prix_rachat": []})
    assert err.code == "option_invalide"
    assert err.message == (
        "Option « prix_rachat » invalide : un montant en centimes, ou une liste d'au moins un "
        "montant"
    )


def test_a_short_list_is_paid_in_a_replay() -> None:
    donnes = []
    for _round in range(3):  # B crosses three times and buys back each time
        donnes += [{**win("A", B=100, C=1), "rachat": {"B": True}}]
    result = replay("classique", PLAYERS, donnes, {"prix_rachat": [100, 250]})
    assert [s.rachats["B"].price for s in result.states] == [100, 250, 250]
    assert result.states[-1].paid["B"] == 600


# -- R28: numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "field", "detail"),
    [
        ({"prix_rachat": 100_000_001}, "prix_rachat", "au plus 100\u00a0000\u00a0000 centimes"),
        (
            {"prix_rachat": [1, 100_000_001]},
            "prix_rachat",
            "au plus 100\u00a0000\u00a0000 centimes",
        ),
        ({"mise_initiale": 100_000_001}, "mise_initiale", "au plus 100\u00a0000\u00a0000 centimes"),
        ({"valeur_point": 100_000_001}, "valeur_point", "au plus 100\u00a0000\u00a0000 centimes"),
        ({"threshold": 100_001}, "threshold", "au plus 100\u00a0000"),
        ({"target": 100_001}, "target", "au plus 100\u00a0000"),
        ({"fixed_manches": 1001}, "fixed_manches", "au plus 1\u00a0000"),
        ({"threshold": 10**5000}, "threshold", "au plus 100\u00a0000"),  # never written out
    ],
)
def test_options_past_their_limit(config: dict, field: str, detail: str) -> None:
    err = refusal("classique", PLAYERS, [], config)
    assert err.code == "valeur_hors_limites"
    assert err.message == f"Valeur hors limites pour « {field} » : {detail}."


def test_options_at_their_limit_are_accepted() -> None:
    config = {
        "prix_rachat": [100_000_000],
        "mise_initiale": 100_000_000,
        "valeur_point": 100_000_000,
        "threshold": 100_000,
        "target": 100_000,
        "fixed_manches": 1000,
    }
    result = replay("classique", ["A", "B"], [win("A", B=1000)], config)
    # (1000 + 10) points at 1 000 000,00 a point, and B's stake in the cagnotte.
    assert result.final.net == {"A": 101_100_000_000, "B": -101_100_000_000}

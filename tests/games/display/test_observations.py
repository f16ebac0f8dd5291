"""The observations under the printed marque (games/display/observations.py): each donne told
as the rule book would."""

from __future__ import annotations

from games.display.observations import observations
from games.scoring import replay
from tests.sheet_records import ABC, P1, points


def _states(preset, players, donnes, **kwargs):
    return replay(preset, players, donnes, kwargs.pop("config", None), **kwargs).states


def test_observations_tell_each_donne_as_the_rule_book_would() -> None:
    assert observations(_states("classique", ABC, P1), ABC) == [
        "Anne fait rami",
        "Anne fait RAMI DE LA MAIN",
        # examples.json P1: Bruno 137 restarts at Chloé's 27 (docs/rules.md R6).
        "Chloé fait rami ; Bruno, 137, se rachète (1er rachat) et repart à 27",
        "Anne fait RAMI DE LA MAIN ; Bruno abandonne ; Chloé abandonne ; "
        "Fin de la partie : Anne est le dernier joueur en course",
    ]


def test_observations_say_the_fourth_crossing_is_an_exclusion() -> None:
    donnes = [
        {
            "winner": "Anne",
            "win": "rami",
            "hands": {"Bruno": points(150)},
            "rachat": {"Bruno": True},
        }
        for _ in range(3)
    ] + [{"winner": "Anne", "win": "rami", "hands": {"Bruno": points(150)}}]
    assert observations(_states("classique", ["Anne", "Bruno"], donnes), ["Anne", "Bruno"]) == [
        "Anne fait rami ; Bruno, 150, se rachète (1er rachat) et repart à −10",
        "Anne fait rami ; Bruno, 140, se rachète (2e rachat) et repart à −20",
        "Anne fait rami ; Bruno, 130, se rachète (3e rachat) et repart à −30",
        "Anne fait rami ; Bruno, 4e franchissement : exclusion définitive ; "
        "Fin de la partie : Anne est le dernier joueur en course",
    ]


def test_observations_for_talon_epuise_pending_and_last_manche() -> None:
    talon = {"winner": None, "win": "talon_epuise", "hands": {p: points(5) for p in ABC}}
    assert observations(_states("rami52_7", ABC, [talon]), ABC) == [
        "Talon épuisé : tout le monde compte"
    ]
    undecided = [*P1[:2], {**P1[2], "rachat": {}}]
    pending = _states("classique", ABC, undecided, lenient=True)
    assert observations(pending, ABC)[-1] == "Chloé fait rami ; Bruno, 137 : rachat à décider"
    last = [{"winner": "Anne", "win": "rami", "hands": {"Bruno": points(120), "Chloé": points(3)}}]
    states = _states("rami52_6", ABC, last, config={"fixed_manches": 1})
    # docs/rules.md R15: no rachat after the last manche.
    assert observations(states, ABC) == [
        "Anne fait rami ; Bruno atteint 120 ; Fin de la partie : dernière manche jouée"
    ]

"""Every worked case of tests/data/examples.json (docs/rules.md §9), read at run time."""

from __future__ import annotations

import pytest

from games.scoring import RamiError, hand_penalty, replay

from .conftest import load_examples

EXAMPLES = load_examples()
HAND_CASES = EXAMPLES["hand_cases"]
PARTIE_CASES = EXAMPLES["partie_cases"]
ERROR_CASES = EXAMPLES["error_cases"]

# examples.json names the code only; the donne is the one that breaks the rule.
ERROR_DONNES = {"E1": 1, "E3": 4}


def _state_params() -> list[object]:
    return [
        pytest.param(case, index, id=f"{case['id']}-donne{index + 1}")
        for case in PARTIE_CASES
        for index in range(len(case["donnes"]))
    ]


@pytest.mark.parametrize("case", HAND_CASES, ids=[c["id"] for c in HAND_CASES])
def test_hand_case(case: dict) -> None:
    hand = {"cards": case["cards"], "jokers": case["jokers"]}
    expected = case["expected"]
    if isinstance(expected, dict):
        with pytest.raises(RamiError) as info:
            hand_penalty(case["preset"], hand, case["win"])
        assert info.value.code == expected["error"]
    else:
        assert hand_penalty(case["preset"], hand, case["win"]) == expected


@pytest.mark.parametrize(("case", "index"), _state_params())
def test_partie_case_state_by_state(case: dict, index: int) -> None:
    donnes = [d["input"] for d in case["donnes"]]
    result = replay(case["preset"], case["players"], donnes, case["config"])
    assert result.states[index].to_dict() == case["donnes"][index]["expected"]


@pytest.mark.parametrize("case", PARTIE_CASES, ids=[c["id"] for c in PARTIE_CASES])
def test_partie_case_final(case: dict) -> None:
    donnes = [d["input"] for d in case["donnes"]]
    result = replay(case["preset"], case["players"], donnes, case["config"])
    assert len(result.states) == len(donnes)
    assert result.final.to_dict() == case["expected_final"]
    assert result.final.provisional is False


@pytest.mark.parametrize("case", PARTIE_CASES, ids=[c["id"] for c in PARTIE_CASES])
def test_partie_case_prefix_replays_are_provisional(case: dict) -> None:
    donnes = [d["input"] for d in case["donnes"]]
    result = replay(case["preset"], case["players"], donnes[:-1], case["config"])
    assert result.over is False
    assert result.final.provisional is True


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c["id"] for c in ERROR_CASES])
def test_error_case(case: dict) -> None:
    with pytest.raises(RamiError) as info:
        replay(case["preset"], case["players"], case["donnes"], case.get("config"))
    assert info.value.code == case["expected_error"]
    assert info.value.donne == ERROR_DONNES[case["id"]]
    assert str(info.value).startswith(f"Donne {ERROR_DONNES[case['id']]} : ")

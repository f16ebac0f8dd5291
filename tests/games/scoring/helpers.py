"""Short builders for donne inputs in the docs/rules.md §1 shape."""

from __future__ import annotations

from typing import Any

import pytest

from games.scoring import RamiError, replay


def hand(cards: str = "", jokers: int = 0) -> dict[str, Any]:
    return {"cards": cards.split(), "jokers": jokers}


def donne(
    winner: str | None,
    win: str,
    hands: dict[str, str | tuple[str, int] | dict[str, Any]],
    rachat: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """``hands`` maps a player to ``"K Q 5"``, ``("Q 2", jokers)`` or a hand dict."""
    built = {}
    for player, value in hands.items():
        if isinstance(value, str):
            built[player] = hand(value)
        elif isinstance(value, tuple):
            built[player] = hand(*value)
        else:
            built[player] = value
    data: dict[str, Any] = {"winner": winner, "win": win, "hands": built}
    if rachat:
        data["rachat"] = rachat
    return data


def win(winner: str, how: str = "rami", **points: int) -> dict:
    """A donne won by ``winner``, each loser's hand given as its points."""
    return {"winner": winner, "win": how, "hands": {p: {"points": n} for p, n in points.items()}}


def refusal(*args, **kwargs) -> RamiError:
    """What the engine says when it refuses ``replay(*args, **kwargs)``."""
    with pytest.raises(RamiError) as err:
        replay(*args, **kwargs)
    return err.value

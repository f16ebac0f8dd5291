"""Who sits at the table: how many players a preset seats, and which names can be told apart
(docs/rules.md §8 and R28). The new-partie form, the imports and the replay all ask here."""

from __future__ import annotations

from typing import Any

from .errors import RamiError
from .presets import Preset

MAX_NAME = 30  # docs/rules.md R28: a name fits a column of the marque


def name_key(name: str) -> str:
    """Two names are one player when they differ only by case ("Anne", "anne")."""
    return name.casefold()


def name_problem(name: Any) -> RamiError | None:
    """docs/rules.md R28: what is wrong with one name, or None. The model's validator, the
    form, the import and the replay all ask here, so a name gets one verdict on every path."""
    if not isinstance(name, str) or not name.strip():
        return RamiError("nom_invalide")
    if len(name) > MAX_NAME:
        return RamiError("nom_trop_long", player=name, max=MAX_NAME)
    if not name.isprintable():
        # A NUL or a control character cannot be stored (PostgreSQL) nor read aloud.
        return RamiError("nom_illisible")
    return None


def player_problems(preset: Preset, players: list[Any]) -> list[RamiError]:
    """Every reason this table cannot be seated, in the order a player reads the form."""
    problems = [p for p in (name_problem(player) for player in players) if p is not None]
    seen: set[str] = set()
    for player in players:
        if not isinstance(player, str):
            continue
        if name_key(player) in seen:
            problems.append(RamiError("joueurs_en_double", player=player))
        seen.add(name_key(player))
    try:
        check_count(preset, len(players))
    except RamiError as err:
        problems.append(err)
    return problems


def check_count(preset: Preset, count: int) -> None:
    """docs/rules.md §8: each preset seats its own number of players."""
    if not preset.min_players <= count <= preset.max_players:
        raise RamiError(
            "nombre_de_joueurs", min=preset.min_players, max=preset.max_players, count=count
        )


def check_players(preset: Preset, players: list[Any]) -> None:
    problems = player_problems(preset, players)
    if problems:
        raise problems[0]

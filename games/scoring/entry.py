"""A donne as the scorekeeper types it at the table (docs/rules.md §1.3): who won, how, and
what each loser's boxes hold (a points total, cards, the jokers kept). What those boxes mean
is a rule too, so it is said here once: the donne form asks, and so can the page's
JavaScript under Pyodide. Nothing here counts a hand; ``hands.py`` does."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import RamiError
from .hands import hands_needed, parse_card
from .presets import TALON_EPUISE, Preset

# The largest number a points box takes at all: a hand of 13 cards and 4 jokers at ×4 stays
# far below it. Between docs/rules.md R28's 1000 (hands.py MAX_POINTS) and this, the box
# takes the number and the engine refuses the hand with the limit in words.
BOX_MAX_POINTS = 5000

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Boxes:
    """What one loser's boxes hold, as typed: ``cards`` the text of the card picker ("R D 10"
    or "K, Q, 10"), ``points`` the total typed (None: left empty), ``jokers`` the jokers kept."""

    cards: str = ""
    points: int | None = None
    jokers: int = 0


@dataclass
class TypedDonne(Generic[P]):
    """What the engine reads in a typed donne: the win type it is scored by, the hand of each
    loser who has one, the losers whose hand is missing, and the unreadable card texts."""

    win: str
    hands: dict[P, dict[str, Any]] = field(default_factory=dict)
    missing: list[P] = field(default_factory=list)
    unreadable: dict[P, RamiError] = field(default_factory=dict)


def typed_win(preset: Preset, winner: str | None, win: str | None) -> str:
    """The win type of a donne won by ``winner`` (TALON_EPUISE: nobody, docs/rules.md §4):
    an exhausted talon is its own win type whatever was ticked, and a donne typed without a
    win type is won the preset's first way (the one the form ticks)."""
    if winner == TALON_EPUISE:
        return TALON_EPUISE
    return win or preset.default_win


def typed_cards(text: str) -> list[str]:
    """The cards of a picker's text, comma or space separated, in canonical ranks."""
    return [parse_card(card) for card in text.replace(",", " ").split()]


def typed_hand(boxes: Boxes) -> dict[str, Any] | None:
    """One loser's hand from his boxes: cards typed win over a points total (the picker was
    the last thing touched); jokers alone are a hand of no card but those jokers; nothing
    typed is no hand (None). Raises ``carte_inconnue`` for a card that does not exist."""
    if boxes.cards.strip():
        return {"cards": typed_cards(boxes.cards), "jokers": boxes.jokers}
    if boxes.points is not None:
        return {"points": boxes.points, "jokers": boxes.jokers}
    if boxes.jokers:
        return {"cards": [], "jokers": boxes.jokers}
    return None


def read_typed(
    preset: Preset,
    players: Sequence[P],
    winner: P | None,
    win: str,
    boxes: Mapping[P, Boxes],
) -> TypedDonne[P]:
    """The donne typed for ``players`` (those it is dealt to), won by ``winner`` (None: the
    talon was exhausted) the way ``win`` says (``typed_win``). The winner keeps no hand: his
    boxes are not read. A loser with nothing typed is missing, unless the win is a flat one
    (docs/rules.md R27: his hand does not count)."""
    typed: TypedDonne[P] = TypedDonne(win=win)
    needed = hands_needed(preset, win)
    for player in players:
        if player == winner:
            continue
        try:
            hand = typed_hand(boxes.get(player, Boxes()))
        except RamiError as err:
            typed.unreadable[player] = err
            continue
        if hand is not None:
            typed.hands[player] = hand
        elif needed:
            typed.missing.append(player)
    return typed

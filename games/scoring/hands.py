"""Hands kept by the players at the end of a donne, and what they cost (docs/rules.md §3 to §6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import N_, Detail, RamiError
from .presets import CARD_VALUES, FRENCH_LETTERS, TALON_EPUISE, Preset, get_preset

# docs/rules.md §1: the French UI letters map R→K, D→Q, V→J.
_ALIASES = {letter: rank for rank, letter in FRENCH_LETTERS.items()}
# Every spelling accepted as is, for a fast path (lower case too: "a", "r", "v").
_SPELLINGS = {
    **{rank: rank for rank in CARD_VALUES},
    **{rank.lower(): rank for rank in CARD_VALUES},
    **_ALIASES,
    **{alias.lower(): rank for alias, rank in _ALIASES.items()},
}
_HAND_KEYS = frozenset({"cards", "jokers", "points"})

# docs/rules.md R28: no table writes more than this as the total of one hand.
MAX_POINTS = 1000

# docs/rules.md §3.2: multiplier by (win, jokers kept); two jokers or more is ×4, never ×8.
_CLASSIQUE_MULTIPLIERS = {"rami": (1, 2, 4), "rami_de_la_main": (2, 4, 4)}


def parse_card(card: Any) -> str:
    """Return the canonical rank of one card (``"R"`` → ``"K"``, ``"10"`` → ``"10"``)."""
    if isinstance(card, str) and card in _SPELLINGS:
        return _SPELLINGS[card]
    if isinstance(card, bool) or not isinstance(card, str | int):
        raise RamiError("carte_inconnue", card=card)
    rank = str(card).strip().upper()
    rank = _ALIASES.get(rank, rank)
    if rank not in CARD_VALUES:
        raise RamiError("carte_inconnue", card=card)
    return rank


def _non_negative_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class Hand:
    """Cards kept in hand (ranks, jokers as a count) or, for paper tables, a points total.

    docs/rules.md §1: with ``points`` the penalty is computed from the sum S of the non-joker cards
    and the joker count exactly as from cards; only the per-rank deck checks are skipped.
    """

    cards: tuple[str, ...] | None = ()
    jokers: int = 0
    points: int | None = None

    @classmethod
    def of(cls, cards: str | list[str] | tuple[str, ...] = (), jokers: int = 0) -> Hand:
        items = cards.split() if isinstance(cards, str) else cards
        return cls(cards=tuple(parse_card(c) for c in items), jokers=jokers)

    @classmethod
    def from_dict(cls, data: Any) -> Hand:
        if isinstance(data, Hand):
            return data
        if not isinstance(data, dict):
            raise RamiError(
                "main_invalide", detail=N_('une main s\'écrit {"cards": […], "jokers": n}')
            )
        if not data.keys() <= _HAND_KEYS:
            unknown = sorted(set(data) - _HAND_KEYS)[0]
            raise RamiError(
                "main_invalide", detail=Detail(N_("champ inconnu « %(field)s »"), field=unknown)
            )
        jokers = data.get("jokers", 0)
        if not _non_negative_int(jokers):
            raise RamiError("jokers_invalides")
        if "points" in data:
            if "cards" in data:
                raise RamiError("main_invalide", detail=N_("des cartes ou un total, pas les deux"))
            if not _non_negative_int(data["points"]):
                raise RamiError("points_invalides")
            return cls(cards=None, jokers=jokers, points=data["points"])
        cards = data.get("cards", [])
        if isinstance(cards, str):
            cards = cards.split()
        if not isinstance(cards, list | tuple):
            raise RamiError("main_invalide", detail=N_("les cartes s'écrivent en liste"))
        return cls(cards=tuple([parse_card(c) for c in cards]), jokers=jokers)

    def to_dict(self) -> dict[str, Any]:
        if self.cards is None:
            return {"points": self.points, "jokers": self.jokers}
        return {"cards": list(self.cards), "jokers": self.jokers}

    def card_sum(self) -> int:
        """S of docs/rules.md §3.2: the in-hand value of the cards other than jokers."""
        if self.cards is None:
            return self.points or 0
        return sum(CARD_VALUES[c] for c in self.cards)

    def card_values(self) -> list[int]:
        if self.cards is None:
            return [self.points or 0]
        return [CARD_VALUES[c] for c in self.cards]


def check_hand(preset: Preset, hand: Hand) -> None:
    """docs/rules.md §2 step 1: the hand must fit the deck and hold at least one card or joker."""
    if hand.jokers < 0:
        raise RamiError("jokers_invalides")
    if hand.jokers > preset.deck_jokers:
        raise RamiError("trop_de_jokers", jokers=hand.jokers, max=preset.deck_jokers)
    if hand.cards is None:
        if hand.points is None or hand.points < 0:
            raise RamiError("points_invalides")
        if hand.points > MAX_POINTS:
            raise RamiError(
                "valeur_hors_limites",
                field="points",
                detail=Detail(
                    N_("au plus %(max)s pour une main"),
                    max=f"{MAX_POINTS:,}".replace(",", "\u00a0"),
                ),
            )
        if hand.points == 0 and hand.jokers == 0:
            raise RamiError("main_vide")
        return
    if not hand.cards and hand.jokers == 0:
        raise RamiError("main_vide")
    counts: dict[str, int] = {}
    for rank in hand.cards:
        counts[rank] = counts.get(rank, 0) + 1
    for rank, count in counts.items():
        if count > preset.max_same_rank:
            raise RamiError(
                "trop_de_cartes_de_meme_rang", card=rank, count=count, max=preset.max_same_rank
            )


def table_warnings(preset: Preset, hands: list[Hand]) -> list[RamiError]:
    """docs/rules.md R22: the hands of one donne together against the deck. The replay checks
    each hand alone; this is a warning the table may override (a mistyped joker, or a table
    that plays with an extra deck). Empty when one hand alone is already impossible: the
    replay names that one."""
    if any(h.jokers > preset.deck_jokers for h in hands):
        return []
    each = [Counter(h.cards or ()) for h in hands]
    if any(n > preset.max_same_rank for counts in each for n in counts.values()):
        return []
    warnings = []
    jokers = sum(h.jokers for h in hands)
    if jokers > preset.deck_jokers:
        warnings.append(RamiError("table_trop_de_jokers", count=jokers, max=preset.deck_jokers))
    ranks = sum(each, Counter())
    for rank, count in ranks.items():
        if count > preset.max_same_rank:
            warnings.append(
                RamiError("table_trop_de_cartes", card=rank, count=count, max=preset.max_same_rank)
            )
    return warnings


def hands_needed(preset: Preset, win: str) -> bool:
    """docs/rules.md R27: a flat win (rami51 tout d'un coup, rami sec) needs no hands."""
    return win not in preset.flat_penalties


def plausible_max(preset: Preset) -> int:
    """The highest sum of the non-joker cards a loser can hold (``hand_cards`` cards, the
    highest first, at most ``max_same_rank`` of a rank): 148 in classique, 158 in rami51.
    A points total above it is a typo until the table confirms it (R22 spirit: the engine
    counts it; the interface asks first)."""
    values = sorted(
        (value for value in CARD_VALUES.values() for _ in range(preset.max_same_rank)),
        reverse=True,
    )
    return sum(values[: preset.hand_cards])


def implausible(preset: Preset, hand: Hand) -> bool:
    """More points, or more cards, than one loser can hold in this preset."""
    if hand.cards is None:
        return (hand.points or 0) > plausible_max(preset)
    return len(hand.cards) + hand.jokers > preset.hand_cards


def check_win(preset: Preset, win: str) -> None:
    if win == TALON_EPUISE:
        if not preset.talon_epuise:
            # docs/rules.md §3.4, §4, §5, §6: only rami52_7 scores an exhausted talon.
            raise RamiError("talon_epuise_non_compte")
        return
    if win not in preset.win_types:
        raise RamiError("type_de_gain_inconnu", win=win)


def _classique_multiplier(win: str, jokers: int) -> int:
    # docs/rules.md R3: each loser's multiplier depends on his own jokers only.
    return _CLASSIQUE_MULTIPLIERS[win][min(jokers, 2)]


def _penalty(preset: Preset, hand: Hand, win: str) -> int:
    s = hand.card_sum()
    if win == TALON_EPUISE:
        # docs/rules.md §4: talon épuisé (rami52_7): everybody scores his plain hand sum.
        return s + preset.joker_value * hand.jokers
    if win in preset.flat_penalties:
        # docs/rules.md R17: a flat 100 or 200 replaces the hand count.
        return preset.flat_penalties[win]
    if preset.scoring == "classique":
        # docs/rules.md R1/R2: joker counts 10, then the whole hand is multiplied.
        return (s + preset.joker_value * hand.jokers) * _classique_multiplier(win, hand.jokers)
    return s + preset.joker_value * hand.jokers + preset.extra_penalties.get(win, 0)


def hand_penalty(preset: str | Preset, hand: Hand | dict[str, Any], win: str) -> int:
    """The points one loser scores for ``hand`` when the donne is won by ``win``."""
    preset = get_preset(preset)
    hand = Hand.from_dict(hand)
    check_win(preset, win)
    check_hand(preset, hand)
    return _penalty(preset, hand, win)


def _same(message: str) -> str:
    return message


def _jokers_words(jokers: int, _: Callable[[str], str]) -> str:
    if jokers == 1:
        return _(N_("un joker en main"))
    return _(N_("%(jokers)s jokers en main")) % {"jokers": jokers}


def explain_hand(
    preset: str | Preset,
    hand: Hand | dict[str, Any],
    win: str,
    *,
    translate: Callable[[str], str] = _same,
) -> str:
    """The count in words and numbers, e.g. ``(10 + 10 + 2) × 2 = 44 — un joker en main``.

    The words are French; the interface passes ``translate=gettext`` for its language."""
    preset = get_preset(preset)
    hand = Hand.from_dict(hand)
    total = hand_penalty(preset, hand, win)
    return explain_penalty(preset, hand, win, total, translate=translate)


def explain_penalty(
    preset: Preset,
    hand: Hand,
    win: str,
    total: int,
    *,
    translate: Callable[[str], str] = _same,
) -> str:
    """``explain_hand`` for a hand already checked and counted (the replay's fast path)."""
    _ = translate
    if win in preset.flat_penalties:
        label = _(preset.win_types[win]).lower()
        return f"{total} — " + _(N_("%(win)s (forfait)")) % {"win": label}
    terms = [preset.joker_value] * hand.jokers + hand.card_values()
    base = " + ".join(str(t) for t in terms)
    grouped = f"({base})" if len(terms) > 1 else base
    if win == TALON_EPUISE:
        exhausted = _(N_("talon épuisé"))
        return f"{base} = {total} — {exhausted}" if len(terms) > 1 else f"{total} — {exhausted}"
    if preset.scoring == "classique":
        multiplier = _classique_multiplier(win, hand.jokers)
        if multiplier == 1:
            return f"{base} = {total}" if len(terms) > 1 else str(total)
        reasons = []
        if win == "rami_de_la_main":
            reasons.append(_(N_("rami de la main")))
        if hand.jokers:
            reasons.append(_jokers_words(hand.jokers, _))
        return f"{grouped} × {multiplier} = {total} — {_(N_(' et ')).join(reasons)}"
    extra = preset.extra_penalties.get(win, 0)
    if extra:
        return f"{grouped} + {extra} = {total} — {_(preset.win_types[win]).lower()}"
    return f"{base} = {total}" if len(terms) > 1 else str(total)

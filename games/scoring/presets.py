"""The five presets of docs/rules.md §8: card values, win types, ceilings and deck limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from .errors import N_, RamiError

TALON_EPUISE = "talon_epuise"
TALON_EPUISE_LABEL = N_("Talon épuisé")

# docs/rules.md §1: English letters in the engine; A 11, figures 10, pips at face value (R22).
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
CARD_VALUES: MappingProxyType[str, int] = MappingProxyType(
    {"A": 11, "K": 10, "Q": 10, "J": 10, **{str(n): n for n in range(2, 11)}}
)

# docs/rules.md §1: the engine writes K Q J; a French table reads and types R D V.
FRENCH_LETTERS: MappingProxyType[str, str] = MappingProxyType({"K": "R", "Q": "D", "J": "V"})


def card_letter(rank: str, language: str = "fr") -> str:
    """How a rank is written for a table speaking ``language``: ``K`` is ``R`` in French."""
    return FRENCH_LETTERS.get(rank, rank) if language.startswith("fr") else rank


Scoring = Literal["classique", "plain"]


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    summary: str
    joker_value: int
    win_types: dict[str, str]  # key -> French label, in display order
    winner_points: dict[str, int]
    scoring: Scoring = "plain"
    # docs/rules.md R17 (Rami 51): these win types replace the hand count by a flat penalty.
    flat_penalties: dict[str, int] = field(default_factory=dict)
    # docs/rules.md §6 (Rami 40): going rami adds 25 to the hand count.
    extra_penalties: dict[str, int] = field(default_factory=dict)
    talon_epuise: bool = False
    seuil: int | None = 100
    seuil_inclusive: bool = True
    max_rachats: int = 3
    fixed_manches: int | None = None
    target: int | None = None
    target_inclusive: bool = True
    min_players: int = 2
    max_players: int = 6
    deck_jokers: int = 4
    max_same_rank: int = 8
    # The most cards a loser can hold when the donne ends: the cards dealt, plus one (the
    # dealer's extra card, or a card drawn). Beyond it a hand is implausible (hands.py).
    hand_cards: int = 14

    @property
    def default_win(self) -> str:
        return next(iter(self.win_types))

    @property
    def has_elimination(self) -> bool:
        return self.seuil is not None

    @property
    def rachats_offered(self) -> int:
        """How many rachats a player may buy: none without a seuil to cross (docs/rules.md §5)."""
        return self.max_rachats if self.has_elimination else 0

    @property
    def explains_rami_de_la_main(self) -> bool:
        """docs/rules.md R3: the preset where a win is declared "rami de la main", which the
        donne form explains in one sentence."""
        return "rami_de_la_main" in self.win_types

    def all_win_types(self) -> dict[str, str]:
        """The win types a donne may declare, talon épuisé included when the preset counts it."""
        if self.talon_epuise:
            return {**self.win_types, TALON_EPUISE: TALON_EPUISE_LABEL}
        return dict(self.win_types)

    def card_value(self, rank: str) -> int:
        return CARD_VALUES[rank]


CLASSIQUE = Preset(
    key="classique",
    label=N_("Rami classique"),
    summary=N_(
        "2 jeux de 52 cartes et 4 jokers, 2 à 6 joueurs. Rami −10, rami de la main −20.\n"
        "Joker en main : 10 et tout doublé (×4 avec deux jokers) ; éliminé à 100, 3 rachats."
    ),
    # docs/rules.md §3.1: a joker kept in hand always counts 10 in this preset (the multipliers do
    # the rest), so its nominal 20 never reaches the marque.
    joker_value=10,
    win_types={"rami": N_("Rami"), "rami_de_la_main": N_("Rami de la main")},
    winner_points={"rami": -10, "rami_de_la_main": -20},
    scoring="classique",
    max_players=6,
    hand_cards=14,  # 13 dealt + 1
)

RAMI52_7 = Preset(
    key="rami52_7",
    label=N_("Rami 52 cartes + joker, 7 cartes"),
    summary=N_(
        "52 cartes et 1 joker, 7 cartes chacun, 2 à 5 joueurs, 4 manches.\n"
        "Talon épuisé : chacun compte sa main ; on saute à 100 et on se rachète."
    ),
    joker_value=20,
    win_types={"rami": N_("Rami")},
    winner_points={"rami": 0},
    talon_epuise=True,
    fixed_manches=4,
    max_players=5,
    deck_jokers=1,
    max_same_rank=4,
    hand_cards=8,  # 7 dealt + 1
)

RAMI52_6 = Preset(
    key="rami52_6",
    label=N_("Rami 52 cartes + joker, 6 cartes"),
    summary=N_(
        "52 cartes et 1 joker, 6 cartes chacun, 2 à 7 joueurs, 4 manches.\n"
        "Le talon se reforme avec la défausse ; on saute à 100 et on se rachète."
    ),
    joker_value=20,
    win_types={"rami": N_("Rami")},
    winner_points={"rami": 0},
    fixed_manches=4,
    max_players=7,
    deck_jokers=1,
    max_same_rank=4,
    hand_cards=7,  # 6 dealt + 1
)

RAMI51 = Preset(
    key="rami51",
    label=N_("Rami 51"),
    summary=N_(
        "2 jeux de 52 cartes et 4 jokers, 2 à 7 joueurs ; joker en main 150, As 11.\n"
        "Tout d'un coup : 100 à chacun, rami sec : 200 ; la partie s'arrête à 1 000 points."
    ),
    joker_value=150,
    win_types={
        "sortie": N_("Sortie"),
        "tout_d_un_coup": N_("Tout d'un coup"),
        "rami_sec": N_("Rami sec"),
    },
    winner_points={"sortie": 0, "tout_d_un_coup": 0, "rami_sec": 0},
    flat_penalties={"tout_d_un_coup": 100, "rami_sec": 200},
    # docs/rules.md §5: no elimination and no rachat; the partie ends on points (R18).
    seuil=None,
    max_rachats=0,
    target=1000,
    max_players=7,
    hand_cards=15,  # 14 dealt, 15 for the dealer (§5)
)

RAMI40 = Preset(
    key="rami40",
    label=N_("Rami 40"),
    summary=N_(
        "2 jeux de 52 cartes et 2 jokers, 13 cartes, 2 à 5 joueurs ; joker en main 15.\n"
        "Going rami : +25 à chacun ; éliminé au-dessus de 150, 3 rachats."
    ),
    joker_value=15,
    win_types={"sortie_rami": N_("Sortie (rami)"), "going_rami": N_("Going rami")},
    winner_points={"sortie_rami": 0, "going_rami": 0},
    extra_penalties={"going_rami": 25},
    # docs/rules.md R20: Kalookie eliminates strictly above 150; exactly 150 stays in.
    seuil=150,
    seuil_inclusive=False,
    max_players=5,
    deck_jokers=2,
    hand_cards=14,  # 13 dealt + 1
)

PRESETS: dict[str, Preset] = {p.key: p for p in (CLASSIQUE, RAMI52_7, RAMI52_6, RAMI51, RAMI40)}
# docs/rules.md §8: the most players any preset seats (7, rami52_6 and rami51). The
# new-partie form's rows, its first-dealer seats and the model's validator stop here.
MAX_SEATS = max(p.max_players for p in PRESETS.values())


def get_preset(key: str | Preset) -> Preset:
    if isinstance(key, Preset):
        return key
    try:
        return PRESETS[key]
    except (KeyError, TypeError):
        raise RamiError("preset_inconnu", preset=key) from None


# Labels the marque shows for why the partie ended and why a player left it (docs/rules.md §2).
END_REASONS: dict[str, str] = {
    "last_standing": N_("un seul joueur reste en course"),
    "fixed_manches": N_("dernière manche jouée"),
    "all_crossed": N_("tous les joueurs ont franchi le seuil"),
    "target_reached": N_("un total a atteint l'objectif"),
    "manual": N_("partie terminée par la table"),
}
# A player's status in the partie: en course (in_race), or out for one of ELIMINATION_REASONS
# (docs/rules.md R5: he declined his rachat; R8: his last crossing excluded him).
IN_RACE = "in_race"
DECLINED = "declined"
DEFINITIVE_EXCLUSION = "definitive_exclusion"
ELIMINATION_REASONS: dict[str, str] = {
    DECLINED: N_("abandon"),
    DEFINITIVE_EXCLUSION: N_("exclusion définitive"),
}


def is_out(status: str) -> bool:
    """Out of the partie: he neither plays nor deals any more ("" or IN_RACE: he does)."""
    return status not in ("", IN_RACE)


def gave_up(status: str) -> bool:
    """docs/rules.md R5: out because he declined his rachat (an "abandon", not an exclusion)."""
    return status == DECLINED

"""The scoring engine of ramiscore: pure Python, no Django. The only place that knows the rules."""

from __future__ import annotations

from .config import RECORD_KEYS, Config
from .donne import DonneInput, DonneState, PendingRachat, RachatInfo, next_number
from .entry import BOX_MAX_POINTS, Boxes, TypedDonne, read_typed, typed_win
from .errors import MESSAGES, N_, RamiError
from .final import POT, Final, positions_with_pot, refund_due, settle
from .hands import (
    Hand,
    explain_hand,
    hand_penalty,
    hands_needed,
    implausible,
    parse_card,
    plausible_max,
    table_warnings,
)
from .players import (
    check_count,
    check_players,
    clean_name,
    name_key,
    name_problem,
    player_problems,
    stored_name,
)
from .presets import (
    DECLINED,
    DEFINITIVE_EXCLUSION,
    FRENCH_LETTERS,
    IN_RACE,
    MAX_SEATS,
    PRESETS,
    TALON_EPUISE,
    Preset,
    card_letter,
    gave_up,
    get_preset,
    is_out,
)
from .replay import Replay, check_next_donne, replay

# Stored replays are tagged with it (games/replays.py): change it with any change of what the
# engine derives (a rule, a field of DonneState), and every stored replay is rebuilt on read.
ENGINE_VERSION = "2026.12.3"

__all__ = [
    "BOX_MAX_POINTS",
    "DECLINED",
    "DEFINITIVE_EXCLUSION",
    "ENGINE_VERSION",
    "IN_RACE",
    "MAX_SEATS",
    "Boxes",
    "TypedDonne",
    "gave_up",
    "is_out",
    "next_number",
    "read_typed",
    "typed_win",
    "FRENCH_LETTERS",
    "RECORD_KEYS",
    "card_letter",
    "check_count",
    "check_next_donne",
    "refund_due",
    "check_players",
    "clean_name",
    "name_key",
    "name_problem",
    "player_problems",
    "stored_name",
    "table_warnings",
    "MESSAGES",
    "N_",
    "POT",
    "PRESETS",
    "TALON_EPUISE",
    "Config",
    "DonneInput",
    "DonneState",
    "Final",
    "Hand",
    "PendingRachat",
    "Preset",
    "RachatInfo",
    "RamiError",
    "Replay",
    "explain_hand",
    "get_preset",
    "hand_penalty",
    "hands_needed",
    "implausible",
    "plausible_max",
    "parse_card",
    "positions_with_pot",
    "replay",
    "settle",
]

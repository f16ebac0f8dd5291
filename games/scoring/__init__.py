"""The scoring engine of ramiscore: pure Python, no Django. The only place that knows the rules."""

from __future__ import annotations

from .config import Config, rachat_price
from .donne import DonneInput, DonneState, PendingRachat, RachatInfo
from .errors import MESSAGES, N_, RamiError
from .final import POT, Final, positions_with_pot, settle
from .hands import Hand, explain_hand, hand_penalty, parse_card
from .presets import PRESETS, TALON_EPUISE, Preset, get_preset
from .replay import Replay, replay

__all__ = [
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
    "parse_card",
    "positions_with_pot",
    "rachat_price",
    "replay",
    "settle",
]

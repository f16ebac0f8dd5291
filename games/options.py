"""The table options of a partie in the engine's terms and back: one mapping, both ways.

``Partie`` and the engine's ``Config`` use the same names (docs/rules.md §8); what differs is
only the unit of money (Decimal on the partie, centimes in the engine), the three rachat
prices (three fields, one tuple), and an empty rule field, which keeps the preset's default.
"""

from __future__ import annotations

from typing import Any

from games.centimes import from_centimes, to_centimes
from games.models import Partie
from games.scoring import RECORD_KEYS, Config, Preset, get_preset
from games.scoring.config import RULE_OPTIONS, filled_prices


def _rachat_prices(partie: Partie) -> int | list[int]:
    later = [partie.rachat_price_2, partie.rachat_price_3]
    return filled_prices(
        to_centimes(partie.rachat_price),
        [to_centimes(price) if price is not None else None for price in later],
    )


def config_of(partie: Partie) -> Config:
    """The rules the engine applies to this partie: its preset with the table's options."""
    return Config.for_preset(
        get_preset(partie.preset),
        rachat_prices=_rachat_prices(partie),
        mise_initiale=to_centimes(partie.mise_initiale),
        point_value=to_centimes(partie.point_value),
        settlement=partie.settlement,
        **{name: getattr(partie, name) for name in RULE_OPTIONS},
    )


def fields_of(config: Config, preset: Preset) -> dict[str, Any]:
    """A Config as Partie fields: money in Decimal, and a rule option only where it differs
    from the preset's, as the new-partie form leaves the others empty."""
    prices = [from_centimes(p) for p in config.rachat_prices]
    fields: dict[str, Any] = {
        "mise_initiale": from_centimes(config.mise_initiale),
        "rachat_price": prices[0],
        "point_value": from_centimes(config.point_value),
        "settlement": config.settlement,
        **config.changed_from(preset),
    }
    if len(prices) == 3:
        fields["rachat_price_2"], fields["rachat_price_3"] = prices[1], prices[2]
    return fields


def record_options(partie: Partie) -> dict[str, Any]:
    """The ``config`` of the partie's game record: only what the table set (an absent option
    is the preset's default), in the record's key names."""
    prices = _rachat_prices(partie)
    options: dict[str, Any] = {}
    if prices != 0:
        options[RECORD_KEYS["rachat_prices"]] = prices
    for name in ("mise_initiale", "point_value"):
        if getattr(partie, name):
            options[RECORD_KEYS[name]] = to_centimes(getattr(partie, name))
    if partie.settlement != "gagnant":
        options[RECORD_KEYS["settlement"]] = partie.settlement
    for name in RULE_OPTIONS:
        if getattr(partie, name) is not None:
            options[RECORD_KEYS[name]] = getattr(partie, name)
    return options

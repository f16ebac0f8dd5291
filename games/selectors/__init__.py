"""Every read of a partie, in one shape (``PartieState``): one module per reader, the
reads of one partie (partie), of several (lists), of the stored replay (stored), of the
donnes the engine replays (donnes). Writes live in games/services/ and games/replays.py."""

from __future__ import annotations

from games.selectors.donnes import partie_load, partie_replay
from games.selectors.lists import (
    partie_listed,
    parties_loaded,
    parties_money,
    parties_of,
    parties_states,
    statistics_parties,
)
from games.selectors.partie import (
    accepted_rachats,
    bought_back,
    dealer_names,
    decisions_of,
    donne_hands,
    partie_export,
    partie_shared,
    partie_state,
    partie_state_of,
    tail,
    tail_from,
    with_rachats,
)
from games.selectors.state import UNKNOWN, PartieState, RachatLine, Summary, dealer_id_of
from games.selectors.stored import (
    is_fresh,
    rachat_lines,
    read_summary,
    state_at,
    states_of,
    stored_result,
    summary_from,
    summary_of,
)

__all__ = [
    "PartieState",
    "RachatLine",
    "Summary",
    "UNKNOWN",
    "accepted_rachats",
    "bought_back",
    "dealer_id_of",
    "dealer_names",
    "decisions_of",
    "donne_hands",
    "is_fresh",
    "partie_export",
    "partie_listed",
    "partie_load",
    "partie_replay",
    "partie_shared",
    "partie_state",
    "partie_state_of",
    "parties_loaded",
    "parties_money",
    "parties_of",
    "parties_states",
    "rachat_lines",
    "read_summary",
    "state_at",
    "states_of",
    "statistics_parties",
    "stored_result",
    "summary_from",
    "summary_of",
    "tail",
    "tail_from",
    "with_rachats",
]

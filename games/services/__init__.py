"""Every write of ramiscore, one module per part. Each service is keyword-only and atomic: it
locks the partie, has the engine (games.scoring) check the result, and saves all or nothing.
A refusal is a ``RamiError`` (the rules) or a ``PartieError`` (the app): see games/errors.py.
"""

from __future__ import annotations

from games.services.donnes import (
    DonneRecorded,
    RachatChanged,
    RachatDecided,
    donne_create,
    donne_delete,
    donne_update,
    rachat_change,
    rachat_decide,
)
from games.services.guests import guest_claim, guest_partie_create, guests_remove_expired
from games.services.habitues import habitue_merge, habitue_rename
from games.services.imports import partie_import, parties_import
from games.services.locked import Change
from games.services.money import Repriced, mise_mark_paid, partie_update_money, rachat_mark_paid
from games.services.parties import partie_close, partie_create, partie_note_set, partie_reopen
from games.services.sharing import partie_share, partie_unshare

__all__ = [
    "Change",
    "DonneRecorded",
    "RachatChanged",
    "RachatDecided",
    "Repriced",
    "donne_create",
    "donne_delete",
    "donne_update",
    "guest_claim",
    "guest_partie_create",
    "guests_remove_expired",
    "habitue_merge",
    "habitue_rename",
    "partie_close",
    "partie_create",
    "partie_import",
    "partie_note_set",
    "partie_reopen",
    "partie_share",
    "partie_unshare",
    "partie_update_money",
    "parties_import",
    "rachat_change",
    "rachat_decide",
    "rachat_mark_paid",
    "mise_mark_paid",
]

"""Every write of ramiscore, one module per part. Each service is keyword-only and atomic: it
locks the partie, has the engine (games.scoring) check the result, and saves all or nothing."""

from __future__ import annotations

from games.services.donnes import donne_create, donne_delete, donne_update, rachat_decide
from games.services.imports import partie_import, parties_import
from games.services.locked import Change, Repriced
from games.services.money import mise_mark_paid, partie_update_money, rachat_mark_paid
from games.services.parties import partie_close, partie_create, partie_reopen
from games.services.sharing import partie_share, partie_unshare

__all__ = [
    "Change",
    "Repriced",
    "donne_create",
    "donne_delete",
    "donne_update",
    "mise_mark_paid",
    "partie_close",
    "partie_create",
    "partie_import",
    "partie_reopen",
    "partie_share",
    "partie_update_money",
    "partie_unshare",
    "parties_import",
    "rachat_decide",
    "rachat_mark_paid",
]

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Parties de Rami")

    def ready(self) -> None:
        # The share poll's cached state is forgotten when a partie changes (games/follow.py).
        from games import follow  # noqa: F401

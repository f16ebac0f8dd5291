from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Parties de Rami")

    def ready(self) -> None:
        # Connects the render of a partie's PDF to every committed write (games/tasks.py).
        from games import tasks  # noqa: F401

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Parties de Rami")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from games.usernames import keep_username_key

        # One account per username key, on every path that saves an account.
        post_save.connect(
            keep_username_key, sender=get_user_model(), dispatch_uid="games.username_key"
        )

        # The share poll's cached state moves when a partie changes (games/follow.py), and
        # every committed write queues the render of the partie's PDF (games/tasks.py).
        from games import follow, tasks  # noqa: F401

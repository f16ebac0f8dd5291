"""``python manage.py remove_expired_guests``: remove the guest accounts never claimed, with
their parties, once GUEST_KEEP has passed since each was made (docs/decisions.md "Guest
accounts"). Run it daily (cron or a systemd timer, README "Guest accounts")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games import services
from games.services.guests import GUEST_KEEP


class Command(BaseCommand):
    help = f"Supprime les comptes invités non gardés après {GUEST_KEEP.days} jours."

    def add_arguments(self, parser: CommandParser) -> None:
        # The time to count from, for a test or a replay of a missed run; now by default.
        parser.add_argument("--now", default=None, help="date et heure ISO 8601 (défaut : now)")

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        if options["now"]:
            try:
                now = datetime.fromisoformat(options["now"])
            except ValueError as err:
                raise CommandError(f"--now : date ISO 8601 attendue ({err})") from err
            if timezone.is_naive(now):
                now = timezone.make_aware(now)
        removed = services.guests_remove_expired(now=now)
        self.stdout.write(f"{removed} compte(s) invité(s) supprimé(s).")

"""``makemessages`` that also collects the scoring engine's ``N_("...")`` markers.

``games/scoring/`` never imports Django, so it marks its French messages with a no-op ``N_``
(see ``games/scoring/errors.py``). Django's own command only knows the ``gettext`` family;
this one always adds ``--keyword=N_`` for xgettext and accepts further ``--keyword`` options
(``make messages`` runs it).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--keyword",
            action="append",
            default=[],
            help="Extra xgettext keyword, e.g. --keyword=N_ (N_ is always included).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keywords = ["N_", *options.pop("keyword", [])]
        extra = [f"--keyword={k}" for k in dict.fromkeys(keywords)]
        self.xgettext_options = [*makemessages.Command.xgettext_options, *extra]
        super().handle(*args, **options)

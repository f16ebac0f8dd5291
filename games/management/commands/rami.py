"""``python manage.py rami score FILE``: the scoring engine from the command line.

A thin wrapper around ``games.scoring.cli``; it never touches the database.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.scoring import cli


class Command(BaseCommand):
    help = "Outils de marque du Rami (score : rejouer une partie enregistrée en JSON)."
    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        cli.add_score_arguments(actions.add_parser("score", help="rejouer une partie"))

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "score":
            self._score(options["file"], options["format"], options.get("stdin") or sys.stdin)

    def _score(self, path: str, fmt: str, stdin: TextIO) -> None:
        try:
            output = cli.score(path, fmt, stdin)
        except cli.ScoreFailure as failure:
            if failure.stdout:
                self.stdout.write(failure.stdout, ending="")
            raise CommandError(str(failure), returncode=1) from None
        self.stdout.write(output, ending="")

"""``python manage.py rami score FILE``: the scoring engine from the command line, a thin
wrapper around ``games.scoring.cli`` that never touches the database; and
``python manage.py rami import FILE --user USERNAME``, which creates the partie through
``services.partie_import`` (the same checks as the web import).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any, TextIO

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games import replays, services
from games.errors import translated
from games.files import MAX_UPLOAD_BYTES, read_upload
from games.models import Partie
from games.scoring import RamiError, cli


class Command(BaseCommand):
    help = "Outils de marque du Rami (score : rejouer une partie enregistrée en JSON)."
    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        cli.add_score_arguments(actions.add_parser("score", help="rejouer une partie"))
        importer = actions.add_parser("import", help="créer une partie depuis un fichier JSON")
        importer.add_argument("file", help="export JSON de ramiscore ou enregistrement de partie")
        importer.add_argument("--user", required=True, help="le compte qui possédera la partie")
        importer.add_argument("--name", default=None, help="nom de la partie")
        rebuild = actions.add_parser(
            "rebuild", help="recalculer la marque enregistrée de toutes les parties"
        )
        rebuild.add_argument(
            "--check",
            action="store_true",
            help="vérifier seulement : la marque enregistrée est-elle celle d'un recalcul ?",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "score":
            self._score(options["file"], options["format"], options.get("stdin") or sys.stdin)
        elif options["action"] == "import":
            self._import(options["file"], options["user"], options["name"])
        elif options["action"] == "rebuild":
            self._rebuild(check=options["check"])

    def _rebuild(self, *, check: bool) -> None:
        """Every partie's stored replay, from what was recorded (after a change of the engine,
        or to be sure); ``--check`` only compares, and fails if one differs."""
        differ = []
        count = 0
        for partie in Partie.objects.order_by("pk").iterator():
            count += 1
            if check:
                if not replays.agrees(partie):
                    differ.append(partie.pk)
                continue
            with transaction.atomic():
                locked = Partie.objects.select_for_update().get(pk=partie.pk)
                replays.rebuild(locked)
        if check and differ:
            listed = ", ".join(str(pk) for pk in differ)
            raise CommandError(f"Marque enregistrée différente pour les parties {listed}.")
        done = "vérifiées" if check else "recalculées"
        self.stdout.write(f"{count} parties {done}.")

    def _import(self, path: str, username: str, name: str | None) -> None:
        owner = get_user_model().objects.filter(username=username).first()
        if owner is None:
            raise CommandError(f"Le compte « {username} » n'existe pas.")
        try:
            try:
                with open(path, "rb") as handle:
                    raw = handle.read(MAX_UPLOAD_BYTES + 1)
            except OSError as err:
                detail = f"{path} : {err.strerror}"
                raise RamiError("enregistrement_invalide", detail=detail) from None
            # The same reader as the import page: the same limits, the same messages.
            records = read_upload(raw)
        except RamiError as err:
            raise CommandError(f"Erreur {err.code} : {translated(err)}", returncode=1) from None
        if name and len(records) == 1:
            records = [replace(records[0], name=name)]
        try:
            parties, skipped = services.parties_import(owner=owner, records=records)
        except RamiError as err:
            raise CommandError(f"Erreur {err.code} : {translated(err)}", returncode=1) from None
        for title in skipped:
            self.stdout.write(f"Partie « {title} » déjà présente : ignorée.")
        for partie in parties:
            count = partie.donnes.count()
            self.stdout.write(
                f"Partie « {partie.name} » importée (n° {partie.pk}, {count} donnes)."
            )

    def _score(self, path: str, fmt: str, stdin: TextIO) -> None:
        try:
            output = cli.score(path, fmt, stdin)
        except cli.ScoreFailure as failure:
            if failure.stdout:
                self.stdout.write(failure.stdout, ending="")
            raise CommandError(str(failure), returncode=1) from None
        self.stdout.write(output, ending="")

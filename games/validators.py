"""Django validators that ask the engine, so the admin, a form and ``full_clean`` refuse
exactly what the engine refuses (docs/rules.md R28). Every way in (the forms, the import page,
the backup restore, ``rami import``) checks a field with the one validator here, or with the
engine's own check that this validator asks."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .errors import PartieError, translated
from .scoring.players import has_hidden, name_problem

MAX_NOTE = 2000  # characters of a partie's note: a long paragraph


def validate_joueur_name(value: str) -> None:
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(translated(problem), code=problem.code)


def validate_partie_name(value: str) -> None:
    """A partie's name is shown on every page and sheet: no character that cannot be read or
    that turns the text around (docs/rules.md R28, as for a player's name)."""
    if has_hidden(value):
        raise ValidationError(
            _("Le nom de la partie contient un caractère invisible ou de contrôle : retirez-le."),
            code="nom_partie_illisible",
        )


def note_text(value: str) -> str:
    """A note as it is stored, from the form or from a file: without surrounding white space,
    its line ends written ``\\n``. A browser posts a textarea's line breaks as CR LF (the HTML
    standard), a file edited on Windows may hold them too: both are the same note. A CR
    alone is not a line end any page shows: it stays, and is refused (``note_problem``)."""
    return value.strip().replace("\r\n", "\n")


def note_problem(value: str) -> PartieError | None:
    """What is wrong with a note (already through ``note_text``), or None. The note is shown
    on the page, the sheet, the PDF and the CSV: beside line breaks and tabs, no character
    that docs/rules.md R28 refuses in a name (control characters such as ESC, BEL, CR, DEL,
    U+0085, U+009B; invisible or reversing ones such as U+200B, U+202E, U+2066, U+FEFF)."""
    if len(value) > MAX_NOTE:
        return PartieError("note_trop_longue", max=MAX_NOTE)
    if has_hidden(value.replace("\n", "").replace("\t", "")):
        return PartieError("note_illisible")
    return None


def validate_note(value: str) -> None:
    problem = note_problem(value)
    if problem is not None:
        raise ValidationError(translated(problem), code=problem.code)

"""Django validators that ask the engine, so the admin, a form and ``full_clean`` refuse
exactly what the engine refuses (docs/rules.md R28)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .errors import translated
from .scoring.players import has_hidden, name_problem


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

"""Django validators that ask the engine, so the admin, a form and ``full_clean`` refuse
exactly what the engine refuses (docs/rules.md R28)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from .errors import translated
from .scoring.players import name_problem


def validate_joueur_name(value: str) -> None:
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(translated(problem), code=problem.code)

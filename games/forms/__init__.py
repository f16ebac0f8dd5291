"""Forms validate and normalise what was typed; the engine and the services do the work."""

from __future__ import annotations

from games.forms.accounts import GuardedPasswordChangeForm, LoginForm, SignupForm
from games.forms.donne import DonneForm
from games.forms.files import ImportForm
from games.forms.partie import MoneyForm, NoteForm, PartieForm

__all__ = [
    "DonneForm",
    "GuardedPasswordChangeForm",
    "ImportForm",
    "LoginForm",
    "MoneyForm",
    "NoteForm",
    "PartieForm",
    "SignupForm",
]

"""Creating an account: one transaction, one account per username key (games/usernames.py)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction

from games.forms.accounts import SignupForm
from games.usernames import username_problem


def create_account(form: SignupForm) -> AbstractBaseUser | None:
    """The account of a valid sign-up form, or None with the form's username refused: another
    sign-up took the key between the form's check and this one (the unique column says so)."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        problem = username_problem(form.cleaned_data["username"])
        if problem is None:
            raise
        form.add_error("username", problem)
        return None

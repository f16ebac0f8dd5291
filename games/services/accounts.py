"""Creating an account: one transaction, one account per username key (games/usernames.py)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction

from games.usernames import username_problem


class SignupForm(UserCreationForm):
    """Django's sign-up form, its username refused when its key is another account's: Django
    compares ``username__iexact``, which tells ``vaneßa`` from ``vanessa``."""

    def clean_username(self) -> str | None:
        username = self.cleaned_data.get("username")
        # A guest keeping its parties (games/views/guests.py) is this form bound to its row.
        owner = self.instance if self.instance.pk else None
        problem = username_problem(username, owner) if username else None
        if problem is not None:
            raise problem
        return super().clean_username()


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

"""The account forms: sign-up, login and password change, each Django's own with the checks
that keep one account per username key (games/usernames.py) and the limits against guessing
(games/login_limits.py)."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import ValidationError

from games import lockout
from games.login_limits import OLD_PASSWORD, login_checks, remember_address, too_many_message
from games.throttle import refill, take
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


class LoginForm(AuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password or self.request is None:
            return super().clean()  # a field is missing: nothing is checked
        checks = login_checks(self.request, username)
        wait, counted = lockout.attempt(*checks.counted)
        if counted is None:
            # Not even checked: a refused guess tells nothing, right or wrong.
            raise ValidationError(too_many_message(wait), code="too_many")
        cleaned = super().clean()  # a wrong password raises: the failure stays counted
        lockout.release(counted, forget=checks.forgiven)
        if checks.address:
            remember_address(self.get_user(), checks.address)
        return cleaned


class GuardedPasswordChangeForm(PasswordChangeForm):
    """Django's form, its old password checked at most 5 times wrong per account, then once
    every 3 minutes; a right one refills the account's bucket."""

    def clean_old_password(self):
        bucket = OLD_PASSWORD.bucket(str(self.user.pk))
        wait = take(bucket)
        if wait:
            raise ValidationError(too_many_message(wait), code="too_many")
        old = super().clean_old_password()  # a wrong one raises: the token stays taken
        refill(bucket)
        return old

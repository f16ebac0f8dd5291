"""Login and sign-up limits (issue 15), against guessing without handing anyone a way to lock
an owner out (OWASP ASVS 2.2.1, and OWASP's "device cookies").

Every limit is a token bucket in the database (games/throttle.py): the same for every worker
and every server. A username is counted under its key (games/usernames.py): NFKC-normalised
(``AbstractBaseUser.normalize_username``, which ``UsernameField`` applies), then case-folded,
so that ``ｃarol`` (full-width c) and ``Carol`` share ``carol``'s counters. One account only
has a key, so no one can refill another account's counters by logging into his own; a name
that names an account is counted under that account's stored key.

From a browser it does not know, a username may have:
- 5 failures from one address, then one more every 3 minutes (``USER_ADDRESS``);
- at most 100 password checks an hour from all addresses together, right or wrong
  (``USER``: a bucket of 50 that refills in an hour);
and an address 20 failures whatever the usernames, then one more every 3 minutes.

A browser where the owner logged in before holds a signed device cookie naming the account by
its id (never by its typed name: a header is Latin-1, and a name is not the account). It is
counted on its own (5 failures, then one every 3 minutes, for that cookie alone) and
never by the counters above: whoever hammers the account from elsewhere cannot lock its
owner out. The right password clears the failures of that username from that address (or of
that device cookie), gives back its token to the address, and leaves the per-username count
alone: that one counts checks."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import ngettext

from games.throttle import Bucket, Limit, give_back, minutes, refill, take
from games.usernames import account_named, counter_key, username_key

__all__ = ["username_key"]  # the counters' key, also games.usernames'

USER_ADDRESS = Limit("login-user-address", capacity=5, seconds=15 * 60)
USER = Limit("login-user", capacity=50, seconds=60 * 60)
ADDRESS = Limit("login-address", capacity=20, seconds=60 * 60)
DEVICE = Limit("login-device", capacity=5, seconds=15 * 60)
# Accounts created from one address: 5, then one more every 12 minutes (10 an hour at most).
# The old password of the password-change form is a password check too (issue 15's audit): a
# stolen session must not become a way to guess it. Per account.
OLD_PASSWORD = Limit("password-change-user", capacity=5, seconds=15 * 60)
SIGNUP = Limit("signup-address", capacity=5, seconds=60 * 60)

DEVICE_COOKIE = "rami_appareil"
# The cookies that named a username (before it named the account's id) are not read: a new
# salt, so the old values cannot be taken for ids.
DEVICE_SALT = "ramiscore.login.device.account"
DEVICE_AGE = timedelta(days=365)


def client_ip(request: HttpRequest) -> str:
    """The visitor's address. Behind N trusted proxies (DJANGO_TRUSTED_PROXIES=N), the N-th
    address from the right of X-Forwarded-For is the one the first proxy saw; anything to its
    left was written by the client and cannot be trusted. Without it, every visitor behind a
    proxy would share the proxy's address."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def known_device(request: HttpRequest, account: AbstractBaseUser | None) -> str | None:
    """The device cookie's own id when this browser logged in to ``account`` before: a cookie
    speaks only for the account it was issued to."""
    if account is None:
        return None
    value = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=DEVICE_AGE
    )
    if value is None:
        return None
    device, _sep, who = value.partition(":")
    return device if device and who == str(account.pk) else None


def remember_device(response: HttpResponse, user: AbstractBaseUser) -> None:
    """After a successful login or sign-up: this browser is the owner's from now on. The value
    is ASCII whatever the username (a random id and the account's id)."""
    value = f"{secrets.token_urlsafe(16)}:{user.pk}"
    response.set_signed_cookie(
        DEVICE_COOKIE,
        value,
        salt=DEVICE_SALT,
        max_age=int(DEVICE_AGE.total_seconds()),
        path=reverse("login"),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


@dataclass
class Checks:
    """The buckets a password check takes from; a right password refills ``refilled`` (it
    proves who is there) and gives back to ``returned`` the token it took (an address shared
    with a guesser: logging into one's own account must not clear the guesses)."""

    taken: list[Bucket]
    refilled: list[Bucket]
    returned: list[Bucket]


def login_checks(request: HttpRequest, username: str) -> Checks:
    account = account_named(username)
    key = counter_key(username, account)
    device = known_device(request, account)
    if device:
        mine = DEVICE.bucket(device)
        return Checks([mine], [mine], [])
    ip = client_ip(request)
    pair, address = USER_ADDRESS.bucket(f"{key}\0{ip}"), ADDRESS.bucket(ip)
    return Checks([pair, address, USER.bucket(key)], [pair], [address])


def too_many_message(wait: float) -> str:
    n = minutes(wait)
    return ngettext(
        "Trop d'essais : réessayez dans %(n)s minute.",
        "Trop d'essais : réessayez dans %(n)s minutes.",
        n,
    ) % {"n": n}


class LoginForm(AuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password or self.request is None:
            return super().clean()  # a field is missing: nothing is checked
        checks = login_checks(self.request, username)
        wait = take(*checks.taken)
        if wait:
            # Not even checked: a refused guess tells nothing, right or wrong.
            raise ValidationError(too_many_message(wait), code="too_many")
        cleaned = super().clean()  # a wrong password raises: the tokens stay taken
        refill(*checks.refilled)
        give_back(*checks.returned)
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

"""Login and sign-up limits, against guessing without handing anyone a way to lock
an owner out (OWASP ASVS 2.2.1, and OWASP's "device cookies").

Every limit is kept in the database, the same for every worker and every server: the login's
locks (games/lockout.py), and token buckets for the sign-up and the password-change form
(games/throttle.py). A username is counted under its key (games/usernames.py): NFKC-normalised
(``AbstractBaseUser.normalize_username``, which ``UsernameField`` applies), then case-folded,
so that ``ｃarol`` (full-width c) and ``Carol`` share ``carol``'s counters. One account only
has a key, so no one can refill another account's counters by logging into his own; a name
that names an account is counted under that account's stored key.

From a browser it does not know, failed checks are counted by proportional locks
(games/lockout.py, docs/decisions.md "Lockout"): a few failures cost nothing, then each one
locks for a little longer, and failures are forgotten at a steady pace:
- a username from one address: 5 failures, then a lock of 30 s, 30 s longer with each
  failure; one forgotten every 3 minutes (``USER_ADDRESS``);
- a username from all addresses together: 30 failures, then 3 s, 3 s longer each time; one
  forgotten every 72 s (``USER``: 50 guesses an hour once the 30 are spent), except from an
  address the account logged in from in the last 90 days (``KnownAddress``): the owner's home
  or club, in a new browser, is not locked out by guesses from elsewhere;
- an address, whatever the usernames: 20 failures, then 4 s, 4 s longer each time; one
  forgotten every 90 s (``ADDRESS``: a club's wifi where someone mistyped is locked for
  seconds, not minutes).

A browser where the owner logged in before holds a signed device cookie naming the account by
its id (never by its typed name: a header is Latin-1, and a name is not the account). It is
counted on its own (5 failures, then 30 s, 30 s longer each time, for that cookie alone) and
never by the counters above: whoever hammers the account from elsewhere cannot lock its
owner out. The right password forgets the failures of that username from that address (or of
that device cookie), and gives back the one it counted to the address and the username:
logging into one's own account must not clear a guesser's failures."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from games import lockout
from games.lockout import Counter, Lock
from games.models import KnownAddress
from games.throttle import Limit, minutes
from games.usernames import account_named, counter_key, username_key

__all__ = ["username_key"]  # the counters' key, also games.usernames'

USER_ADDRESS = Lock("login-user-address", free=5, step=30, forget=180)
USER = Lock("login-user", free=30, step=3, forget=72)
ADDRESS = Lock("login-address", free=20, step=4, forget=90)
DEVICE = Lock("login-device", free=5, step=30, forget=180)
# Accounts created from one address: 5, then one more every 12 minutes (10 an hour at most).
# The old password of the password-change form is a password check too: a
# stolen session must not become a way to guess it. Per account.
OLD_PASSWORD = Limit("password-change-user", capacity=5, seconds=15 * 60)
SIGNUP = Limit("signup-address", capacity=5, seconds=60 * 60)

DEVICE_COOKIE = "rami_appareil"
# The cookies that named a username (before it named the account's id) are not read: a new
# salt, so the old values cannot be taken for ids.
DEVICE_SALT = "ramiscore.login.device.account"
DEVICE_AGE = timedelta(days=365)
KNOWN_ADDRESS_AGE = timedelta(days=90)


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


def address_key(account: AbstractBaseUser, ip: str) -> str:
    # Keyed by the secret: the table cannot be read back into addresses by trying them all.
    return salted_hmac("ramiscore.login.known-address", f"{account.pk}\0{ip}").hexdigest()


def known_address(account: AbstractBaseUser | None, ip: str) -> bool:
    """Whether ``account`` logged in from ``ip`` in the last ``KNOWN_ADDRESS_AGE``."""
    if account is None:
        return False
    since = lockout.clock() - KNOWN_ADDRESS_AGE.total_seconds()
    return KnownAddress.objects.filter(key=address_key(account, ip), seen__gte=since).exists()


def remember_address(account: AbstractBaseUser, ip: str) -> None:
    """After a successful login: this address is the account's for 90 days (and the
    addresses not seen for as long are forgotten)."""
    now = lockout.clock()
    KnownAddress.objects.update_or_create(key=address_key(account, ip), defaults={"seen": now})
    KnownAddress.objects.filter(seen__lt=now - KNOWN_ADDRESS_AGE.total_seconds()).delete()


@dataclass
class Checks:
    """The counters a password check counts on; a right password forgets the failures of
    ``forgiven`` (it proves who is there) and gives back to the others the one it counted (an
    address shared with a guesser: logging into one's own account must not clear the
    guesses)."""

    counted: tuple[Counter, ...]
    forgiven: tuple[Counter, ...]
    address: str = ""  # remembered for the account when the password is right


def login_checks(request: HttpRequest, username: str) -> Checks:
    account = account_named(username)
    key = counter_key(username, account)
    device = known_device(request, account)
    if device:
        mine = DEVICE.counter(device)
        return Checks((mine,), (mine,))
    ip = client_ip(request)
    pair, address = USER_ADDRESS.counter(f"{key}\0{ip}"), ADDRESS.counter(ip)
    if known_address(account, ip):
        # Where the owner logs in: the guesses from everywhere else do not lock it.
        return Checks((pair, address), (pair,), ip)
    return Checks((pair, address, USER.counter(key)), (pair,), ip)


def too_many_message(wait: float) -> str:
    if wait < 60:
        # A proportional lock is often a matter of seconds: say so, not "1 minute".
        n = max(1, math.ceil(wait))
        return ngettext(
            "Trop d'essais : réessayez dans %(n)s seconde.",
            "Trop d'essais : réessayez dans %(n)s secondes.",
            n,
        ) % {"n": n}
    n = minutes(wait)
    return ngettext(
        "Trop d'essais : réessayez dans %(n)s minute.",
        "Trop d'essais : réessayez dans %(n)s minutes.",
        n,
    ) % {"n": n}

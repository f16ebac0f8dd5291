"""Login with a limit on failures (issue #7): after LIMIT failed attempts for one username,
or from one address, within WINDOW seconds, the form refuses to check the password at all.

The counters live in Django's cache, the database's by default (settings.CACHES): every
gunicorn worker sees the same counts."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

LIMIT = 5
WINDOW = 15 * 60  # seconds
TROP_D_ESSAIS = _("Trop d'essais : réessayez dans 15 minutes.")


def _keys(ip: str, username: str) -> list[str]:
    # Hashed: a username may hold characters a cache backend refuses in keys.
    user = hashlib.sha256(username.strip().lower().encode()).hexdigest()
    return [f"login-fail:user:{user}", f"login-fail:ip:{ip}"]


def client_ip(request: HttpRequest) -> str:
    """The visitor's address. Behind N trusted proxies (DJANGO_TRUSTED_PROXIES=N), the N-th
    address from the right of X-Forwarded-For is the one the first proxy saw; anything to its
    left was written by the client and cannot be trusted. Without it, every visitor behind a
    proxy would share the proxy's address and lock the login for all."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [a for a in forwarded if a]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


class LoginForm(AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "too_many": TROP_D_ESSAIS}

    def clean(self):
        ip = client_ip(self.request) if self.request else ""
        keys = _keys(ip, self.data.get("username", ""))
        if any(cache.get(key, 0) >= LIMIT for key in keys):
            raise ValidationError(self.error_messages["too_many"], code="too_many")
        try:
            cleaned = super().clean()
        except ValidationError:
            for key in keys:
                # add() starts the window at the first failure; incr() keeps its expiry.
                cache.add(key, 0, WINDOW)
                cache.incr(key)
            raise
        cache.delete(keys[0])  # the right password clears that username's count
        return cleaned

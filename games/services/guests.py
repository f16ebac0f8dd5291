"""Play first, sign up later: a guest account for a browser without one (docs/decisions.md
"Guest accounts").

A guest is an ordinary account (every page, limit and access check treats it as one) with a
random username under GUEST_PREFIX and no usable password: nobody can log into it, only the
browser holding its session cookie is it. Claiming it ("Garder mes parties") gives it a chosen
username and a password, through the sign-up form; it keeps its row, so every partie, habitué
and share link stays. An unclaimed guest is removed GUEST_KEEP after it was made."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.forms import ModelForm

from games.models import Partie
from games.services.parties import partie_create

GUEST_PREFIX = "invite-"
# How long an unclaimed guest's parties are kept: an evening, the next ones of a holiday, and
# time to decide to keep them. Its session cookie lasts as long (guest_login).
GUEST_KEEP = timedelta(days=30)


def is_guest(user: Any) -> bool:
    """No query: the reserved prefix and no usable password. The sign-up form always sets a
    password, so an account made there is never taken for a guest, whatever its name."""
    return bool(
        getattr(user, "is_authenticated", False)
        and user.username.startswith(GUEST_PREFIX)
        and not user.has_usable_password()
    )


def guest_expires(user: AbstractBaseUser) -> datetime:
    return user.date_joined + GUEST_KEEP


@transaction.atomic
def guest_partie_create(*, name: str, preset: str, joueurs: list[str], **options: Any) -> Partie:
    """A new guest and its first partie, both or neither: a partie the engine refuses leaves
    no account behind."""
    guest = get_user_model()(username=GUEST_PREFIX + secrets.token_hex(11))
    guest.set_unusable_password()
    guest.save()
    return partie_create(owner=guest, name=name, preset=preset, joueurs=joueurs, **options)


@transaction.atomic
def guest_claim(*, guest: AbstractBaseUser, form: ModelForm) -> AbstractBaseUser | None:
    """The guest becomes the account the sign-up ``form`` describes (bound with
    ``instance=guest`` and valid): same row, so it keeps everything it made. None when it is
    no longer a guest (claimed by another tab a moment before): nothing is changed."""
    # The stored row, locked: the form already wrote the new username on its instance, and
    # two claims sent at once must not both pass.
    stored = get_user_model().objects.select_for_update().get(pk=guest.pk)
    if not is_guest(stored) or form.instance.pk != guest.pk:
        return None
    return form.save()


@transaction.atomic
def guests_remove_expired(*, now: datetime) -> int:
    """Remove the guests made more than GUEST_KEEP before ``now``, with all they made (their
    parties, players, habitués: on_delete CASCADE). Returns how many accounts went."""
    users = get_user_model().objects.filter(
        username__startswith=GUEST_PREFIX, date_joined__lt=now - GUEST_KEEP
    )
    # The prefix alone is anyone's to choose at sign-up: only accounts without a usable
    # password are guests (a usable one is never "!…", Django's unusable marker).
    expired = [u.pk for u in users.filter(password__startswith="!") if is_guest(u)]
    get_user_model().objects.filter(pk__in=expired).delete()
    return len(expired)

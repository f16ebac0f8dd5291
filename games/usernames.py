"""One account per username key (the login counters' own key): the key of a username is the
name as Django logs it in (NFKC, which ``UsernameField`` applies), then case-folded, so that
``vaneßa`` and ``vanessa``, ``STRAẞE`` and ``Straße``, ``élodie`` and ``Élodie`` are one key.

The key of every account is stored in ``UsernameKey`` (a unique column): a sign-up, or any
save that changes a username (a rename, a guest account claimed), whose key is taken is
refused. The forms ask ``username_problem`` for a French message next to the field; the
unique column stops the two requests that pass it at the same instant.

Accounts that already shared a key when the column came (migration
``0012_username_keys``) keep their name and their password: the oldest keeps the key, the
others get it followed by `` #<id>`` (``flagged_key``), which no sign-up can produce (a
username holds no space), and are listed by ``UsernameKey.objects.filter(flagged=True)``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def username_key(username: str) -> str:
    """The username as Django logs it in, then case-folded: one key for every spelling."""
    return AbstractBaseUser.normalize_username(username).casefold()


def flagged_key(key: str, pk: int) -> str:
    """The key given to an account that shared ``key`` with an older one before keys were
    unique (see the module's docstring)."""
    return f"{key} #{pk}"


def username_taken(key: str, user: AbstractBaseUser | None = None) -> bool:
    """Whether an account other than ``user`` holds ``key``."""
    from games.models import UsernameKey

    taken = UsernameKey.objects.filter(key=key)
    if user is not None and user.pk is not None:
        taken = taken.exclude(user_id=user.pk)
    return taken.exists()


def username_problem(username: str, user: AbstractBaseUser | None = None) -> ValidationError | None:
    """What stops ``user`` (None: a new account) from being called ``username``: another
    account whose name is the same once normalised and case-folded. The sign-up form, and
    any form that names an account, shows it next to the username field."""
    if username_taken(username_key(username), user):
        return ValidationError(
            _(
                "Ce nom d'utilisateur est déjà pris (à une majuscule, un accent ou une "
                "variante de lettre près) : choisissez-en un autre."
            ),
            code="username_taken",
        )
    return None


def account_named(username: str) -> AbstractBaseUser | None:
    """The account Django's login would check ``username`` against (``ModelBackend``: the
    normalised name, matched exactly), with its stored key."""
    model = get_user_model()
    name = AbstractBaseUser.normalize_username(username)
    return (
        model._default_manager.filter(**{model.USERNAME_FIELD: name})
        .select_related("username_key")
        .first()
    )


def counter_key(username: str, account: AbstractBaseUser | None) -> str:
    """The key the login counters count ``username`` under: the stored key of the account it
    names (a flagged account has its own, so it can never refill the counters of the account
    it collides with), else the typed name's key (every spelling that names no account
    counts against the account that has that key)."""
    stored = getattr(account, "username_key", None) if account is not None else None
    return stored.key if stored is not None else username_key(username)


def keep_username_key(sender, instance, created, raw, update_fields, **kwargs) -> None:
    """post_save of the user model: the stored key follows the username. A key taken by
    another account raises IntegrityError (the unique column); the services that create or
    rename an account check ``username_problem`` first, inside their transaction."""
    from games.models import UsernameKey

    if raw or (update_fields is not None and "username" not in update_fields):
        return
    key = username_key(instance.get_username())
    row = UsernameKey.objects.filter(user=instance).first()
    if row is None:
        UsernameKey.objects.create(user=instance, key=key)
    elif row.key != key and not (row.flagged and row.key.startswith(flagged_key(key, ""))):
        # A rename: the new name's key, and a flagged account that took a free name is flagged
        # no more.
        row.key, row.flagged = key, False
        row.save(update_fields=["key", "flagged"])

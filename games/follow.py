"""The share link's poll answered from the shared cache. A follower's phone asks every few
seconds whether the marque changed; an unchanged answer must cost about what /sante/ costs:
no session, no user, no query of the parties.

The cache holds, per share token, a random *state*: the follow ETag is made of it. Every save
of the partie gives it a new state (so every ETag a follower holds stops matching), and
revoking or replacing a link marks the old token revoked (games/services/sharing.py). A poll
reads the state *before* it reads the partie: a write that commits after that read moves the
state, so a page rendered from older rows is never tagged with a newer state. A poll that
finds no state checks the token in the database first, then adds one (``add`` never
overwrites what a write set meanwhile)."""

from __future__ import annotations

import hashlib
import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.crypto import salted_hmac
from django.utils.http import quote_etag

from games import follow_marks
from games.models import Partie
from games.selectors import partie_shared

# How long a state is kept; a poll after that checks the token again and refetches once.
TIMEOUT = 3600
REVOKED = "-"


def _key(token: str) -> str:
    # The token itself never reaches the cache's keys (a dump would give out every link).
    return "follow:" + hashlib.sha256(token.encode()).hexdigest()[:40]


def _new_state() -> str:
    return secrets.token_hex(8)


def cached_state(token: str) -> str | None:
    """The state the cache holds for a followed token: None when it holds none (the token
    was never polled, the cache is away) or the token is revoked. Never the database."""
    state = cache.get(_key(token))
    return None if state == REVOKED else state


def follow_etag(state: str, *, live: bool, everything: bool = False) -> str:
    """The ETag of one representation of a state: the htmx fragment (``live``), the full page
    and the page with every donne (``everything``) differ. Opaque, as the sheet's: the state
    stays on the server."""
    flags = (".live" if live else "") + (".tout" if everything else "")
    return salted_hmac("ramiscore.follow.etag", state + flags).hexdigest()[:32]


def mark_names(state: str) -> list[str]:
    """The live ETags of a state, as a follower's If-None-Match sends them: the fragment's and
    the fragment with every donne's (the proxy answers only htmx polls)."""
    return [quote_etag(follow_etag(state, live=True, everything=e)) for e in (False, True)]


def mark(token: str, state: str) -> None:
    """Let the proxy answer the next unchanged polls of ``state`` (games/follow_marks.py), unless
    a write has moved the state since the poll read it. Called by every poll the app answers."""
    follow_marks.publish(token, mark_names(state), current=lambda: cached_state(token) == state)


def follow_state(token: str) -> str | None:
    """The state of a shared partie's marque, None for a token that opens nothing. Costs one
    cache read while the link is followed; the database only when the cache has nothing."""
    key = _key(token)
    state = cache.get(key)
    if state is None:
        partie = partie_shared(token)
        if partie is None:
            return None
        cache.add(key, _new_state(), TIMEOUT)
        # Nothing there even now: the cache is away (ramiscore/cache.py). The database's own
        # stamp then, so that an unchanged poll still gets its 304, for one query.
        state = cache.get(key) or _database_state(partie)
    return None if state == REVOKED else state


def _database_state(partie: Partie) -> str:
    # Every service write saves updated_at; the donne count also catches one that forgot to.
    stamp = int(partie.updated_at.timestamp() * 1_000_000)
    return f"db.{partie.pk}.{stamp}.{partie.n_donnes}"


def changed(token: str | None) -> None:
    """A new state now, so that a poll reading the partie during the write never keeps the old
    ETag, and again once the transaction commits, so that a poll which rendered the rows
    before the commit is not tagged with the last state."""
    if token:
        _move(token, _new_state())
        transaction.on_commit(lambda: _move(token, _new_state()))


def revoke(token: str | None) -> None:
    """The token stops answering: its state is dropped now (the next poll checks the token in
    the database) and marked revoked once the transaction commits, so that a poll that read
    the token before the commit cannot keep it alive. Rolled back, the link still works."""
    if token:
        _move(token, None)
        transaction.on_commit(lambda: _move(token, REVOKED))


def _move(token: str, state: str | None) -> None:
    # The state first, then the proxy's marks (games/follow_marks.py): a poll that publishes
    # after this checks the state and finds it moved.
    if state is None:
        cache.delete(_key(token))
    else:
        cache.set(_key(token), state, TIMEOUT)
    follow_marks.withdraw(token, forget=state in (None, REVOKED))


@receiver(post_save, sender=Partie, dispatch_uid="follow-changed")
def _changed(sender, instance: Partie, **kwargs) -> None:
    changed(instance.share_token)


@receiver(post_delete, sender=Partie, dispatch_uid="follow-deleted")
def _deleted(sender, instance: Partie, **kwargs) -> None:
    revoke(instance.share_token)

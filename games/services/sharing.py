"""The share link of a partie: the read-only live view /suivre/<token>/."""

from __future__ import annotations

import secrets

from django.db import transaction

from games import follow
from games.models import Partie


@transaction.atomic
def partie_share(*, partie: Partie) -> Partie:
    """Give the partie a new share link. Sharing again replaces the token, so a link that
    went too far stops working."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    follow.revoke(locked.share_token)  # the old link stops answering, cached or not
    locked.share_token = secrets.token_urlsafe(24)  # 192 bits: not guessable
    locked.save(update_fields=["share_token", "updated_at"])
    return locked


@transaction.atomic
def partie_unshare(*, partie: Partie) -> Partie:
    """Revoke the share link: /suivre/<token>/ answers 404 from now on."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    follow.revoke(locked.share_token)
    locked.share_token = None
    locked.save(update_fields=["share_token", "updated_at"])
    return locked

"""Whether the visitor is a guest (games/services/guests.py), and until when its parties are
kept: for the nav, the menu and the home page."""

from __future__ import annotations

from datetime import datetime

from django import template

from games.services.guests import GUEST_KEEP, guest_expires, is_guest

register = template.Library()

register.filter("is_guest", is_guest)


@register.filter
def guest_until(user) -> datetime | None:
    return guest_expires(user) if is_guest(user) else None


@register.simple_tag
def guest_days() -> int:
    return GUEST_KEEP.days

"""One place in the shared cache for each thing kept rendered (a partie's page, its chart, its
PDF in one language …), not one per state of the partie: what a new state draws takes the
place of what the last state drew. A table's evening would otherwise leave some sixty pages
of 40 KB each, and as many PDFs, in the cache for the week they are kept: memory Redis is
never given back, and rows the database cache culls by the hundred once it holds its most
(``MAX_ENTRIES``), the live pages of other tables with them.

What a place holds is stamped with everything it was drawn from, the partie's state among
them; a read for another stamp finds nothing, so a part kept for another state is never
served, whichever of two workers wrote last."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.core.cache import cache


class Place(NamedTuple):
    key: str  # the thing, and how it was asked for (the language, the address …)
    stamp: str  # what it was drawn from: the state


def read(place: Place) -> Any:
    """What ``place`` holds for its stamp; None when it holds nothing, or another stamp's."""
    held = cache.get(place.key)
    if isinstance(held, tuple) and len(held) == 2 and held[0] == place.stamp:
        return held[1]
    return None


def keep(place: Place, value: Any, timeout: int) -> None:
    cache.set(place.key, (place.stamp, value), timeout)


def holds(place: Place) -> bool:
    return read(place) is not None

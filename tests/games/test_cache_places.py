"""One place in the shared cache per thing kept, stamped with the state it was drawn from
(games/cache_places.py): a read for another stamp finds nothing, and a new stamp's value
takes the old one's place."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games import cache_places
from games.cache_places import Place

pytestmark = pytest.mark.django_db  # the database's cache, or Redis (make test-redis)
PAGE = "fragment:page:1:test"


def test_a_place_gives_what_it_holds_only_for_its_stamp() -> None:
    first, second = Place(PAGE, "revision-1"), Place(PAGE, "revision-2")
    assert cache_places.read(first) is None and not cache_places.holds(first)
    cache_places.keep(first, {"body": "<p>1</p>"}, 60)
    assert cache_places.read(first) == {"body": "<p>1</p>"}
    assert cache_places.read(second) is None  # kept for another state: not served
    cache_places.keep(second, {"body": "<p>2</p>"}, 60)
    assert cache_places.read(second) == {"body": "<p>2</p>"} and cache_places.holds(second)
    assert cache_places.read(first) is None  # its place taken: one entry, not two


def test_a_value_kept_before_places_is_not_read_as_one() -> None:
    cache.set(PAGE, {"body": "<p>old</p>"}, 60)  # an entry of the release before
    assert cache_places.read(Place(PAGE, "body")) is None

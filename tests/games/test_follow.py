"""The share poll's state in the shared cache (games/follow.py): an unchanged poll reads the
cache and nothing else; a write, a revocation or a replaced link is seen at the next poll.
Cast: alice owns the partie; the follower holds its share link."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import follow, services
from games.models import Partie
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def partie(alice) -> Partie:
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand(points=7))
    return services.partie_share(partie=partie)


def url(partie: Partie) -> str:
    return reverse("partie_follow", args=[partie.share_token])


def test_an_unchanged_poll_reads_only_the_cache_even_from_a_logged_in_phone(partie, alice) -> None:
    client = Client()
    client.force_login(alice)  # the owner following their own link: the session is not read
    etag = client.get(url(partie), **HTMX)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 304
    tables = [q["sql"] for q in queries.captured_queries]
    assert len(tables) == 1 and '"ramiscore_cache"' in tables[0]


def test_a_donne_recorded_changes_the_etag_and_the_poll_shows_it(partie) -> None:
    client = Client()
    etag = client.get(url(partie), **HTMX)["ETag"]
    play(partie, "Bruno", "rami", Anne=hand("Q"), Chloé=hand(points=4))
    response = client.get(url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert client.get(url(partie), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX).status_code == 304


def test_the_state_read_before_a_write_never_matches_after_it(partie) -> None:
    before = follow.follow_state(partie.share_token)
    play(partie, "Bruno", "rami", Anne=hand("Q"), Chloé=hand(points=4))
    after = follow.follow_state(partie.share_token)
    assert before and after and before != after


def test_a_revoked_link_is_refused_at_the_next_poll_with_its_cached_etag(partie, alice) -> None:
    client = Client()
    etag = client.get(url(partie), **HTMX)["ETag"]
    token = partie.share_token
    services.partie_unshare(partie=partie)
    response = client.get(f"/suivre/{token}/", HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert response.status_code == 404
    assert response["HX-Refresh"] == "true"


def test_a_replaced_link_stops_and_the_new_one_answers(partie) -> None:
    client = Client()
    old = partie.share_token
    etag = client.get(f"/suivre/{old}/")["ETag"]
    new = services.partie_share(partie=partie).share_token
    assert client.get(f"/suivre/{old}/", HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert client.get(f"/suivre/{new}/").status_code == 200


def test_a_committed_revocation_marks_the_token_revoked(partie, django_capture_on_commit_callbacks):
    token = partie.share_token
    follow.follow_state(token)
    with django_capture_on_commit_callbacks(execute=True):
        services.partie_unshare(partie=partie)
    assert cache.get(follow._key(token)) == follow.REVOKED
    assert follow.follow_state(token) is None


def test_a_rolled_back_revocation_leaves_the_link_working(partie) -> None:
    token = partie.share_token
    with pytest.raises(RuntimeError), transaction.atomic():
        services.partie_unshare(partie=partie)
        raise RuntimeError("the write failed after the revocation")
    assert Client().get(f"/suivre/{token}/").status_code == 200


def test_a_made_up_token_is_refused_and_leaves_nothing_in_the_cache() -> None:
    assert Client().get("/suivre/pas-un-vrai-jeton/").status_code == 404
    assert cache.get(follow._key("pas-un-vrai-jeton")) is None


def test_with_the_cache_away_an_unchanged_poll_still_gets_its_304(partie, settings) -> None:
    # Redis at an address where nothing listens: every cache call fails (ramiscore/cache.py).
    settings.CACHES = {
        "default": {
            "BACKEND": "ramiscore.cache.FailSafeRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    client = Client()
    etag = client.get(url(partie), **HTMX)["ETag"]
    assert client.get(url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    play(partie, "Bruno", "rami", Anne=hand("Q"), Chloé=hand(points=4))
    assert client.get(url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200

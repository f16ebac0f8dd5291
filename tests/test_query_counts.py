"""Issue #8: the queries of a request do not grow with the number of donnes. Exact counts on a
5- and a 60-donne partie (a crossing bought back included); the timings are the benchmark's
job (``make bench``), never a test's. Cast: alice owns the partie; the follower holds its
share link."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Partie
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
NAMES = ["Anne", "Bruno", "Chloé"]

# session, user, the partie with its stored result, then its players, its latest 30 stored
# states, who dealt the last donne (the next donne's dealer, docs/rules.md "Le donneur") and
# the page's parts kept rendered for this state (games/views/fragments.py: a query with the
# database cache, none with Redis): no other donne, no hand, no replay.
PAGE_QUERIES = 7
# The first view of a state draws the parts: its rachats bought back (their payment ticks),
# and the parts kept (the database cache counts its rows, then looks the key up and inserts it
# within a savepoint: five queries, none with Redis).
FIRST_VIEW_QUERIES = PAGE_QUERIES + 6
# The unchanged poll: the share token's state in the cache (games/follow.py), which is a query
# with the database cache (none with Redis); no partie, no session, no user.
POLL_QUERIES = 1


def partie_with(donnes: int) -> Partie:
    partie = make_partie(make_user("alice"), joueurs=NAMES)
    for number in range(1, donnes + 1):
        winner = NAMES[number % 3]
        losers = {name: hand("2") for name in NAMES if name != winner}
        if number == 3:
            losers["Chloé" if winner != "Chloé" else "Anne"] = hand(points=120)
        play(partie, winner, "rami", **losers)
        if number == 3:
            decide(partie, "Chloé" if winner != "Chloé" else "Anne", True)
    return services.partie_share(partie=partie)


@pytest.mark.parametrize("donnes", [5, 60])
def test_the_partie_page_costs_the_same_queries_at_5_and_60_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    client = Client()
    client.login(username="alice", password="cartes-sur-table")
    url = reverse("partie_detail", args=[partie.pk])
    with django_assert_num_queries(FIRST_VIEW_QUERIES):
        first = client.get(url)
    with django_assert_num_queries(PAGE_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    assert f"{donnes} donnes" in response.content.decode()
    assert first.content.decode().count("donne-link") == response.content.decode().count(
        "donne-link"
    )


@pytest.mark.parametrize("donnes", [5, 60])
def test_the_htmx_fragment_costs_the_same_queries_at_5_and_60_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    client = Client()
    client.login(username="alice", password="cartes-sur-table")
    url = reverse("partie_detail", args=[partie.pk])
    client.get(url, HTTP_HX_REQUEST="true")  # the first view of this state keeps its parts
    with django_assert_num_queries(PAGE_QUERIES):
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert not response.content.startswith(b"<!doctype")


@pytest.mark.parametrize("donnes", [5, 60])
def test_the_unchanged_share_poll_is_one_query_at_5_and_60_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    url = reverse("partie_follow", args=[partie.share_token])
    client = Client()
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    with django_assert_num_queries(POLL_QUERIES):
        response = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304

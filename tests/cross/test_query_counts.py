"""The queries of a request do not grow with the number of donnes. Exact counts on a
5- and a 60-donne partie (a crossing bought back included); the timings are the benchmark's
job (``make bench``), never a test's. Cast: alice owns the partie; the follower holds its
share link."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from games import replays, selectors, services
from games.models import Hand, Partie, Rachat
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
NAMES = ["Anne", "Bruno", "Chloé"]

# session, user, the partie with its stored result and its players (one query), and the page
# kept rendered for this state (games/views/fragments.py: a query with the database cache,
# none with Redis): no state, no donne, no hand, no replay.
PAGE_QUERIES = 4
# A page drawn and kept: the database cache counts its rows, then looks the key up and inserts
# it within a savepoint (five queries, none with Redis).
KEEP_QUERIES = 5
# What a donne leaves as it was (the page's foot: its links, share panel and note) is looked
# up under what it is drawn from (games/templatetags/kept.py ``by``): a query with the database
# cache, none with Redis. The first time, it is drawn and kept there (KEEP_QUERIES).
STEADY_QUERIES = 1
# The first view of a state reads the partie whole and draws the page: its players again and
# its latest 30 stored states, who dealt the last donne (the next donne's dealer, docs/rules.md
# "Le donneur"), its rachats bought back (their payment ticks), and the page kept; the first
# view of the partie draws and keeps its foot too.
FIRST_VIEW_QUERIES = PAGE_QUERIES + 4 + KEEP_QUERIES + STEADY_QUERIES + KEEP_QUERIES
# The unchanged poll: the share token's state in the cache (games/follow.py), which is a query
# with the database cache (none with Redis); no partie, no session, no user.
POLL_QUERIES = 1


def alices_phone() -> Client:
    """alice's phone, logged in as on the table: the session and the user are read by each
    request, as they are here."""
    client = Client()
    client.login(username="alice", password="cartes-sur-table")
    return client


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
    client = alices_phone()
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
    client = alices_phone()
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


# Recording a donne, from the page (htmx) or from the offline queue: session, user, the
# partie with its result and players (one query), its latest states; the
# claim of the row (the revision read still the partie's), the donne, its hands, its stored
# state, the summary tagged with the revision left; the two savepoints of the service's
# transaction inside the test's. The page then renders from the state the write returned,
# and keeps what it drew for the page of that state (KEEP_QUERIES), its foot found as the
# page left it (STEADY_QUERIES; the queue's JSON draws nothing). A partie with a share link
# adds the followers' cache key (games/follow.py): statements of the database cache here,
# none with Redis; the partie below has no link.
RECORD_QUERIES = 11
# A donne posted without its dealer (the offline queue's, behind another one waiting) adds who
# dealt the latest donne, for the rotation's next one; behind another one, the same query
# reads that donne's key, which the queued one names (``after_key``).
DEALT_IN_TURN = 1


def posted_donne(partie: Partie, winner: str, dealer: str = "Bruno") -> dict[str, str]:
    """What the donne form posts, as the page had it."""
    partie.refresh_from_db()
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "revision": str(partie.revision),
        "players": " ".join(str(pk[name]) for name in NAMES),
        "winner": str(pk[winner]),
        "win": "rami",
        "dealer": str(pk[dealer]) if dealer else "",
    }
    data.update({f"points_{pk[name]}": "2" for name in NAMES if name != winner})
    return data


@pytest.mark.parametrize("donnes", [5, 300])
@pytest.mark.parametrize("queue", [False, True])
@pytest.mark.parametrize("dealer", ["Bruno", ""])
def test_recording_a_donne_costs_the_same_queries_at_5_and_300_donnes(
    donnes: int, queue: bool, dealer: str, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    services.partie_unshare(partie=partie)
    client = alices_phone()
    client.get(reverse("partie_detail", args=[partie.pk]))  # the page the donne is typed on
    data = posted_donne(partie, "Anne", dealer)
    headers = {"HTTP_X_RAMISCORE_QUEUE": "1"} if queue else {"HTTP_HX_REQUEST": "true"}
    drawn = 0 if queue else KEEP_QUERIES + STEADY_QUERIES
    with django_assert_num_queries(RECORD_QUERIES + drawn + (0 if dealer else DEALT_IN_TURN)):
        response = client.post(reverse("donne_create", args=[partie.pk]), data, **headers)
    assert response.status_code == 200
    assert partie.donnes.count() == donnes + 1
    if queue:
        partie.refresh_from_db()
        assert response.json() == {"ok": True, "number": donnes + 1, "etat": str(partie.revision)}
    else:
        assert f"{donnes + 1} donnes" in response.content.decode()


@pytest.mark.parametrize("donnes", [5, 300])
def test_a_queued_donne_behind_another_reads_the_latest_donne_once(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    services.partie_unshare(partie=partie)
    client = alices_phone()
    url = reverse("donne_create", args=[partie.pk])
    headers = {"HTTP_X_RAMISCORE_QUEUE": "1"}
    # Two donnes typed offline: the queue sends the first, then the second behind it.
    first = posted_donne(partie, "Bruno", dealer="")
    second = {**posted_donne(partie, "Anne", dealer=""), "after_key": first["idempotency_key"]}
    assert client.post(url, first, **headers).json()["number"] == donnes + 1
    latest = partie.donnes.get(number=donnes + 1)
    with django_assert_num_queries(RECORD_QUERIES + DEALT_IN_TURN):
        response = client.post(url, second, **headers)
    assert response.json()["number"] == donnes + 2
    recorded = partie.donnes.get(number=donnes + 2)
    # The rotation: the seat after the latest dealer's, among the four at the table.
    seats = list(partie.joueurs.order_by("seat").values_list("pk", flat=True))
    assert recorded.dealer_id == seats[(seats.index(latest.dealer_id) + 1) % len(seats)]


# A rachat decision (htmx), an edit and a delete of the latest donne: the same read as a
# recording (the partie, its players, its latest states), the claim, the hands with their
# donne where the replay needs them, the decisions with the cagnotte's ticks where there
# can be some, the rows written, the states replaced in place and the summary tagged; the
# decision's answer (htmx) keeps the page it draws, its foot found as the page left it.
DECIDE_QUERIES = 12 + KEEP_QUERIES + STEADY_QUERIES
EDIT_QUERIES = 11
DELETE_QUERIES = 11


def crossed(donnes: int) -> tuple[Partie, int]:
    """A partie of ``donnes`` donnes, then one where Chloé crosses the seuil (a decision to
    take), priced so that the cagnotte lists it; with no share link (see RECORD_QUERIES)."""
    partie = partie_with(donnes)
    services.partie_unshare(partie=partie)
    services.partie_update_money(
        partie=partie,
        mise_initiale=partie.mise_initiale,
        rachat_price=Decimal("2"),
        point_value=partie.point_value,
        settlement=partie.settlement,
    )
    chloe = partie.joueurs.get(name="Chloé")
    total = selectors.states_of(partie, last=1)[0].totals["Chloé"]
    play(partie, "Anne", "rami", Bruno=hand("2"), Chloé=hand(points=max(100 - total, 1) + 50))
    return partie, chloe.pk


@pytest.mark.parametrize("donnes", [5, 300])
def test_a_rachat_decision_costs_the_same_queries_at_5_and_300_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie, chloe = crossed(donnes)
    client = alices_phone()
    client.get(reverse("partie_detail", args=[partie.pk]))  # the page the card is on
    url = reverse("rachat_decide", args=[partie.pk, chloe])
    with django_assert_num_queries(DECIDE_QUERIES):
        response = client.post(url, {"decision": "racheter"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    last = Rachat.objects.filter(donne__partie=partie, joueur_id=chloe).latest("pk")
    assert (last.donne.number, last.accepted) == (donnes + 1, True)
    assert "Chloé se rachète (2e rachat, 2,00\u00a0€)" in response.content.decode()


@pytest.mark.parametrize("donnes", [5, 300])
def test_an_edit_costs_the_same_queries_at_5_and_300_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    services.partie_unshare(partie=partie)
    client = alices_phone()
    winner = NAMES[donnes % 3]
    data = posted_donne(partie, winner, dealer="")
    url = reverse("donne_edit", args=[partie.pk, donnes])
    with django_assert_num_queries(EDIT_QUERIES):
        response = client.post(url, data)
    assert response.status_code == 302
    points = Hand.objects.filter(donne__partie=partie, donne__number=donnes)
    assert sorted(points.values_list("points", flat=True)) == [2, 2]


@pytest.mark.parametrize("donnes", [5, 300])
def test_a_delete_costs_the_same_queries_at_5_and_300_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie = partie_with(donnes)
    services.partie_unshare(partie=partie)
    client = alices_phone()
    partie.refresh_from_db()
    url = reverse("donne_delete", args=[partie.pk, donnes])
    with django_assert_num_queries(DELETE_QUERIES):
        response = client.post(url, {"revision": str(partie.revision)})
    assert response.status_code == 302
    assert partie.donnes.count() == donnes - 1
    assert replays.agrees(partie)


# Changing a decision already given (the undo at hand, a change of mind): the same read as a
# decision, the claim, the hands with their donne and the decisions from that donne with the
# cagnotte's ticks, the rachat updated, the states replaced in place and the summary tagged;
# the answer is a redirect (the page is drawn by the next request).
CHANGE_QUERIES = 12


@pytest.mark.parametrize("donnes", [5, 300])
def test_changing_a_rachat_decision_costs_the_same_queries_at_5_and_300_donnes(
    donnes: int, django_assert_num_queries
) -> None:
    partie, chloe = crossed(donnes)
    services.rachat_decide(partie=partie, joueur=partie.joueurs.get(pk=chloe), accepted=True)
    client = alices_phone()
    partie.refresh_from_db()
    url = reverse("rachat_change", args=[partie.pk, donnes + 1, chloe])
    with django_assert_num_queries(CHANGE_QUERIES):
        response = client.post(url, {"decision": "abandonner", "revision": str(partie.revision)})
    assert response.status_code == 302
    changed = Rachat.objects.get(donne__partie=partie, donne__number=donnes + 1, joueur_id=chloe)
    assert changed.accepted is False
    assert replays.agrees(partie)

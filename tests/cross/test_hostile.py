"""Random and hostile input on every form and endpoint: never a 500, nothing half-saved, and
markup in a name is shown escaped (hypothesis drives the test client)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Donne, Hand, Partie, Rachat
from games.selectors import partie_load
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db

HOSTILE = [
    "",
    "-1",
    "0",
    "1e9",
    "99999999999999999999",
    "NaN",
    "∞",
    "١٢",
    " 12 ",
    "12.5",
    "<script>alert(1)</script>",
    '" onmouseover="x',
    "R D V",
    "K K K K K K K K K",
    "Z",
    "talon_epuise",
    "rami_de_la_main",
    "going_rami",
    "racheter",
    "abandonner",
    "true",
    "\x00",
    "a" * 500,
]
value = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(10**15), max_value=10**15).map(str),
    st.text(max_size=40),
)
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def owner_client(db):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand(points=95), Chloé=hand("2"))
    play(partie, "Anne", "rami", Bruno=hand("9"), Chloé=hand("3"))  # Bruno crosses: pending
    return client, partie


def field_names(partie: Partie) -> list[str]:
    names = [
        "winner",
        "win",
        "idempotency_key",
        "revision",
        "decision",
        "name",
        "preset",
        "joueurs",
        "mise_initiale",
        "rachat_price",
        "point_value",
        "settlement",
        "currency",
        "seuil",
        "seuil_inclusive",
        "max_rachats",
        "fixed_manches",
        "target",
        "paid",
        "payé",
    ]
    for j in partie.joueurs.all():
        names += [f"points_{j.pk}", f"cards_{j.pk}", f"jokers_{j.pk}"]
    return names


def snapshot(partie: Partie) -> tuple:
    return (
        Donne.objects.count(),
        Hand.objects.count(),
        Rachat.objects.count(),
        Partie.objects.count(),
    )


def assert_consistent(partie: Partie) -> None:
    """Whatever was refused or accepted, what is stored replays (nothing half-saved)."""
    for p in Partie.objects.all():
        data = partie_load(p)
        numbers = [d.number for d in data.donnes]
        assert numbers == list(range(1, len(numbers) + 1))
        assert all(d.hands.all() for d in data.donnes)
        data.replay()  # raises if a stored donne is not a valid input


def post_urls(partie: Partie) -> list[str]:
    j = partie.joueurs.first().pk
    return [
        reverse("partie_new"),
        reverse("donne_create", args=[partie.pk]),
        reverse("donne_preview", args=[partie.pk]),
        reverse("donne_edit", args=[partie.pk, 1]),
        reverse("donne_delete", args=[partie.pk, 2]),
        reverse("rachat_decide", args=[partie.pk, j]),
        reverse("partie_close", args=[partie.pk]),
        reverse("partie_reopen", args=[partie.pk]),
        reverse("partie_money", args=[partie.pk]),
        reverse("mise_paid", args=[partie.pk, j]),
    ]


@EXAMPLES
@given(data=st.data())
def test_random_posts_never_fail_and_never_half_save(owner_client, data) -> None:
    client, partie = owner_client
    url = data.draw(st.sampled_from(post_urls(partie)))
    keys = data.draw(st.lists(st.sampled_from(field_names(partie)), max_size=12, unique=True))
    payload = {key: data.draw(value) for key in keys}
    htmx = data.draw(st.booleans())
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, payload, **headers)
    assert response.status_code in (200, 302, 400, 404, 422), (url, payload)
    assert_consistent(partie)


@EXAMPLES
@given(
    winner=st.sampled_from(["Anne", "Bruno", "Chloé", "x"]),
    points=st.lists(value, min_size=3, max_size=3),
    cards=st.lists(value, min_size=3, max_size=3),
    jokers=st.lists(value, min_size=3, max_size=3),
)
def test_random_donnes_are_refused_or_recorded_whole(
    owner_client, winner, points, cards, jokers
) -> None:
    client, partie = owner_client
    ids = {j.name: j.pk for j in partie.joueurs.all()}
    payload = {"winner": str(ids.get(winner, winner)), "win": "rami"}
    for pk, p, c, k in zip(ids.values(), points, cards, jokers, strict=True):
        payload.update({f"points_{pk}": p, f"cards_{pk}": c, f"jokers_{pk}": k})
    before = snapshot(partie)
    response = client.post(reverse("donne_create", args=[partie.pk]), payload)
    assert response.status_code in (200, 302, 422)
    if response.status_code != 302:
        assert snapshot(partie) == before
    assert_consistent(partie)


@EXAMPLES
@given(names=st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=35)), max_size=8))
def test_player_names_with_markup_are_escaped(owner_client, names) -> None:
    client, _partie = owner_client
    count = Partie.objects.count()
    response = client.post(
        reverse("partie_new"),
        {
            "preset": "classique",
            "joueurs": names,
            "mise_initiale": "0",
            "rachat_price": "0",
            "point_value": "0",
            "settlement": "gagnant",
            "currency": "EUR",
        },
    )
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert Partie.objects.count() == count + 1
        page = client.get(response["Location"]).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert '" onmouseover="x' not in page
    else:
        assert Partie.objects.count() == count

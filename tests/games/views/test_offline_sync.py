"""The decisions the phone took offline, sent from its queue after the donnes they follow:
a crosser's rachat and the end by hand go through the same services as online, and a
resend records once. Cast: alice keeps the score; another phone (the services) decides
meanwhile in one test."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors
from games.models import Partie, Rachat
from tests.factories import decide, hand, make_partie, play

pytestmark = pytest.mark.django_db
FOUR = ["Anne", "Bruno", "Chloé", "David"]


@pytest.fixture
def partie(alice) -> Partie:
    partie = make_partie(alice, joueurs=FOUR)
    # David reaches 110 at donne 2: his rachat is to decide (docs/rules.md R5).
    play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=90))
    play(partie, "Chloé", "rami", Anne=hand(points=3), Bruno=hand(points=8), David=hand(points=20))
    return partie


@pytest.fixture
def phone(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def send_rachat(phone, partie, name, decision, donne) -> tuple[int, dict]:
    joueur = partie.joueurs.get(name=name)
    url = reverse("rachat_queued", args=[partie.pk, joueur.pk])
    response = phone.post(url, {"decision": decision, "donne": str(donne)})
    return response.status_code, json.loads(response.content)


def test_a_queued_rachat_is_recorded_once_however_often_it_is_sent(phone, partie):
    status, answer = send_rachat(phone, partie, "David", "racheter", 2)
    partie.refresh_from_db()
    assert (status, answer) == (200, {"ok": True, "number": 2, "etat": str(partie.revision)})
    # Sent again (its answer lost on the way back): the same decision, not a second one.
    assert send_rachat(phone, partie, "David", "racheter", 2)[0] == 200
    assert list(Rachat.objects.values_list("donne__number", "joueur__name", "accepted")) == [
        (2, "David", True)
    ]
    assert selectors.summary_of(partie).pending == []


def test_a_rachat_decided_otherwise_on_another_phone_is_refused_with_the_servers_words(
    phone, partie
):
    decide(partie, "David", False)
    status, answer = send_rachat(phone, partie, "David", "racheter", 2)
    assert status == 409
    assert answer["code"] == "etat_perime"
    assert answer["message"].startswith("La partie a changé ailleurs")
    assert list(Rachat.objects.values_list("accepted", flat=True)) == [False]


def test_a_rachat_for_a_crossing_that_is_not_there_is_refused(phone, partie):
    status, answer = send_rachat(phone, partie, "Bruno", "racheter", 2)
    assert (status, answer["code"]) == (409, "pas_de_decision")
    assert answer["message"] == "Bruno n'a pas de rachat à décider."
    status, answer = send_rachat(phone, partie, "David", "peut-être", 2)
    assert (status, answer["code"]) == (422, "formulaire")
    assert Rachat.objects.count() == 0


def test_the_end_queued_offline_closes_once(phone, partie):
    decide(partie, "David", True)
    url = reverse("close_queued", args=[partie.pk])
    first = phone.post(url)
    again = phone.post(url)
    partie.refresh_from_db()
    assert (first.status_code, again.status_code) == (200, 200)
    assert json.loads(again.content) == {"ok": True, "etat": str(partie.revision)}
    assert partie.ended is True


def test_the_end_waits_for_a_rachat_still_to_decide(phone, partie):
    response = phone.post(reverse("close_queued", args=[partie.pk]))
    assert response.status_code == 409
    assert json.loads(response.content)["code"] == "decision_en_attente"
    partie.refresh_from_db()
    assert partie.ended is False


def test_the_next_partie_started_offline_is_made_once_with_the_same_players(phone, partie):
    decide(partie, "David", True)
    client_id = "5f0c3a52-7d1e-4a0b-9a55-1f2e3d4c5b6a"
    url = reverse("rematch_queued", args=[partie.pk])
    first = json.loads(phone.post(url, {"client_id": client_id}).content)
    again = json.loads(phone.post(url, {"client_id": client_id}).content)
    assert first == again
    made = Partie.objects.get(pk=first["partie"])
    assert Partie.objects.count() == 2
    assert first["url"] == f"/parties/{made.pk}/"
    assert [j.name for j in made.joueurs.order_by("seat")] == FOUR
    old = {j.name: j.pk for j in partie.joueurs.all()}
    new = {j.name: j.pk for j in made.joueurs.all()}
    assert first["joueurs"] == {str(old[name]): new[name] for name in FOUR}
    # As "Rejouer" online: same preset and money, the first dealer one seat on.
    assert (made.preset, made.mise_initiale, made.rachat_price) == (
        partie.preset,
        partie.mise_initiale,
        partie.rachat_price,
    )
    assert made.first_dealer == 2
    assert made.name.startswith("Partie du ")


def test_a_rematch_without_an_id_is_refused(phone, partie):
    response = phone.post(reverse("rematch_queued", args=[partie.pk]), {"client_id": "x"})
    assert response.status_code == 422
    assert Partie.objects.count() == 1

"""The server's side of recording offline: a donne sent from the phone's queue is
recorded by the same form and service as any other, answered in JSON; one typed behind
another waiting one follows it or is shown back. Cast: alice keeps the score."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Donne, Partie
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
QUEUE = {"HTTP_X_RAMISCORE_QUEUE": "1"}
FOUR = ["Anne", "Bruno", "Chloé", "David"]


@pytest.fixture
def partie(alice) -> Partie:
    return make_partie(alice, joueurs=FOUR)


@pytest.fixture
def phone(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def queued(partie: Partie, winner: str, *, revision=None, after=None, players=FOUR, **points):
    """What the queue posts: the form's fields, as the page had them."""
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    partie.refresh_from_db()
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "revision": str(partie.revision) if revision is None else revision,
        "players": " ".join(str(pk[name]) for name in players),
        "winner": str(pk[winner]),
        "win": "rami",
    }
    data.update({f"points_{pk[name]}": str(value) for name, value in points.items()})
    if after:
        data["after_key"] = str(after)
    return data


def send(phone: Client, partie: Partie, data: dict) -> tuple[int, dict]:
    response = phone.post(reverse("donne_create", args=[partie.pk]), data, **QUEUE)
    assert response["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def numbers(partie: Partie) -> list[int]:
    return list(
        Donne.objects.filter(partie=partie).order_by("number").values_list("number", flat=True)
    )


def test_a_queued_donne_is_recorded_once_however_often_it_is_sent(phone, partie):
    data = queued(partie, "Anne", Bruno=12, Chloé=7, David=30)
    status, answer = send(phone, partie, data)
    partie.refresh_from_db()
    assert (status, answer) == (200, {"ok": True, "number": 1, "etat": str(partie.revision)})
    # Sent again (the answer was lost on the way back): the same donne, not a second one.
    assert send(phone, partie, data)[1]["number"] == 1
    assert numbers(partie) == [1]


# The form's names before "One vocabulary, round two" (docs/decisions.md): a phone may hold
# donnes queued with them.
OLD_NAMES = {
    "idempotency_key": "cle",
    "revision": "etat",
    "after_key": "apres",
    "force": "forcer",
    "players": "en_course",
}


def old_named(data: dict) -> dict:
    return {OLD_NAMES.get(name, name): value for name, value in data.items()}


def test_donnes_queued_under_the_old_field_names_are_recorded_as_before(phone, partie):
    first = queued(partie, "Anne", Bruno=12, Chloé=7, David=30)
    second = queued(partie, "Bruno", after=first["idempotency_key"], Anne=3, Chloé=4, David=5)
    second["revision"] = first["revision"]
    old_first, old_second = old_named(first), old_named(second)
    assert {"cle", "etat", "en_course"} <= old_first.keys() and "apres" in old_second
    status, answer = send(phone, partie, old_first)
    partie.refresh_from_db()
    assert (status, answer) == (200, {"ok": True, "number": 1, "etat": str(partie.revision)})
    # Its key still counts: sent again, the same donne.
    assert send(phone, partie, old_first)[1]["number"] == 1
    first_donne = Donne.objects.get(partie=partie, number=1)
    assert str(first_donne.idempotency_key) == first["idempotency_key"]
    # The one typed behind it follows it (its "apres" is read).
    status, answer = send(phone, partie, old_second)
    assert (status, answer["number"]) == (200, 2)
    second_donne = Donne.objects.get(partie=partie, number=2)
    assert str(second_donne.idempotency_key) == second["idempotency_key"]
    assert numbers(partie) == [1, 2]


def test_a_donne_queued_under_the_old_names_on_a_stale_marque_is_sent_back(phone, partie):
    data = old_named(queued(partie, "Anne", Bruno=12, Chloé=7, David=30))
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    status, answer = send(phone, partie, data)
    # Its old "etat" is read: the freshness check is not lost with the name.
    assert (status, answer["ok"], answer["code"]) == (409, False, "etat_perime")
    assert numbers(partie) == [1]


def test_a_donne_typed_behind_a_waiting_one_follows_it(phone, partie):
    first = queued(partie, "Anne", Bruno=12, Chloé=7, David=30)
    second = queued(partie, "Bruno", after=first["idempotency_key"], Anne=3, Chloé=4, David=5)
    second["revision"] = first["revision"]  # typed on the same page, before the first one went out
    assert send(phone, partie, first)[0] == 200
    status, answer = send(phone, partie, second)
    assert (status, answer["number"]) == (200, 2)
    bruno = Donne.objects.get(partie=partie, number=2)
    assert {h.joueur.name: h.points for h in bruno.hands.all()} == {
        "Anne": 3,
        "Chloé": 4,
        "David": 5,
    }


def test_another_phone_s_donne_in_between_sends_the_queued_one_back(phone, partie):
    first = queued(partie, "Anne", Bruno=12, Chloé=7, David=30)
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    status, answer = send(phone, partie, first)
    assert (status, answer["ok"], answer["code"], answer["wait"]) == (
        409,
        False,
        "etat_perime",
        False,
    )
    assert answer["message"].startswith("La partie a changé ailleurs")
    # And one typed behind a donne that is no longer the last: shown back too.
    behind = queued(partie, "Bruno", after=uuid.uuid4(), Anne=3, Chloé=4, David=5)
    status, answer = send(phone, partie, behind)
    assert (status, answer["code"]) == (409, "donne_intercalee")
    assert answer["message"] == (
        "Une autre donne a été notée entre-temps (sur un autre téléphone) : vérifiez cette "
        "donne avant de l'envoyer."
    )
    assert numbers(partie) == [1]


def test_a_rachat_to_decide_keeps_the_next_donne_waiting(phone, partie):
    first = queued(partie, "Anne", Bruno=104, Chloé=7, David=30)  # Bruno crosses 100
    second = queued(partie, "Chloé", after=first["idempotency_key"], Anne=1, Bruno=2, David=3)
    assert send(phone, partie, first)[0] == 200
    status, answer = send(phone, partie, second)
    assert (status, answer["code"], answer["wait"]) == (409, "decision_en_attente", True)
    assert numbers(partie) == [1]


def test_a_player_gone_since_the_donne_was_typed_sends_it_back(phone, partie):
    first = queued(partie, "Anne", Bruno=104, Chloé=7, David=30)
    second = queued(partie, "Chloé", after=first["idempotency_key"], Anne=1, Bruno=2, David=3)
    send(phone, partie, first)
    bruno = partie.joueurs.get(name="Bruno")
    phone.post(reverse("rachat_decide", args=[partie.pk, bruno.pk]), {"decision": "abandonner"})
    status, answer = send(phone, partie, second)
    assert (status, answer["code"]) == (409, "joueurs_changes")
    assert numbers(partie) == [1]


def test_a_queued_donne_the_form_refuses_says_why(phone, partie):
    data = queued(partie, "Anne", Bruno=12, Chloé=7)  # David's hand is missing
    status, answer = send(phone, partie, data)
    assert (status, answer["ok"], answer["code"]) == (422, False, "formulaire")
    assert answer["message"] == "Il manque les points de David : tapez-les, ou touchez ses cartes."
    assert numbers(partie) == []


def test_the_queue_gets_a_fresh_token_or_is_told_to_log_in(phone, anonymous):
    answer = phone.get(reverse("csrf_token"))
    assert answer.status_code == 200 and len(answer.json()["csrf"]) == 64
    assert "no-cache" in answer["Cache-Control"]
    refused = anonymous.get(reverse("csrf_token"))
    assert (refused.status_code, refused.json()) == (401, {"login": "/comptes/connexion/"})


def test_the_offline_page_is_there_for_pages_never_opened(anonymous):
    page = anonymous.get(reverse("offline"))
    assert page.status_code == 200
    assert "cette page n'a pas encore été ouverte" in page.content.decode()


def test_a_deleted_donne_sent_again_is_refused_not_recorded_again(phone, partie):
    first = queued(partie, "Anne", Bruno=12, Chloé=7, David=30)
    second = queued(partie, "Bruno", after=first["idempotency_key"], Anne=3, Chloé=4, David=5)
    assert send(phone, partie, first)[0] == 200
    assert send(phone, partie, second)[1]["number"] == 2
    partie.refresh_from_db()
    deleted = phone.post(
        reverse("donne_delete", args=[partie.pk, 2]), {"revision": str(partie.revision)}
    )
    assert deleted.status_code == 302 and numbers(partie) == [1]
    # The queue never heard the answer and sends the second donne again, right behind the
    # first one as it was typed: it stays deleted.
    status, answer = send(phone, partie, second)
    assert (status, answer) == (
        409,
        {
            "ok": False,
            "code": "donne_supprimee",
            "message": "Cette donne a été supprimée.",
            "wait": False,
        },
    )
    assert numbers(partie) == [1]

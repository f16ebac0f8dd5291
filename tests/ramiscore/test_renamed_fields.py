"""A form posted under the old field names (a page or a worker of the previous version, a
donne queued before the update) is read as today's: its state check, its key and its "noter
quand même" still count. Cast: alice keeps the score."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Donne, Partie
from games.services.parties import note_token
from tests.factories import hand, make_partie, play, revision_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def partie(alice) -> Partie:
    return make_partie(alice, joueurs=["Anne", "Bruno", "Chloé", "David"])


@pytest.fixture
def phone(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_an_old_note_form_is_checked_against_the_note_it_was_built_on(phone, partie) -> None:
    url = reverse("partie_note", args=[partie.pk])
    assert phone.post(url, {"note": "Chez Anne.", "etat_note": "stale"}).status_code == 409
    assert phone.post(url, {"note": "Chez Anne.", "etat_note": note_token("")}).status_code == 302
    partie.refresh_from_db()
    assert partie.note == "Chez Anne."


def test_an_old_delete_form_is_checked_against_the_revision_it_was_built_on(phone, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    url = reverse("donne_delete", args=[partie.pk, 1])
    phone.post(url, {"etat": "0"})  # a revision long gone: stale, nothing deleted
    assert Donne.objects.filter(partie=partie).count() == 1
    assert phone.post(url, {"etat": revision_of(partie)}).status_code == 302
    assert not Donne.objects.filter(partie=partie).exists()


def test_an_old_donne_form_keeps_its_key_and_its_override(phone, partie) -> None:
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data = {
        "cle": "6f1c9a52-3f0e-4a4b-9a57-1f5c1f0d2b11",
        "etat": revision_of(partie),
        "en_course": " ".join(str(pk[name]) for name in ("Anne", "Bruno", "Chloé", "David")),
        "winner": str(pk["Anne"]),
        "win": "rami",
        # 4 + 2 jokers kept in hand: the classique deck has 4 (docs/rules.md R22), a warning.
        f"points_{pk['Bruno']}": "5",
        f"jokers_{pk['Bruno']}": "4",
        f"points_{pk['Chloé']}": "3",
        f"jokers_{pk['Chloé']}": "2",
        f"cartes_{pk['David']}": "2",
    }
    url = reverse("donne_create", args=[partie.pk])
    assert phone.post(url, data).status_code == 422
    assert phone.post(url, {**data, "forcer": "on"}).status_code == 302
    # Sent again (a double tap on an old page): the same key, the same donne.
    assert phone.post(url, {**data, "forcer": "on"}).status_code == 302
    donne = Donne.objects.get(partie=partie)
    assert str(donne.idempotency_key) == data["cle"]
    assert donne.hands.get(joueur__name="David").cards == "2"


def test_today_s_name_wins_over_an_old_one_posted_beside_it(phone, partie) -> None:
    url = reverse("partie_note", args=[partie.pk])
    posted = {"note": "Chez Bruno.", "note_token": note_token(""), "etat_note": "stale"}
    assert phone.post(url, posted).status_code == 302
    partie.refresh_from_db()
    assert partie.note == "Chez Bruno."

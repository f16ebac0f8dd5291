"""The confirmation of a save carries its undo: the donne just noted, a rachat decision
just given (through the existing delete and change services)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Donne, Rachat
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _undo_form(body: str) -> tuple[str, dict[str, str]]:
    box = re.search(r'<div class="undo-now mb-2" id="undo-now".*?</div>', body, re.S).group(0)
    action = re.search(r'action="([^"]+)"', box).group(1)
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', box))
    return action, fields


@pytest.fixture
def partie(alice):
    return make_partie(alice, joueurs=["Léa", "Papa", "Tom"])


def _new_donne(client, partie, headers, **points):
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    data = dict(re.findall(r'name="(idempotency_key|revision|players)" value="([^"]*)"', page))
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data |= {"winner": str(pk["Tom"]), "win": "rami"}
    data |= {f"points_{pk[name]}": str(value) for name, value in points.items()}
    return client.post(reverse("donne_create", args=[partie.pk]), data, **headers)


def test_the_saved_donne_can_be_undone_from_its_confirmation(client, alice, partie) -> None:
    client.force_login(alice)
    play(partie, "Tom", "rami", Léa=hand(points=5), Papa=hand(points=3))
    body = _new_donne(client, partie, HTMX, Léa=7, Papa=4).content.decode()
    assert "Donne 2 notée." in body
    assert "Annuler la donne 2" in body
    action, fields = _undo_form(body)
    assert action == reverse("donne_delete", args=[partie.pk, 2])
    response = client.post(action, fields)
    assert response.status_code == 302
    assert Donne.objects.filter(partie=partie).count() == 1
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Donne 2 supprimée." in page
    assert 'id="undo-now"' not in page


def test_without_javascript_the_undo_follows_the_redirect_once(client, alice, partie) -> None:
    client.force_login(alice)
    response = _new_donne(client, partie, {}, Léa=7, Papa=4)
    assert response.status_code == 302
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Annuler la donne 1" in page
    again = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert 'id="undo-now"' not in again


def test_a_rachat_decision_can_be_undone_from_its_confirmation(client, alice, partie) -> None:
    play(partie, "Tom", "rami", Léa=hand(points=120), Papa=hand(points=3))
    client.force_login(alice)
    lea = partie.joueurs.get(name="Léa")
    url = reverse("rachat_decide", args=[partie.pk, lea.pk])
    body = client.post(url, {"decision": "racheter"}, **HTMX).content.decode()
    assert "Annuler le rachat de Léa (abandon)" in body
    action, fields = _undo_form(body)
    assert action == reverse("rachat_change", args=[partie.pk, 1, lea.pk])
    assert fields["decision"] == "abandonner"
    assert client.post(action, fields).status_code == 302
    assert Rachat.objects.get(joueur=lea).accepted is False

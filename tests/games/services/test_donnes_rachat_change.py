"""Changing a rachat decision after the fact (issue "table-proof"). Cast: alice owns the
partie; Chloé crosses at donne 1."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Rachat
from games.scoring import RamiError
from games.selectors import partie_replay
from tests.factories import decide, hand, make_partie, make_user, play, revision_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def partie():
    partie = make_partie(make_user("alice"), joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand(points=20), Chloé=hand(points=120))
    return partie


def chloe(partie):
    return partie.joueurs.get(name="Chloé")


def test_an_abandon_becomes_a_rachat_and_the_partie_is_replayed(partie) -> None:
    decide(partie, "Chloé", False)
    change = services.rachat_change(
        partie=partie, donne_number=1, joueur=chloe(partie), accepted=True
    ).change
    assert change.totals == {"Chloé": (120, 20)}
    assert Rachat.objects.get().accepted is True
    _data, result = partie_replay(partie)
    assert result.states[-1].in_race == ["Anne", "Bruno", "Chloé"]


def test_the_same_answer_changes_nothing(partie) -> None:
    decide(partie, "Chloé", True)
    change = services.rachat_change(
        partie=partie, donne_number=1, joueur=chloe(partie), accepted=True
    ).change
    assert change.totals == {}


def test_a_decision_later_donnes_contradict_is_refused(partie) -> None:
    decide(partie, "Chloé", True)
    play(partie, "Chloé", "rami", Anne=hand(points=3), Bruno=hand(points=4))
    with pytest.raises(RamiError) as err:
        services.rachat_change(partie=partie, donne_number=1, joueur=chloe(partie), accepted=False)
    assert err.value.code == "gagnant_hors_course"
    assert Rachat.objects.get().accepted is True


def test_a_player_without_a_decision_is_refused(partie) -> None:
    bruno = partie.joueurs.get(name="Bruno")
    with pytest.raises(RamiError) as err:
        services.rachat_change(partie=partie, donne_number=1, joueur=bruno, accepted=True)
    assert err.value.code == "pas_de_decision"


def test_a_change_posted_without_a_state_is_stale_and_changes_nothing(partie) -> None:
    decide(partie, "Chloé", False)
    client = Client()
    client.force_login(partie.owner)
    url = reverse("rachat_change", args=[partie.pk, 1, chloe(partie).pk])
    for posted in ({"decision": "racheter", "revision": ""}, {"decision": "racheter"}):
        response = client.post(url, posted, follow=True)
        assert "La partie a changé ailleurs" in response.content.decode()
    assert Rachat.objects.get().accepted is False
    response = client.post(
        url, {"decision": "racheter", "revision": revision_of(partie)}, follow=True
    )
    assert "Donne 1 : Chloé se rachète finalement." in response.content.decode()
    assert Rachat.objects.get().accepted is True


@pytest.mark.parametrize("number", [0, 2, 999])
def test_a_donne_the_partie_does_not_have_is_not_found(partie, number) -> None:
    decide(partie, "Chloé", False)
    client = Client(raise_request_exception=False)
    client.force_login(partie.owner)
    url = reverse("rachat_change", args=[partie.pk, number, chloe(partie).pk])
    response = client.post(url, {"decision": "racheter", "revision": revision_of(partie)})
    assert response.status_code == 404
    assert Rachat.objects.get().accepted is False

"""The live preview's totals after the donne being typed (games/display/outlook.py), through
the preview view: nothing is written, the engine says who would cross."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Donne
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _post(client, partie, winner: str, **points: str):
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data = {"winner": str(pk[winner]), "win": "rami"}
    data |= {f"points_{pk[name]}": value for name, value in points.items()}
    data["players"] = " ".join(str(v) for v in pk.values())
    response = client.post(reverse("donne_preview", args=[partie.pk]), data, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_the_preview_says_each_total_and_who_crosses_the_seuil(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    play(partie, "Tom", "rami", Léa=hand(points=80), Papa=hand(points=3))
    client.force_login(alice)
    body = _post(client, partie, "Tom", Léa="27", Papa="4")
    # docs/rules.md §3.2: a plain rami doubles nothing; Léa 80 + 27 crosses 100 (R4).
    assert "Léa → 107 : franchit 100" in body
    assert "Papa → 7</li>" in body
    assert "Tom → −20</li>" in body  # the winner marks −10 each time (classique)
    assert 'class="is-alert fw-semibold"' in body
    assert Donne.objects.filter(partie=partie).count() == 1


def test_the_preview_gives_the_implausible_hand_warning_before_the_save(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    client.force_login(alice)
    body = _post(client, partie, "Tom", Léa="700", Papa="4")
    assert "700 points pour Léa : c&#x27;est bien ça ?" in body
    assert "Léa → 700 : franchit 100" in body


def test_an_edit_preview_leaves_the_totals_to_the_save(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Léa", "Papa", "Tom"])
    play(partie, "Tom", "rami", Léa=hand(points=80), Papa=hand(points=3))
    client.force_login(alice)
    pk = {j.name: j.pk for j in partie.joueurs.all()}
    data = {"winner": str(pk["Tom"]), "win": "rami", f"points_{pk['Léa']}": "30", "edited": "1"}
    body = client.post(reverse("donne_preview", args=[partie.pk]), data, **HTMX).content.decode()
    assert "→" not in body
    assert 'id="apercu-totaux"' in body

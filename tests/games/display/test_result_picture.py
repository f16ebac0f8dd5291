"""The shared result picture (games/display/result_picture.py) through its view: a PNG about
1080 px wide that names every player and the winner, in the picture's text and its drawing."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from PIL import Image

from games import services
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db

SEVEN = ["Maman", "Mamie", "Marie-Christine", "Jean-Baptiste", "Zoé", "Zoë", "Ana"]


@pytest.fixture
def finished(alice):
    partie = make_partie(alice, joueurs=SEVEN, preset="rami51", mise_initiale=Decimal("1.00"))
    losers = {n: hand(points=100 + 10 * i) for i, n in enumerate(SEVEN[1:])}
    play(partie, "Maman", "sortie", **losers)
    play(partie, "Ana", "sortie", **{n: hand(points=30) for n in SEVEN[:6]})
    services.partie_close(partie=partie)
    return partie


def test_the_picture_is_1080_wide_and_names_everyone_and_the_winner(client, alice, finished):
    client.force_login(alice)
    response = client.get(reverse("partie_result_png", args=[finished.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"] == 'inline; filename="resultat-mardi-soir.png"'
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    assert image.width == 1080
    assert 1000 <= image.height <= 1800
    text = image.text["Description"]
    assert text.splitlines()[0] == "Maman gagne la partie."
    for name in SEVEN:
        assert f". {name} : " in text
    assert image.text["Title"] == "Mardi soir"
    # Kept to look at (the screenshots folder is ignored by git).
    folder = Path(__file__).resolve().parents[3] / "screenshots"
    folder.mkdir(exist_ok=True)
    (folder / "result-picture.png").write_bytes(response.content)

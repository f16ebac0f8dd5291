"""Sharing the result of a finished partie on a 390×844 phone: the picture drawn by the
server goes to the share sheet, or (Chromium on a desktop has no file sharing) downloads."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from PIL import Image

from games import services
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)


def test_partager_le_resultat_gives_the_picture(page, live_server, screenshot) -> None:
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    partie = make_partie(alice, joueurs=["Léa", "Papa", "Tom"], mise_initiale=Decimal("1.00"))
    play(partie, "Léa", "rami", Papa=hand(points=40), Tom=hand(points=20))
    services.partie_close(partie=partie)
    page.goto(f"/parties/{partie.pk}/")
    button = page.locator("#share-result-button")
    button.wait_for(state="visible")
    assert page.locator(".share-result-link").is_hidden()
    button.scroll_into_view_if_needed()
    screenshot("result-share-button", full_page=False)
    with page.expect_download() as info:
        button.click()
    download = info.value
    assert download.suggested_filename == "resultat-mardi-soir.png"
    image = Image.open(io.BytesIO(Path(download.path()).read_bytes()))
    assert image.width == 1080
    assert image.text["Description"].splitlines()[0] == "Léa gagne la partie."

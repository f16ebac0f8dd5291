"""The money pages' addresses (games/views/money.py): the evenings' money at /argent/, out of
/comptes/ (the accounts' own pages), and its old address sending bookmarks on."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_evenings_money_is_at_argent_and_the_old_address_sends_there() -> None:
    client = Client()
    client.force_login(make_user("alice"))
    page = client.get("/argent/")
    assert page.status_code == 200
    assert '<h1 class="h5 mb-1">Comptes</h1>' in page.content.decode()
    old = client.get("/comptes/argent/")
    assert (old.status_code, old["Location"]) == (301, "/argent/")

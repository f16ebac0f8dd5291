"""The account marker of the kept pages (ramiscore/offline_account.py): sent with every
answer to a logged-in owner, set as a readable cookie as long as the session, gone with it."""

from __future__ import annotations

import pytest
from django.test import Client

from ramiscore.offline_account import COOKIE, HEADER, account_marker
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return make_user("alice")


def test_the_marker_follows_the_session(client, alice):
    client.force_login(alice)
    response = client.get("/")
    assert response[HEADER] == account_marker(alice.pk)
    assert response.cookies[COOKIE].value == account_marker(alice.pk)
    assert response.cookies[COOKIE]["httponly"] == ""
    assert account_marker(alice.pk) != account_marker(alice.pk + 1)
    # Logged out (or the session gone): the marker goes too.
    anonymous = Client()
    anonymous.cookies[COOKIE] = account_marker(alice.pk)
    gone = anonymous.get("/comptes/connexion/")
    assert gone.cookies[COOKIE].value == ""
    assert HEADER not in gone


def test_the_marker_is_set_once_per_session(client, alice):
    client.force_login(alice)
    assert COOKIE in client.get("/").cookies
    # Already there: not set again (its age stays the session's).
    assert COOKIE not in client.get("/").cookies
    assert client.get("/")[HEADER] == account_marker(alice.pk)


def test_the_healthcheck_reads_no_session_for_it(client, alice, django_assert_num_queries):
    client.force_login(alice)
    with django_assert_num_queries(0):
        response = client.get("/sante/")
    assert HEADER not in response

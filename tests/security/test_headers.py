"""What the answers say about caching and who may claim HTTPS.

- every answer to a logged-in owner is ``Cache-Control: private, no-store`` (ramiscore/private.py),
  files included; the share pages and the healthcheck are left alone;
- the share poll's ETag is opaque: no partie id, update time or donne count;
- ``X-Forwarded-Proto`` is believed only when DJANGO_TRUSTED_PROXIES says a proxy is there.

Cast: alice owns a partie of two donnes, shared; bob follows it with the link."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Partie
from tests.factories import hand, partie_p1, play

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def partie(alice) -> Partie:
    return services.partie_share(partie=partie_p1(alice, donnes=2))


@pytest.fixture
def owner(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


OWNER_URLS = [
    ("home", lambda p: []),
    ("partie_new", lambda p: []),
    ("partie_import", lambda p: []),
    ("evenings_money", lambda p: []),
    ("backup_download", lambda p: []),  # sauvegarde.json
    ("password_change", lambda p: []),
    ("partie_detail", lambda p: [p.pk]),
    ("password_change_done", lambda p: []),
    ("partie_sheet", lambda p: [p.pk]),  # marque/
    ("partie_sheet_pdf", lambda p: [p.pk]),  # marque.pdf
    ("partie_chart", lambda p: [p.pk]),
    ("partie_export_csv", lambda p: [p.pk]),
    ("partie_export_json", lambda p: [p.pk]),
    ("donne_edit", lambda p: [p.pk, 1]),
    ("donne_delete", lambda p: [p.pk, 1]),
]


@pytest.mark.parametrize(("name", "args"), OWNER_URLS, ids=[n for n, _a in OWNER_URLS])
def test_every_owner_page_and_file_is_private_and_not_stored(owner, partie, name, args) -> None:
    response = owner.get(reverse(name, args=args(partie)))
    assert response.status_code == 200, name
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives, response["Cache-Control"]
    assert "public" not in directives


def test_the_printed_marque_still_answers_its_etag_with_a_304(owner, partie) -> None:
    url = reverse("partie_sheet_pdf", args=[partie.pk])
    etag = owner.get(url)["ETag"]
    again = owner.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again["Cache-Control"] == "private, no-cache, no-store"


def test_the_share_page_is_revalidated_not_forbidden_to_store(partie, owner) -> None:
    url = reverse("partie_follow", args=[partie.share_token])
    for client in (Client(), owner):  # a follower, and the owner looking at her own link
        response = client.get(url)
        assert response["Cache-Control"] == "private, no-cache"


def test_a_refused_post_is_not_stored_either(owner, partie) -> None:
    response = owner.post(reverse("donne_create", args=[partie.pk]), {})
    assert response.status_code == 422
    assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}


def test_the_healthcheck_says_nothing_about_caching(owner) -> None:
    assert "Cache-Control" not in owner.get(reverse("health"))


def test_the_share_polls_etag_is_an_opaque_hash(partie, alice) -> None:
    url = reverse("partie_follow", args=[partie.share_token])
    follower = Client()
    page = follower.get(url)
    fragment = follower.get(url, headers={"HX-Request": "true"})
    stamp = str(int(partie.updated_at.timestamp() * 1_000_000))
    for etag in (page["ETag"], fragment["ETag"]):
        assert re.fullmatch(r'"[0-9a-f]{32}"', etag), etag
        assert stamp not in etag and f"{partie.pk}." not in etag
    assert page["ETag"] != fragment["ETag"]
    # The live view sends the fragment's ETag back itself (hx-headers), and gets a 304.
    assert f'data-etag="{fragment["ETag"].strip(chr(34))}"' in page.content.decode()
    unchanged = follower.get(url, headers={"HX-Request": "true", "If-None-Match": fragment["ETag"]})
    assert unchanged.status_code == 304
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    changed = follower.get(url, headers={"HX-Request": "true", "If-None-Match": fragment["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != fragment["ETag"]


PROBE = """
import django
django.setup()
from django.conf import settings
from django.test import RequestFactory
request = RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="https")
print(settings.SECURE_PROXY_SSL_HEADER, request.is_secure())
"""


def production(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "ramiscore.settings",
            "DJANGO_DEBUG": "False",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_x_forwarded_proto_is_ignored_without_a_trusted_proxy() -> None:
    assert production() == "None False"


def test_x_forwarded_proto_is_believed_behind_a_trusted_proxy() -> None:
    assert production(DJANGO_TRUSTED_PROXIES="1") == "('HTTP_X_FORWARDED_PROTO', 'https') True"

"""The expensive answers of an account (a PDF rendered, an export, the backup, an
import) are limited per account, in French, whatever the number of workers (the database's
token buckets, games/views/costly.py): 30 at once, then one a minute. A kept PDF or sheet of
an unchanged partie costs nothing and counts nothing.

Cast: alice owns a partie; bob is another account."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import partie_p1

pytestmark = pytest.mark.django_db
REFUSED = "Trop de fichiers demandés d&#x27;un coup : réessayez dans 1 minute."


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch) -> None:
    """The buckets refill as time passes (games/throttle.py): thirty requests take a second or
    more on a slow machine, and the wait announced would be 57 s. The throttle's clock stands
    still, so that the counts and the wait are exact."""
    import games.throttle

    monkeypatch.setattr(games.throttle, "time", SimpleNamespace(time=lambda: 1_900_000_000.0))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_31st_export_in_a_row_is_refused_in_french(alice, bob) -> None:
    partie = partie_p1(alice)
    owner = logged_in(alice)
    urls = [
        reverse("partie_export_csv", args=[partie.pk]),
        reverse("partie_export_json", args=[partie.pk]),
        reverse("backup_download"),
    ]
    for n in range(30):
        assert owner.get(urls[n % 3]).status_code == 200, n
    refused = owner.get(urls[0])
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    body = refused.content.decode()
    assert '<h1 class="h4 mb-3">Trop de demandes</h1>' in body and REFUSED in body
    assert {"private", "no-store"} <= {d.strip() for d in refused["Cache-Control"].split(",")}
    # Per account: bob's exports are his own.
    assert logged_in(bob).get(reverse("backup_download")).status_code == 200


def test_a_kept_pdf_counts_nothing(alice) -> None:
    partie = partie_p1(alice)
    owner = logged_in(alice)
    url = reverse("partie_sheet_pdf", args=[partie.pk])
    assert owner.get(url).status_code == 200  # rendered: counted
    for _ in range(40):
        assert owner.get(url).status_code == 200  # kept: free
    for n in range(29):
        assert owner.get(reverse("backup_download")).status_code == 200, n
    assert owner.get(reverse("backup_download")).status_code == 429


def test_every_pdf_render_counts(alice) -> None:
    owner = logged_in(alice)
    url = reverse("blank_sheet_pdf") + "?joueurs=4&preset=classique"
    for _ in range(30):
        owner.get(reverse("backup_download"))
    assert owner.get(url).status_code == 429
    partie = partie_p1(alice)
    assert owner.get(reverse("partie_sheet_pdf", args=[partie.pk])).status_code == 429


def test_the_import_page_is_free_and_each_import_counts(alice) -> None:
    owner = logged_in(alice)
    record = {
        "preset": "classique",
        "players": ["Anne", "Bruno"],
        "donnes": [{"winner": "Anne", "win": "rami", "hands": {"Bruno": {"cards": ["K"]}}}],
    }
    for _ in range(40):
        assert owner.get(reverse("partie_import")).status_code == 200
    for n in range(30):
        upload = SimpleUploadedFile("p.json", json.dumps(record).encode(), "application/json")
        response = owner.post(reverse("partie_import"), {"fichier": upload})
        assert response.status_code == 302, n
    upload = SimpleUploadedFile("p.json", json.dumps(record).encode(), "application/json")
    assert owner.post(reverse("partie_import"), {"fichier": upload}).status_code == 429


def test_asking_for_another_account_s_partie_costs_nothing(alice, bob) -> None:
    """A 404 did no work: its token is given back (found by an audit)."""
    partie = partie_p1(alice)
    nosy = logged_in(bob)
    for _ in range(40):
        assert nosy.get(reverse("partie_export_csv", args=[partie.pk])).status_code == 404
    assert nosy.get(reverse("backup_download")).status_code == 200

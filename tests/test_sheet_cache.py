"""The printed marque and its PDF are kept once rendered (games/views/sheet_cache.py): an
unchanged partie answers from the cache or with a 304, a change renders again, and a second
PDF asked while one renders gets a 429 in French. Cast: alice owns the partie; bob does not."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from tests.factories import hand, partie_p1, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def partie(alice):
    return partie_p1(alice)


@pytest.fixture
def owner(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def pdf_url(partie) -> str:
    return f"/parties/{partie.pk}/marque.pdf"


def test_an_unchanged_pdf_comes_from_the_cache_with_one_query(
    owner, partie, django_assert_num_queries
) -> None:
    first = owner.get(pdf_url(partie))
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    # session, user, the partie (its revision), the cache when it is the database's (not with
    # REDIS_URL): nothing rendered, no state loaded.
    with django_assert_num_queries(3 if settings.REDIS_URL else 4):
        second = owner.get(pdf_url(partie))
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


def test_the_etag_is_opaque_and_answers_304(owner, partie) -> None:
    first = owner.get(pdf_url(partie))
    etag = first["ETag"]
    # A hash: 32 hexadecimal digits, not "<id>.<revision>" as the share poll's used to be.
    assert len(etag.strip('"')) == 32 and "." not in etag
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = owner.get(pdf_url(partie), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag


def test_a_new_donne_renders_again_under_a_new_etag(owner, partie) -> None:
    before = owner.get(pdf_url(partie))["ETag"]
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    after = owner.get(pdf_url(partie), headers={"If-None-Match": before})
    assert after.status_code == 200 and after["ETag"] != before


def test_the_sheet_page_is_kept_per_language(owner, partie) -> None:
    french = owner.get(f"/parties/{partie.pk}/marque/")
    english = owner.get(f"/parties/{partie.pk}/marque/", headers={"Accept-Language": "en"})
    assert "Observations" in french.content.decode()
    assert french["ETag"] != english["ETag"]


def test_a_second_pdf_while_one_renders_is_asked_to_wait(owner, partie, alice) -> None:
    # The lock a render holds for the account (games/views/sheet_cache.py).
    cache.add(f"sheet-render:{alice.pk}", 1, 60)
    busy = owner.get(pdf_url(partie))
    assert busy.status_code == 429
    assert busy.content.decode() == "Le PDF est en préparation, réessayez dans un instant."
    assert busy["Retry-After"] == "5"
    cache.delete(f"sheet-render:{alice.pk}")
    assert owner.get(pdf_url(partie)).status_code == 200


def test_the_lock_is_released_after_a_render(owner, partie, alice) -> None:
    assert owner.get(pdf_url(partie)).status_code == 200
    assert cache.get(f"sheet-render:{alice.pk}") is None


def test_another_account_never_sees_a_cached_pdf(owner, partie, bob) -> None:
    owner.get(pdf_url(partie))
    other = Client()
    other.force_login(bob)
    assert other.get(pdf_url(partie)).status_code == 404

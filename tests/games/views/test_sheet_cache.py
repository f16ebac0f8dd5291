"""The printed marque and its PDF are kept once rendered (games/views/sheet_cache.py): an
unchanged partie answers from the cache or with a 304, a change renders again, and a PDF not
rendered yet is a French page that asks again by itself. Cast: alice owns the partie; bob
does not."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from games import cache_places, sheet_files
from games.code_fingerprint import code_fingerprint
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


def test_the_sheet_page_answers_304_to_its_etag_as_nginx_weakened_it(owner, partie) -> None:
    # nginx's gzip passes the page on with W/ before its ETag; the browser sends that back.
    etag = owner.get(f"/parties/{partie.pk}/marque/")["ETag"]
    again = owner.get(f"/parties/{partie.pk}/marque/", headers={"If-None-Match": f"W/{etag}"})
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)


def test_the_sheet_page_is_kept_per_language(owner, partie) -> None:
    french = owner.get(f"/parties/{partie.pk}/marque/")
    english = owner.get(f"/parties/{partie.pk}/marque/", headers={"Accept-Language": "en"})
    assert "Observations" in french.content.decode()
    assert french["ETag"] != english["ETag"]


DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def queued() -> list:
    from django_tasks import default_task_backend

    return default_task_backend.results


@pytest.fixture
def no_runner(settings):
    """A task runner that keeps what is queued and runs nothing: the PDF is never ready."""
    settings.TASKS = DUMMY
    yield
    queued().clear()


def test_a_pdf_not_rendered_yet_is_a_page_that_asks_again(owner, partie, no_runner) -> None:
    response = owner.get(pdf_url(partie))
    assert response.status_code == 503
    assert response["Retry-After"] == "3"
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert '<meta http-equiv="refresh" content="3">' in html
    assert (
        "Le PDF de « Mardi soir » est en préparation : cette page se recharge dans 3 secondes."
        in html
    )
    [task] = queued()
    assert (task.task.name, task.args) == ("render_sheet_pdf", [partie.pk, "fr"])


def test_asking_again_while_it_waits_queues_nothing_more(owner, partie, alice, no_runner) -> None:
    for _ in range(5):
        assert owner.get(pdf_url(partie)).status_code == 503
    assert len(queued()) == 1
    # One expensive answer counted for the five: the render asked once (games/views/costly.py).
    from games.models import TokenBucket
    from games.views.costly import COSTLY

    row = TokenBucket.objects.get(key=COSTLY.bucket(str(alice.pk)).key)
    assert round(row.tokens) == 29  # of 30; a minute gives one back


def test_a_pdf_the_last_release_drew_is_drawn_anew(owner, partie) -> None:
    partie.refresh_from_db()
    place = sheet_files.key("pdf", partie, "fr")
    assert place.stamp == f"{sheet_files.state(partie)}:{code_fingerprint()}"
    # The same partie, its file drawn by the templates of the release before this one.
    cache_places.keep(place._replace(stamp=f"{sheet_files.state(partie)}:0ld"), b"%PDF-old", 60)
    assert owner.get(pdf_url(partie)).content.startswith(b"%PDF-1.")


def test_the_pdf_is_kept_under_the_revision_and_the_language(owner, partie) -> None:
    partie.refresh_from_db()
    place = sheet_files.key("pdf", partie, "fr")
    assert place.key == f"sheet:pdf:{partie.pk}:fr"
    assert place.stamp.startswith(f"{partie.revision}:")
    cache_places.keep(place, b"%PDF-kept", 60)
    assert owner.get(pdf_url(partie)).content == b"%PDF-kept"
    # Another language is another file, rendered for itself.
    english = owner.get(pdf_url(partie), headers={"Accept-Language": "en"})
    assert english.content.startswith(b"%PDF-1.")
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    partie.refresh_from_db()
    # The new state's file takes the old one's place; the old one is never served for it.
    new = sheet_files.key("pdf", partie, "fr")
    assert (new.key, new.stamp != place.stamp) == (place.key, True)
    assert cache_places.read(new) is None
    assert owner.get(pdf_url(partie)).content.startswith(b"%PDF-1.")
    assert cache_places.read(place) is None  # the rendered file stands in that place now


def test_a_committed_write_queues_the_render_once_the_pdf_was_asked_for(
    owner, partie, no_runner, settings, django_capture_on_commit_callbacks
) -> None:
    settings.PDF_RENDER_ON_CHANGE = True
    # Nobody asked this partie's PDF: a write renders nothing.
    with django_capture_on_commit_callbacks(execute=True):
        play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    assert queued() == []
    # Asked once (the render it queues runs, here never): every later write queues one.
    assert owner.get(pdf_url(partie)).status_code == 503
    [asked] = queued()
    queued().clear()
    cache.delete(sheet_files.pending_key(partie.pk, "fr"))
    with django_capture_on_commit_callbacks(execute=True):
        play(partie, "Bruno", "rami", Alice=hand("K"), Chloé=hand("2"))
    [task] = queued()
    assert asked.args == task.args == [partie.pk, "fr"]
    # In English too, once asked in English.
    assert not sheet_files.is_wanted(partie.pk, "en")


def test_another_account_never_sees_a_cached_pdf(owner, partie, bob) -> None:
    owner.get(pdf_url(partie))
    other = Client()
    other.force_login(bob)
    assert other.get(pdf_url(partie)).status_code == 404

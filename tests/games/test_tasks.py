"""The PDF rendered off the request path (games/tasks.py) by the real task runner: django-tasks'
database backend and its `db_worker` in a process of its own; and the render slots
(games/render_slots.py) held by real processes, one of them killed. Each test uses the
database the test run made, on SQLite or PostgreSQL, reached from the child processes too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from games import cache_places, render_slots, sheet_files
from tests.factories import hand, partie_p1, play

ROOT = Path(__file__).resolve().parents[2]
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# A child that takes a render slot, says which, and holds it until it is killed.
HOLD_A_SLOT = """
import sys, time, django
django.setup()
from games.render_slots import try_slot
held = try_slot()
print(held[0] if held else "none", flush=True)
time.sleep(60)
"""


def child_env() -> dict[str, str]:
    """The environment that points a child process at this test run's database."""
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_DEBUG": "True", "DJANGO_SETTINGS_MODULE": "ramiscore.settings"}
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        )
    else:
        env["SQLITE_NAME"] = str(db["NAME"])
    return env


def hold_a_slot() -> tuple[subprocess.Popen, str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_A_SLOT],
        cwd=ROOT,
        env=child_env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    return child, child.stdout.readline().strip()


@pytest.fixture
def one_slot(settings):
    settings.PDF_RENDERS_AT_ONCE = 1


@pytest.mark.django_db(transaction=True)
def test_a_slot_held_by_another_process_is_refused_and_freed_at_once_by_its_death(
    one_slot,
) -> None:
    child, said = hold_a_slot()
    try:
        assert said == "0"
        assert render_slots.try_slot() is None
        with render_slots.render_slot(wait=0.4, poll=0.2, sleep=lambda _s: None) as slot:
            assert slot is None
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    # Killed mid-render: no timeout to wait for, the slot is free for the next one.
    held = render_slots.try_slot()
    assert held is not None and held[0] == 0
    held[1]()


@pytest.mark.django_db(transaction=True)
def test_the_limit_counts_every_process(settings) -> None:
    settings.PDF_RENDERS_AT_ONCE = 2
    first, said = hold_a_slot()
    try:
        assert said == "0"
        with render_slots.render_slot() as slot:
            assert slot == 1  # the second of two
            assert render_slots.try_slot() is None  # a third: none left
        with render_slots.render_slot() as slot:
            assert slot == 1  # given back at the end of the block
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
        first.stdout.close()


@pytest.mark.django_db(transaction=True)
def test_a_write_queues_the_pdf_and_the_worker_renders_it(alice, settings) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.PDF_RENDER_ON_CHANGE = True
    from django_tasks_db.models import DBTaskResult

    partie = partie_p1(alice)  # each write commits; nobody asked the PDF: none is queued
    renders = DBTaskResult.objects.filter(task_path="games.tasks.render_sheet_pdf")
    assert not renders.exists()
    owner = Client()
    owner.force_login(alice)
    url = f"/parties/{partie.pk}/marque.pdf"
    assert owner.get(url).status_code == 503  # queued, nobody has rendered it yet
    assert renders.count() == 1
    # A write now (the PDF is wanted): the render waiting will render the latest state.
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))

    worker = subprocess.run(
        [sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay", "--no-reload"],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert worker.returncode == 0, worker.stderr
    results = DBTaskResult.objects.filter(task_path="games.tasks.render_sheet_pdf")
    assert {r.status for r in results} == {"SUCCESSFUL"}
    # One of the queued renders did the work; the others found nothing waiting or it kept.
    assert sorted(r.return_value for r in results).count("rendered") == 1

    response = owner.get(url)
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF-")
    partie.refresh_from_db()
    assert cache_places.read(sheet_files.key("pdf", partie, "fr")) == response.content


@pytest.mark.django_db
def test_the_render_keeps_the_file_once_and_forgets_a_deleted_partie(alice) -> None:
    from games.tasks import render_sheet_pdf

    partie = partie_p1(alice)
    partie.refresh_from_db()
    assert render_sheet_pdf.call(partie.pk, "fr") == "rendered"
    assert cache_places.read(sheet_files.key("pdf", partie, "fr")).startswith(b"%PDF-")
    assert render_sheet_pdf.call(partie.pk, "fr") == "kept"
    assert render_sheet_pdf.call(partie.pk, "en") == "rendered"  # a file a language
    pk = partie.pk
    partie.delete()
    assert render_sheet_pdf.call(pk, "fr") == "gone"


@pytest.mark.django_db
def test_a_render_the_partie_moved_on_from_does_not_take_the_newer_ones_place(alice) -> None:
    from games.tasks import render_sheet_pdf

    partie = partie_p1(alice)
    newer = []

    def another_phone(execute, sql, params, many, context):
        # A donne recorded while the render reads the donnes of the state it draws.
        if "games_donne" in sql and not newer:
            newer.append("Alice")
            play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(another_phone):
        assert render_sheet_pdf.call(partie.pk, "fr") == "outdated"
    assert newer
    partie.refresh_from_db()
    place = sheet_files.key("pdf", partie, "fr")
    assert cache.get(place.key) is None  # nothing kept: the newer state's render keeps its own
    assert render_sheet_pdf.call(partie.pk, "fr") == "rendered"
    assert cache_places.read(place).startswith(b"%PDF-")

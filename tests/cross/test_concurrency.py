"""Two phones, double taps and resends, through a real server (live_server) with threads.
On SQLite and, in CI, on PostgreSQL: no duplicate donne, no lost donne, never a 500."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.cookiejar import CookieJar

import pytest
from django.db import connections
from django.urls import reverse

from games.models import Donne
from games.selectors import partie_replay
from tests.factories import make_partie, make_user

pytestmark = pytest.mark.django_db(transaction=True)


class Phone:
    """A browser session on its own cookie jar, logged in as the owner."""

    def __init__(self, live_server, username: str) -> None:
        self.base = live_server.url
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.get(reverse("login"))
        self.post(
            reverse("login"),
            {
                "username": username,
                "password": "cartes-sur-table",
                "csrfmiddlewaretoken": _token(page),
            },
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict[str, str]) -> int:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Referer", self.base + path)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as err:
            return err.code


def _token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def _form(page: str) -> dict[str, str]:
    return {
        "csrfmiddlewaretoken": _token(page),
        "revision": re.search(r'name="revision" value="([^"]*)"', page).group(1),
        "idempotency_key": re.search(r'name="idempotency_key" value="([^"]*)"', page).group(1),
    }


def _run(*calls) -> list[int]:
    barrier = threading.Barrier(len(calls))
    results: list[int] = [0] * len(calls)
    failures: list[BaseException] = []

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except BaseException as err:  # an assertion in a thread must fail the test
            failures.append(err)
        finally:
            connections.close_all()  # this thread's own ORM connection

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if failures:
        raise failures[0]
    return results


@pytest.fixture
def table(live_server):
    alice = make_user("alice")
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    ids = {j.name: j.pk for j in partie.joueurs.all()}
    return partie, ids


def donne(ids, winner: str, loser: str, points: int) -> dict[str, str]:
    return {"winner": str(ids[winner]), "win": "rami", f"points_{ids[loser]}": str(points)}


def test_a_double_tap_records_the_donne_once(live_server, table) -> None:
    partie, ids = table
    phone = Phone(live_server, "alice")
    form = _form(phone.get(reverse("partie_detail", args=[partie.pk])))
    data = {**form, **donne(ids, "Anne", "Bruno", 12)}
    url = reverse("donne_create", args=[partie.pk])
    statuses = _run(*[lambda: phone.post(url, data)] * 4)
    assert 500 not in statuses
    assert Donne.objects.filter(partie=partie).count() == 1
    _data, result = partie_replay(partie)
    assert result.states[-1].totals == {"Anne": -10, "Bruno": 12}


def test_two_phones_on_the_same_state_record_one_donne(live_server, table) -> None:
    partie, ids = table
    phones = [Phone(live_server, "alice") for _ in range(3)]
    url = reverse("donne_create", args=[partie.pk])
    forms = [_form(p.get(reverse("partie_detail", args=[partie.pk]))) for p in phones]
    calls = [
        (lambda p=p, f=f, n=n: p.post(url, {**f, **donne(ids, "Anne", "Bruno", n)}))
        for n, (p, f) in enumerate(zip(phones, forms, strict=True), start=5)
    ]
    statuses = _run(*calls)
    assert 500 not in statuses
    # One form wins; the others were built on the older state and are refused.
    assert Donne.objects.filter(partie=partie).count() == 1


def test_many_phones_with_fresh_forms_keep_donnes_consecutive(live_server, table) -> None:
    partie, ids = table
    phones = [Phone(live_server, "alice") for _ in range(4)]
    url = reverse("donne_create", args=[partie.pk])

    def record(phone: Phone, rounds: int = 3) -> int:
        saved = 0
        for _ in range(rounds * 3):
            if saved == rounds:
                break
            form = _form(phone.get(reverse("partie_detail", args=[partie.pk])))
            before = Donne.objects.filter(
                partie=partie, idempotency_key=form["idempotency_key"]
            ).exists()
            assert not before
            status = phone.post(url, {**form, **donne(ids, "Bruno", "Anne", 2)})
            # 200: recorded (urllib follows the redirect to the partie page); 409: built on
            # a state another phone changed meanwhile, refused with the typed values kept.
            assert status in (200, 409)
            saved += Donne.objects.filter(
                partie=partie, idempotency_key=uuid.UUID(form["idempotency_key"])
            ).count()
        return saved

    saved = _run(*[(lambda p=p: record(p)) for p in phones])
    numbers = list(Donne.objects.filter(partie=partie).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) == sum(saved)
    _data, result = partie_replay(partie)
    assert result.states[-1].totals == {"Anne": 2 * len(numbers), "Bruno": -10 * len(numbers)}

"""The unchanged share poll answered before Django (games/follow_gate.py), called as gunicorn
calls ramiscore.wsgi: the 304 it gives is the one Django would give, header for header, and
everything else reaches Django. Cast: alice owns the partie; the follower holds its link."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.follow_gate import FollowPollGate
from games.models import Partie
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status = int(status.split()[0])
        self.headers = dict(headers)
        self.body = body


class Django(WSGIHandler):
    """The application behind the gate, counting the requests it is given."""

    calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return super().__call__(environ, start_response)


@pytest.fixture
def django_app() -> Iterator[Django]:
    # As Django's test client does: the handler's signals would close the test's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield Django()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def gate(django_app: Django) -> FollowPollGate:
    return FollowPollGate(django_app)


def call(app, path: str, method: str = "get", **headers: str) -> Answer:
    environ = getattr(RequestFactory(), method)(path, **headers).environ
    started: list = []
    chunks = app(environ, lambda status, headers, exc_info=None: started.extend([status, headers]))
    try:
        body = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return Answer(started[0], started[1], body)


@pytest.fixture
def partie(alice) -> Partie:
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand(points=7))
    return services.partie_share(partie=partie)


def url(partie: Partie, query: str = "") -> str:
    return reverse("partie_follow", args=[partie.share_token]) + query


def representation_left_out(headers: dict[str, str]) -> dict[str, str]:
    # What the gate does not repeat: the language and the length (CommonMiddleware's "0",
    # which is not the representation's length) describe a body a 304 does not carry.
    return {k: v for k, v in headers.items() if k not in ("Content-Language", "Content-Length")}


def polled(gate: FollowPollGate, path: str, **headers: str) -> str:
    """The ETag of the page a follower's phone just loaded (through the gate, as a phone)."""
    answer = call(gate, path, **headers)
    assert answer.status == 200
    return answer.headers["ETag"]


@pytest.mark.parametrize(
    ("query", "headers"),
    [("", HTMX), ("", {}), ("?tout", HTMX), ("?grand=1", HTMX)],
    ids=["the live fragment", "the page", "every donne", "the big screen"],
)
def test_an_unchanged_poll_is_answered_before_django_as_django_answers_it(
    gate, django_app, partie, query, headers
) -> None:
    etag = polled(gate, url(partie, query), **headers)
    calls = django_app.calls
    with CaptureQueriesContext(connection) as queries:
        answer = call(gate, url(partie, query), HTTP_IF_NONE_MATCH=etag, **headers)
    assert (answer.status, answer.body, django_app.calls) == (304, b"", calls)
    # No partie, no session: at most the cache's read, when the cache is the database's.
    other = [q["sql"] for q in queries.captured_queries if '"ramiscore_cache"' not in q["sql"]]
    assert other == [] and len(queries.captured_queries) <= 1
    django = call(django_app, url(partie, query), HTTP_IF_NONE_MATCH=etag, **headers)
    assert django.status == 304
    assert answer.headers == representation_left_out(django.headers)
    assert answer.headers["ETag"] == etag
    assert answer.headers["Vary"] == "HX-Request, Accept-Language"
    assert answer.headers["Cache-Control"] == "private, no-cache"


def test_over_https_the_304_carries_hsts_as_django_s_does(django_app, partie, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    # The middlewares read their settings once, when a server starts.
    django_app = Django()
    gate = FollowPollGate(django_app)
    secure = {"secure": True, **HTMX}
    environ = RequestFactory().get(url(partie), **secure).environ
    assert environ["wsgi.url_scheme"] == "https"
    etag = polled(gate, url(partie), **secure)
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=etag, **secure)
    django = call(django_app, url(partie), HTTP_IF_NONE_MATCH=etag, **secure)
    assert answer.status == django.status == 304
    assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert answer.headers == representation_left_out(django.headers)


def test_a_donne_recorded_since_reaches_django_and_the_follower_sees_it(
    gate, django_app, partie
) -> None:
    etag = polled(gate, url(partie), **HTMX)
    play(partie, "Bruno", "rami", Anne=hand("Q"), Chloé=hand(points=4))
    calls = django_app.calls
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert (answer.status, django_app.calls) == (200, calls + 1)
    assert answer.headers["ETag"] != etag
    assert '<th scope="row">2</th>' in answer.body.decode()


def test_a_revoked_link_is_refused_by_django_even_with_the_last_etag(gate, partie) -> None:
    etag = polled(gate, url(partie), **HTMX)
    services.partie_unshare(partie=partie)
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert (answer.status, answer.headers.get("HX-Refresh")) == (404, "true")
    assert call(gate, url(partie), HTTP_IF_NONE_MATCH=etag).status == 404


def test_a_replaced_link_stops_answering_at_the_gate(gate, partie) -> None:
    old = url(partie)
    etag = polled(gate, old, **HTMX)
    services.partie_share(partie=partie)  # a new link: the old one stops working
    assert call(gate, old, HTTP_IF_NONE_MATCH=etag, **HTMX).status == 404


def test_a_host_not_allowed_gets_django_s_400(gate, django_app, partie) -> None:
    etag = polled(gate, url(partie), **HTMX)
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=etag, HTTP_HOST="evil.example", **HTMX)
    assert answer.status == 400


def test_plain_http_is_sent_to_https_by_django_where_https_is_required(
    gate, django_app, partie, settings
) -> None:
    etag = polled(gate, url(partie), **HTMX)
    settings.SECURE_SSL_REDIRECT = True
    gate = FollowPollGate(Django())
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert (answer.status, answer.headers["Location"]) == (301, "https://testserver" + url(partie))


def test_the_etag_of_one_representation_does_not_pass_for_another(gate, django_app, partie):
    fragment = polled(gate, url(partie), **HTMX)
    calls = django_app.calls
    # The full page asked with the fragment's ETag, every donne with the page's: rendered.
    assert call(gate, url(partie), HTTP_IF_NONE_MATCH=fragment).status == 200
    assert call(gate, url(partie, "?tout"), HTTP_IF_NONE_MATCH=fragment, **HTMX).status == 200
    assert django_app.calls == calls + 2


def test_what_is_not_an_unchanged_poll_goes_to_django(gate, django_app, partie) -> None:
    etag = polled(gate, url(partie), **HTMX)
    calls = django_app.calls
    assert call(gate, url(partie), HTTP_IF_NONE_MATCH='"autre"', **HTMX).status == 200
    assert call(gate, url(partie), method="head", HTTP_IF_NONE_MATCH=etag).status == 405
    assert call(gate, url(partie) + "courbe/", HTTP_IF_NONE_MATCH=etag).status == 200
    assert call(gate, "/sante/", HTTP_IF_NONE_MATCH=etag).status == 200
    unknown = reverse("partie_follow", args=["inconnu"])
    assert call(gate, unknown, HTTP_IF_NONE_MATCH=etag).status == 404
    assert django_app.calls == calls + 5


def test_a_poll_with_the_etag_a_compressing_proxy_weakened_is_answered_before_django(
    gate, django_app, partie
) -> None:
    etag = polled(gate, url(partie), **HTMX)
    calls = django_app.calls
    answer = call(gate, url(partie), HTTP_IF_NONE_MATCH=f"W/{etag}", **HTMX)
    assert (answer.status, answer.body, django_app.calls) == (304, b"", calls)
    assert answer.headers["ETag"] == etag

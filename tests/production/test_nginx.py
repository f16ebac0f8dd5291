"""deploy/nginx.conf in front of the same gunicorn, as the other proxy the README offers: the
request is https, the share link too, the visitor's address reaches the login limits whatever
the visitor writes, what gunicorn is told to ignore (X-Forwarded-Ssl) is dropped, and a
follower's unchanged poll is answered by nginx from the app's follow marks, as by Caddy."""

from __future__ import annotations

import gzip
import re

import pytest

from tests.production import stack
from tests.production.conftest import need
from tests.production.follow import (
    GZIPPED,
    LIVE,
    compared,
    gzipped_fragment,
    in_the_app,
    marked,
    polled_unchanged,
    shared,
)
from tests.production.stack import Client

HSTS = "max-age=31536000; includeSubDomains"


@pytest.fixture(scope="module")
def nginx(production, tmp_path_factory):
    need("nginx", "nginx")
    need("openssl", "openssl")
    tmp = tmp_path_factory.mktemp("nginx")
    served = stack.nginx(tmp, production.gunicorn.port, marks=str(production.marks))
    with stack.running(served) as (proxy,):
        yield proxy


def test_through_nginx_the_request_and_the_share_link_are_https(production, nginx) -> None:
    alice = Client(nginx.port, tls=True)
    # The page's CSRF origin is nginx's: Django checks the Origin against the Host it is given.
    assert alice.login("alice") == 302
    status, headers, body = alice.request(
        "GET", f"/parties/{production.partie}/", headers={"X-Forwarded-Ssl": "off"}
    )
    assert (status, headers["Strict-Transport-Security"]) == (200, HSTS)
    link = f"https://localhost:{nginx.port}/suivre/{production.token}/"
    assert f'value="{link}"' in body.decode()


def test_through_nginx_the_visitor_address_reaches_the_login_limits(nginx) -> None:
    for n in range(5):
        guesser = Client(nginx.port, tls=True, source="127.0.0.6")
        assert guesser.login("dora", "pas-le-bon", headers={"X-Forwarded-For": f"10.7.0.{n}"}) == (
            200
        ), n
    assert Client(nginx.port, tls=True, source="127.0.0.6").login("dora") == 429
    assert Client(nginx.port, tls=True, source="127.0.0.7").login("dora") == 302


def test_an_unchanged_poll_is_answered_by_nginx_with_the_app_s_own_304(production, nginx) -> None:
    visitor, token, etag, by_nginx, by_app = polled_unchanged(production, nginx.port)
    path = f"/suivre/{token}/"
    polled = {**LIVE, "If-None-Match": etag}
    # nginx writes a Content-Length of 0 on every 304 it makes; the follower's page sends its
    # own If-None-Match, so its script gets the 304 itself, with no body either way.
    assert by_nginx["Content-Length"] == "0"
    del by_nginx["Content-Length"]
    assert compared(by_nginx) == compared(by_app)
    # It is nginx that answers: a mark of the app's shape the app never made, all the same.
    made_up = '"' + "0" * 32 + '"'
    (production.marks / token / made_up).touch()
    polled_made_up = {**LIVE, "If-None-Match": made_up}
    status, headers, _body = visitor.request("GET", path, headers=polled_made_up)
    assert (status, headers["ETag"]) == (304, made_up)
    # Never a name of another shape: what a visitor writes does not walk the disk.
    (production.marks / token / '"fait-main"').touch()
    walks = f'"0/../../{token}/{made_up.strip(chr(34))}"'
    for written in ('"fait-main"', walks):
        status, _headers, _body = visitor.request(
            "GET", path, headers={**LIVE, "If-None-Match": written}
        )
        assert status == 200, written
    # Nor the page itself (a reload), nor a link of another partie, nor a POST.
    assert visitor.request("GET", path, headers={"If-None-Match": etag})[0] == 200
    assert visitor.request("GET", f"/suivre/{production.token}/", headers=polled)[0] == 200
    assert visitor.request("POST", path, headers=polled)[0] != 304


def test_a_donne_then_a_revoked_link_reach_the_follower_through_nginx(production, nginx) -> None:
    pk, token = shared(production)
    visitor = Client(nginx.port, tls=True)
    path = f"/suivre/{token}/"
    etag = visitor.request("GET", path, headers=LIVE)[1]["ETag"]
    assert visitor.request("GET", path, headers={**LIVE, "If-None-Match": etag})[0] == 304
    in_the_app(
        production,
        "from games.models import Partie\nfrom tests.factories import hand, play\n"
        f"play(Partie.objects.get(pk={pk}), 'Bruno', 'rami',"
        " Anne=hand(points=4), Chloé=hand(points=5))",
    )
    status, headers, body = visitor.request("GET", path, headers={**LIVE, "If-None-Match": etag})
    assert status == 200 and "Bruno" in body.decode()
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    etag = headers["ETag"]
    in_the_app(
        production,
        "from games.models import Partie\n"
        f"services.partie_unshare(partie=Partie.objects.get(pk={pk}))",
    )
    status, headers, _body = visitor.request("GET", path, headers={**LIVE, "If-None-Match": etag})
    assert (status, headers["HX-Refresh"]) == (404, "true")


def test_what_nginx_compresses_still_answers_the_follower_s_poll(production, nginx) -> None:
    """A phone that accepts gzip gets the live fragment compressed, under the app's ETag
    weakened (nginx's gzip): polled with it, or with the strong one its page sends, the mark
    the app published answers; the app itself answers the weakened one as it does the other."""
    _pk, token = shared(production)
    visitor = Client(nginx.port, tls=True)
    path = f"/suivre/{token}/"
    headers, fragment = gzipped_fragment(visitor, path)
    strong = re.fullmatch(r'W/("[0-9a-f]{32}")', headers["ETag"]).group(1)
    assert strong in marked(production, token)
    # The page's own poll names the strong ETag (its hx-headers), as the app wrote it.
    assert f'\\"{strong.strip(chr(34))}\\"' in fragment.decode()
    for sent in (headers["ETag"], strong):
        status, answer, body = visitor.request(
            "GET", path, headers={**GZIPPED, "If-None-Match": sent}
        )
        assert (status, answer["ETag"], body) == (304, sent, b""), sent
    # nginx answers from the mark: a weakened ETag of a mark the app never made, all the same.
    made_up = '"' + "1" * 32 + '"'
    (production.marks / token / made_up).touch()
    polled = {**LIVE, "If-None-Match": f"W/{made_up}"}
    assert visitor.request("GET", path, headers=polled)[0] == 304
    # And the app, asked straight, answers the weakened ETag as the strong one.
    app = Client(production.gunicorn.port, host="localhost")
    forwarded = {**LIVE, "If-None-Match": headers["ETag"], "X-Forwarded-Proto": "https"}
    assert app.request("GET", path, headers=forwarded)[0] == 304


def test_through_nginx_the_partie_page_comes_compressed(production, nginx) -> None:
    alice = Client(nginx.port, tls=True)
    assert alice.login("alice") == 302
    page = f"/parties/{production.partie}/"
    status, headers, body = alice.request("GET", page, headers={"Accept-Encoding": "gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")
    varies = ", ".join(headers.get_all("Vary"))
    assert "Accept-Encoding" in varies and "Accept-Language" in varies
    html = gzip.decompress(body)
    assert b'id="donne-form"' in html and len(body) < len(html) / 3

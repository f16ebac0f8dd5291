"""A follower's unchanged poll answered by Caddy from the app's marks (games/follow_marks.py,
deploy/Caddyfile), as deployed: the same 304 as the app's, and never for a partie that
changed or a link that was revoked. Each test shares a partie of its own: the session's link
is the other tests'."""

from __future__ import annotations

import gzip
import re

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


def test_an_unchanged_poll_is_answered_by_caddy_with_the_app_s_own_304(production) -> None:
    visitor, token, etag, by_caddy, by_app = polled_unchanged(production, production.caddy.port)
    path = f"/suivre/{token}/"
    polled = {**LIVE, "If-None-Match": etag}
    assert compared(by_caddy) == compared(by_app)
    # It is Caddy that answers: a mark the app never made is answered all the same.
    (production.marks / token / '"fait-main"').touch()
    made_up = {**LIVE, "If-None-Match": '"fait-main"'}
    status, headers, _body = visitor.request("GET", path, headers=made_up)
    assert (status, headers["ETag"]) == (304, '"fait-main"')
    # Not for the page itself (a reload), nor for a link of another partie.
    status, _headers, _body = visitor.request("GET", path, headers={"If-None-Match": etag})
    assert status == 200
    status, _headers, _body = visitor.request("GET", f"/suivre/{production.token}/", headers=polled)
    assert status == 200


def test_a_donne_then_a_revoked_link_reach_the_follower_through_caddy(production) -> None:
    pk, token = shared(production)
    visitor = Client(production.caddy.port, tls=True)
    path = f"/suivre/{token}/"
    etag = visitor.request("GET", path, headers=LIVE)[1]["ETag"]
    assert etag in marked(production, token)
    in_the_app(
        production,
        "from games.models import Partie\nfrom tests.factories import hand, play\n"
        f"play(Partie.objects.get(pk={pk}), 'Bruno', 'rami',"
        " Anne=hand(points=4), Chloé=hand(points=5))",
    )
    assert marked(production, token) == []
    status, headers, body = visitor.request("GET", path, headers={**LIVE, "If-None-Match": etag})
    assert status == 200 and "Bruno" in body.decode()
    etag = headers["ETag"]
    assert etag in marked(production, token)
    in_the_app(
        production,
        "from games.models import Partie\n"
        f"services.partie_unshare(partie=Partie.objects.get(pk={pk}))",
    )
    assert marked(production, token) == []
    status, headers, _body = visitor.request("GET", path, headers={**LIVE, "If-None-Match": etag})
    assert (status, headers["HX-Refresh"]) == (404, "true")


def test_what_caddy_compresses_keeps_the_app_s_etag_and_its_mark(production) -> None:
    """A phone that accepts gzip gets the live fragment compressed (deploy/Caddyfile
    ``encode``), under the ETag the app wrote: the mark it published still answers the poll."""
    _pk, token = shared(production)
    visitor = Client(production.caddy.port, tls=True)
    path = f"/suivre/{token}/"
    headers, fragment = gzipped_fragment(visitor, path)
    etag = headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag) and etag in marked(production, token)
    plain_status, plain, plain_body = visitor.request("GET", path, headers=LIVE)
    assert (plain_status, plain["ETag"], plain_body) == (200, etag, fragment)
    assert plain["Content-Encoding"] is None
    status, headers, body = visitor.request("GET", path, headers={**GZIPPED, "If-None-Match": etag})
    assert (status, headers["ETag"], body) == (304, etag, b"")


def test_static_files_come_compressed_once(production) -> None:
    """whitenoise's own compressed copy, sent by Caddy as it is, not compressed again."""
    visitor = Client(production.caddy.port, tls=True)
    _status, _headers, home = visitor.request("GET", "/")
    script = re.search(rb'src="(/static/js/[^"]+\.js)"', home).group(1).decode()
    _status, plain, source = visitor.request("GET", script)
    status, headers, body = visitor.request("GET", script, headers={"Accept-Encoding": "gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")
    assert gzip.decompress(body) == source and plain["Content-Encoding"] is None

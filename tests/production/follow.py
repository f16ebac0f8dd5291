"""A partie shared for one test, what the app did in it, and the follow marks it left: for the
tests of the proxies that answer unchanged polls (Caddy's and nginx's)."""

from __future__ import annotations

import gzip
import json
from http.client import HTTPMessage

from tests.production import stack
from tests.production.stack import Client

SHARED = """
import json
from django.contrib.auth.models import User
from games import services
from tests.factories import hand, make_partie, play
partie = make_partie(User.objects.get(username="alice"), joueurs=["Anne", "Bruno", "Chloé"])
play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7))
partie = services.partie_share(partie=partie)
print(json.dumps({"pk": partie.pk, "token": partie.share_token}))
"""
LIVE = {"HX-Request": "true"}
GZIPPED = {**LIVE, "Accept-Encoding": "gzip"}


def shared(production) -> tuple[int, str]:
    out = json.loads(stack.manage(production.env, "shell", "-c", SHARED).splitlines()[-1])
    return out["pk"], out["token"]


def in_the_app(production, code: str) -> None:
    stack.manage(production.env, "shell", "-c", "from games import services\n" + code)


def marked(production, token: str) -> list[str]:
    folder = production.marks / token
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def compared(headers) -> dict[str, str]:
    # Each answerer's own: the date, its name, its connection, Caddy's offer of HTTP/3 (on
    # every answer of Caddy's, the app's too). Go writes "Etag": names are case-blind.
    own = {"date", "server", "via", "connection", "alt-svc"}
    return {k.lower(): v for k, v in headers.items() if k.lower() not in own}


def polled_unchanged(production, port: int) -> tuple[Client, str, str, dict, dict]:
    """A partie shared for the test, its live fragment asked through the proxy on ``port``
    (the app's answer publishes its marks), then polled with its ETag: the proxy's 304, and
    the app's own to the same poll, straight from gunicorn as the proxy forwards it. The
    visitor, the token, the ETag, and the two answers' headers."""
    _pk, token = shared(production)
    visitor = Client(port, tls=True)
    path = f"/suivre/{token}/"
    status, headers, _body = visitor.request("GET", path, headers=LIVE)
    assert status == 200
    etag = headers["ETag"]
    assert etag in marked(production, token)
    polled = {**LIVE, "If-None-Match": etag}
    status, by_proxy, body = visitor.request("GET", path, headers=polled)
    assert (status, body) == (304, b"")
    app = Client(production.gunicorn.port, host="localhost")
    forwarded = {**polled, "X-Forwarded-Proto": "https"}
    status, by_app, _body = app.request("GET", path, headers=forwarded)
    assert status == 304
    return visitor, token, etag, by_proxy, by_app


def gzipped_fragment(visitor: Client, path: str) -> tuple[HTTPMessage, bytes]:
    """The live fragment of the partie ``shared`` made, asked by a phone that accepts gzip:
    its headers and its body decompressed, which came compressed to less than half."""
    status, headers, body = visitor.request("GET", path, headers=GZIPPED)
    assert (status, headers["Content-Encoding"]) == (200, "gzip")
    fragment = gzip.decompress(body)
    assert "Bruno" in fragment.decode() and len(body) < len(fragment) / 2
    return headers, fragment

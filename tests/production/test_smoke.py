"""Every page and file of ramiscore, through Caddy over HTTPS, on the production settings
and a real collectstatic: what only DEBUG and the development storage would let pass shows
up here. Cast: alice owns "Mardi soir" (two donnes, shared)."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.production.stack import Client

PAGES = [
    ("/", "text/html; charset=utf-8"),
    ("/parties/{partie}/", "text/html; charset=utf-8"),
    ("/parties/{partie}/marque/", "text/html; charset=utf-8"),
    ("/parties/{partie}/marque.pdf", "application/pdf"),
    ("/parties/{partie}/export.csv", "text/csv; charset=utf-8"),
    ("/parties/{partie}/export.json", "application/json; charset=utf-8"),
    ("/parties/nouvelle/", "text/html; charset=utf-8"),
    ("/parties/importer/", "text/html; charset=utf-8"),
    ("/parties/marque-vierge.pdf", "application/pdf"),
    ("/comptes/sauvegarde.json", "application/json; charset=utf-8"),
    ("/statistiques/", "text/html; charset=utf-8"),
    ("/habitues/", "text/html; charset=utf-8"),
]


@pytest.fixture(scope="module")
def alice(production) -> Client:
    client = Client(production.caddy.port, tls=True)
    assert client.login("alice") == 302
    return client


# A PDF not rendered yet is "en préparation" (503, Retry-After) until the task runner beside
# gunicorn has rendered it: followed as the page itself does, within a bound.
PDF_WAIT_SECONDS = 120


def get_following_retry_after(client: Client, path: str) -> tuple[int, dict, bytes]:
    deadline = time.monotonic() + PDF_WAIT_SECONDS
    while True:
        status, headers, body = client.request("GET", path)
        if status != 503 or time.monotonic() > deadline:
            return status, headers, body
        time.sleep(int(headers.get("Retry-After", "1")))


@pytest.mark.parametrize(("path", "content_type"), PAGES)
def test_each_page_and_file_of_the_owner(production, alice, path, content_type) -> None:
    status, headers, body = get_following_retry_after(alice, path.format(partie=production.partie))
    assert (status, headers["Content-Type"]) == (200, content_type), body[:2000]
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    if content_type == "application/pdf":
        assert body.startswith(b"%PDF-")


def test_the_share_page_and_the_big_screen_without_an_account(production) -> None:
    visitor = Client(production.caddy.port, tls=True)
    for path in (f"/suivre/{production.token}/", f"/suivre/{production.token}/?grand=1"):
        status, headers, body = visitor.request("GET", path)
        assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8"), path
        assert "Mardi soir" in body.decode()
    status, _headers, _body = visitor.request("GET", f"/suivre/{production.token}/courbe/")
    assert status == 200


def test_a_follower_s_unchanged_poll_is_a_304_with_the_page_s_security_headers(production):
    """Through Caddy: answered by Caddy itself from the mark the first answer left
    (games/follow_marks.py; tests/production/test_follow_marks.py)."""
    visitor = Client(production.caddy.port, tls=True)
    path = f"/suivre/{production.token}/"
    live = {"HX-Request": "true"}
    status, headers, _body = visitor.request("GET", path, headers=live)
    assert status == 200
    etag = headers["ETag"]
    status, headers, body = visitor.request("GET", path, headers={**live, "If-None-Match": etag})
    assert (status, body, headers["ETag"]) == (304, b"", etag)
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert headers["Cache-Control"] == "private, no-cache"
    assert headers["Vary"] == "HX-Request, Accept-Language"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    # Another representation's ETag is not this one's: the fragment is drawn.
    status, _headers, body = visitor.request("GET", path, headers={"If-None-Match": etag})
    assert status == 200 and "Mardi soir" in body.decode()


@pytest.mark.parametrize(
    "path", ["/comptes/connexion/", "/comptes/inscription/", "/hors-ligne/", "/sante/"]
)
def test_each_page_without_an_account(production, path) -> None:
    status, headers, _body = Client(production.caddy.port, tls=True).request("GET", path)
    assert status == 200, path
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


def test_a_page_that_does_not_exist_is_a_404_not_a_500(production, alice) -> None:
    assert alice.request("GET", "/parties/999999/")[0] == 404
    assert alice.request("GET", "/nulle-part/")[0] == 404
    assert Client(production.caddy.port, tls=True).request("GET", "/nulle-part/")[0] == 404


def test_the_share_link_is_https_behind_the_proxy(production, alice) -> None:
    _status, _headers, body = alice.request("GET", f"/parties/{production.partie}/")
    link = f"https://localhost:{production.caddy.port}/suivre/{production.token}/"
    assert f'value="{link}"' in body.decode()


def test_the_service_worker_and_the_manifest_name_hashed_static_files(production) -> None:
    visitor = Client(production.caddy.port, tls=True)
    status, headers, body = visitor.request("GET", "/sw.js")
    assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    config = json.loads(re.match(rb"self.RAMISCORE = (\{.*?\});\n", body)[1])
    assert config["static"] == "/static/"
    assert config["queue"].startswith("/static/js/queue.") and config["queue"].endswith(".js")
    assert config["queue"] != "/static/js/queue.js"
    # Every file of the shell is there, under its hashed name, kept for a year.
    for url in [*config["shell"], config["queue"]]:
        assert re.search(r"\.[0-9a-f]{12}\.", url), url
        status, headers, _body = visitor.request("GET", url)
        assert status == 200, url
        assert headers["Cache-Control"] == "max-age=315360000, public, immutable", url

    status, headers, body = visitor.request("GET", "/manifest.webmanifest")
    assert (status, headers["Content-Type"]) == (200, "application/manifest+json")
    for icon in json.loads(body)["icons"]:
        assert re.search(r"\.[0-9a-f]{12}\.png$", icon["src"]), icon
        assert visitor.request("GET", icon["src"])[0] == 200


def test_the_pages_link_only_hashed_static_files(production, alice) -> None:
    for path in ("/", f"/parties/{production.partie}/", f"/suivre/{production.token}/"):
        _status, _headers, body = alice.request("GET", path)
        links = re.findall(r'(?:src|href)="(/static/[^"]+)"', body.decode())
        assert links, path
        for url in links:
            assert re.search(r"\.[0-9a-f]{12}\.", url), (path, url)
            assert alice.request("GET", url)[0] == 200, url


def test_static_files_are_served_compressed(production) -> None:
    visitor = Client(production.caddy.port, tls=True)
    _status, _headers, body = visitor.request("GET", "/sw.js")
    queue = json.loads(re.match(rb"self.RAMISCORE = (\{.*?\});\n", body)[1])["queue"]
    status, headers, _body = visitor.request("GET", queue, headers={"Accept-Encoding": "gzip"})
    assert (status, headers["Content-Encoding"]) == (200, "gzip")

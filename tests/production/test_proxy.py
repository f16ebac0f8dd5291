"""Who is believed about the scheme and the visitor's address. X-Forwarded-Proto and
X-Forwarded-For come from the proxy (deploy/Caddyfile, DJANGO_TRUSTED_PROXIES=1) or from no
one: gunicorn.conf.py drops them from any other peer, and believes none with no proxy.
127.0.0.1 is the proxy's address; 127.0.0.2 and up are other machines of the network."""

from __future__ import annotations

import pytest

from tests.production import stack
from tests.production.stack import Client

HSTS = "max-age=31536000; includeSubDomains"
FORGED = {"X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl"}


def test_through_the_proxy_the_request_is_https(production) -> None:
    status, headers, _body = Client(production.caddy.port, tls=True).request("GET", "/")
    assert (status, headers["Strict-Transport-Security"]) == (200, HSTS)


def test_a_forged_scheme_straight_to_gunicorn_changes_nothing(production) -> None:
    port = production.gunicorn.port
    # From the proxy's address, the header is the proxy's: believed.
    status, headers, _body = Client(port).request("GET", "/", headers=FORGED)
    assert (status, headers["Strict-Transport-Security"]) == (200, HSTS)
    # From anyone else, dropped: plain http, sent to https, no HSTS.
    status, headers, _body = Client(port, source="127.0.0.2").request("GET", "/", headers=FORGED)
    assert (status, headers["Location"]) == (301, f"https://localhost:{port}/")
    assert "Strict-Transport-Security" not in headers


@pytest.fixture(scope="module")
def without_proxy(production, tmp_path_factory):
    """The same database and code, served by gunicorn alone: DJANGO_TRUSTED_PROXIES=0, plain
    http (no redirect), as on a LAN."""
    tmp = tmp_path_factory.mktemp("sans-proxy")
    env = production.env | {
        "DJANGO_TRUSTED_PROXIES": "0",
        "DJANGO_SECURE_SSL_REDIRECT": "False",
        "DJANGO_ALLOWED_HOSTS": "localhost",
    }
    with stack.running(stack.gunicorn(tmp, env, "gunicorn-sans-proxy")) as (server,):
        yield server


def test_without_a_proxy_no_forwarded_header_is_believed(production, without_proxy) -> None:
    # gunicorn's own default believes X-Forwarded-Proto/-Ssl/-Protocol from 127.0.0.1.
    alice = Client(without_proxy.port)
    assert alice.login("alice", headers=FORGED) == 302
    status, headers, body = alice.request("GET", f"/parties/{production.partie}/", headers=FORGED)
    assert status == 200
    assert "Strict-Transport-Security" not in headers
    link = f"http://localhost:{without_proxy.port}/suivre/{production.token}/"
    assert f'value="{link}"' in body.decode()


def test_through_the_proxy_the_visitor_address_reaches_the_login_limits(production) -> None:
    port = production.caddy.port
    guesser = Client(port, tls=True, source="127.0.0.3")
    for n in range(5):
        assert guesser.login("bea", "pas-le-bon") == 200, n
    assert guesser.login("bea") == 429
    # Naming another address changes nothing: Caddy writes the one it sees.
    masked = {"X-Forwarded-For": "10.9.9.9"}
    assert Client(port, tls=True, source="127.0.0.3").login("bea", headers=masked) == 429
    # Bea, from her own address (even claiming the guesser's), is not locked out.
    claimed = {"X-Forwarded-For": "127.0.0.3"}
    assert Client(port, tls=True, source="127.0.0.4").login("bea", headers=claimed) == 302


@pytest.fixture(scope="module")
def redirecting_proxy(production, tmp_path_factory):
    """gunicorn behind a proxy that redirects to https itself (DJANGO_SECURE_SSL_REDIRECT off,
    as docs/deploy.md allows), so that plain-http requests reach the login form."""
    tmp = tmp_path_factory.mktemp("proxy-redirige")
    env = production.env | {"DJANGO_SECURE_SSL_REDIRECT": "False"}
    env["DJANGO_ALLOWED_HOSTS"] = "localhost"
    with stack.running(stack.gunicorn(tmp, env, "gunicorn-proxy-redirige")) as (server,):
        yield server


def test_a_forged_address_straight_to_gunicorn_is_dropped(redirecting_proxy) -> None:
    port = redirecting_proxy.port
    # Five failures from 127.0.0.5, each claiming a new address: all counted against it.
    for n in range(5):
        forged = {"X-Forwarded-For": f"10.8.0.{n}"}
        assert Client(port, source="127.0.0.5").login("carl", "x", headers=forged) == 200, n
    forged = {"X-Forwarded-For": "10.8.0.9"}
    assert Client(port, source="127.0.0.5").login("carl", headers=forged) == 429
    # What the proxy (127.0.0.1) reports is believed: another visitor, not locked out.
    reported = {"X-Forwarded-For": "10.8.1.1"}
    assert Client(port).login("carl", headers=reported) == 302

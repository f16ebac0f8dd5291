"""deploy/nginx.conf in front of the same gunicorn, as the other proxy the README offers: the
request is https, the share link too, the visitor's address reaches the login limits whatever
the visitor writes, and what gunicorn is told to ignore (X-Forwarded-Ssl) is dropped."""

from __future__ import annotations

import pytest

from tests.production import stack
from tests.production.conftest import need
from tests.production.stack import Client

HSTS = "max-age=31536000; includeSubDomains"


@pytest.fixture(scope="module")
def nginx(production, tmp_path_factory):
    need("nginx", "nginx")
    need("openssl", "openssl")
    tmp = tmp_path_factory.mktemp("nginx")
    with stack.running(stack.nginx(tmp, production.gunicorn.port)) as (proxy,):
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

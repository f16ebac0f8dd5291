"""Production hardening: the Content Security Policy and the visitor's address
(the login limits themselves are in tests/security/test_login_throttle.py). Cast: alice has an
account."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_partie, make_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)


def test_every_page_carries_the_content_security_policy(client) -> None:
    alice = make_user("alice")
    partie = make_partie(alice)
    assert client.get("/")["Content-Security-Policy"] == POLICY
    client.force_login(alice)
    response = client.get(reverse("partie_detail", args=[partie.pk]))
    assert response["Content-Security-Policy"] == POLICY
    assert response["X-Frame-Options"] == "DENY"


def test_no_template_has_inline_script_or_style() -> None:
    for path in (ROOT / "templates").rglob("*.html"):
        text = re.sub(r"{#.*?#}", "", path.read_text())
        assert not re.search(r"\sstyle=", text), f"{path}: inline style= (the CSP refuses it)"
        assert "<style" not in text, f"{path}: <style> block"
        for tag in re.findall(r"<script[^>]*>", text):
            assert "src=" in tag, f"{path}: inline {tag}"


def test_htmx_is_told_not_to_inject_its_indicator_styles(client) -> None:
    body = client.get("/").content.decode()
    assert '"includeIndicatorStyles": false' in body


def test_the_policy_is_set_in_settings() -> None:
    assert settings.CONTENT_SECURITY_POLICY == POLICY


@pytest.mark.parametrize(
    ("proxies", "forwarded", "remote", "expected"),
    [
        (0, "203.0.113.9", "10.0.0.1", "10.0.0.1"),  # no proxy trusted: the header is ignored
        (1, "203.0.113.9", "10.0.0.1", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "10.0.0.1", "203.0.113.9"),  # client-written part ignored
        (2, "6.6.6.6, 203.0.113.9, 10.0.0.2", "10.0.0.1", "203.0.113.9"),
        (2, "203.0.113.9", "10.0.0.1", "10.0.0.1"),  # fewer hops than proxies: not trusted
    ],
)
def test_the_login_limit_counts_the_visitor_behind_trusted_proxies(
    rf, settings, proxies, forwarded, remote, expected
) -> None:
    from games.login_limits import client_ip

    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR=remote)
    assert client_ip(request) == expected

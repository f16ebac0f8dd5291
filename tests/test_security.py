"""Production hardening from issue #7: the Content Security Policy and the login limit.
Cast: alice has an account; the visitors guessing passwords have none."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache.backends import db as db_cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.login import LIMIT, WINDOW
from tests.factories import make_partie, make_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
TROP = "Trop d&#x27;essais : réessayez dans 15 minutes."


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


def login(client: Client, username: str, password: str, ip: str = "203.0.113.7"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_five_failures_for_a_username_lock_it_for_15_minutes(client) -> None:
    make_user("alice")
    for i in range(LIMIT):
        response = login(client, "alice", "pas-le-bon", ip=f"203.0.113.{i}")
        assert TROP not in response.content.decode()
    # Even the right password is refused now, from a new address, in French.
    response = login(client, "Alice", "cartes-sur-table", ip="198.51.100.1")
    assert response.status_code == 200
    assert TROP in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_five_failures_from_one_address_lock_it(client) -> None:
    for name in ("a1", "a2", "a3", "a4", "a5"):
        login(client, name, "x")
    make_user("bob")
    assert TROP in login(client, "bob", "cartes-sur-table").content.decode()
    assert login(client, "bob", "cartes-sur-table", ip="198.51.100.2").status_code == 302


def test_the_right_password_before_the_limit_clears_the_count(client) -> None:
    make_user("alice")
    for _ in range(LIMIT - 1):
        login(client, "alice", "pas-le-bon", ip="198.51.100.3")
    assert login(client, "alice", "cartes-sur-table", ip="198.51.100.4").status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        login(client, "alice", "pas-le-bon", ip="198.51.100.5")
    assert login(client, "alice", "cartes-sur-table", ip="198.51.100.6").status_code == 302


def test_the_lock_ends_after_the_window(client, monkeypatch) -> None:
    make_user("alice")
    for _ in range(LIMIT):
        login(client, "alice", "pas-le-bon")
    assert TROP in login(client, "alice", "cartes-sur-table").content.decode()
    # 15 minutes later, as the cache (the database's) sees it.
    later = timezone.now() + timedelta(seconds=WINDOW + 1)
    monkeypatch.setattr(db_cache, "tz_now", lambda: later)
    assert login(client, "alice", "cartes-sur-table").status_code == 302


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
    from games.login import client_ip

    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR=remote)
    assert client_ip(request) == expected

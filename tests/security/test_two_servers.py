"""The login and sign-up limits hold across processes. Two real gunicorn servers
(two sync workers each) on two ports share one database, as two machines behind a load
balancer would: a SQLite file, or, when DATABASE_URL is set, a fresh PostgreSQL database on
that server; and one cache, the database's, or, when REDIS_URL is set, that Redis (emptied
first). Each runs the production settings (DEBUG off) with one trusted proxy, so that a
visitor's address is the X-Forwarded-For the test writes (tests/security/server_settings.py
only makes passwords quick to check).

The visitors alternate between the servers; the counters must not care. Cast: dora, erin,
frank, gina and vanessa have accounts (password "cartes-sur-table"), and so has vaneßa, an
account created before usernames were compared by key (as migration 0012 leaves it: flagged,
its key vanessa's followed by its id); the guessers come from 10.x addresses."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.production.stack import postgres_database

ROOT = Path(__file__).resolve().parents[2]
RIGHT = "cartes-sur-table"
GUNICORN = Path(sys.executable).parent / "gunicorn"
USERS = ("dora", "erin", "frank", "gina", "hugo", "vanessa")
# An account that shared vanessa's key before keys were unique (games/usernames.py).
LEGACY = f"""
from django.contrib.auth.models import User
from games.models import UsernameKey
user = User.objects.create_user("legacy", password={RIGHT!r})
User.objects.filter(pk=user.pk).update(username="vaneßa")
UsernameKey.objects.filter(user=user).update(key=f"vanessa #{{user.pk}}", flagged=True)
"""
# The servers' environment, for the test's own manage.py commands against their database.
ENVIRONMENT: dict[str, str] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """A browser with a cookie jar, talking to one server or the other. It sends every cookie
    it holds (the production cookies are Secure; the test speaks plain HTTP to 127.0.0.1)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, port: int, method: str, path: str, form: dict[str, str] | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"X-Forwarded-For": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode(errors="replace")  # a PDF is bytes
        self.last_set_cookies = response.headers.get_all("Set-Cookie") or []
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        conn.close()
        return response.status, text

    def post_form(self, port: int, path: str, fields: dict[str, str]) -> tuple[int, str]:
        status, page = self.request(port, "GET", path)
        assert status == 200, page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page
        return self.request(port, "POST", path, {"csrfmiddlewaretoken": token[1], **fields})

    def login(self, port: int, username: str, password: str) -> int:
        status, _page = self.post_form(
            port, "/comptes/connexion/", {"username": username, "password": password}
        )
        return status


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[tuple[int, int]]:
    tmp = tmp_path_factory.mktemp("deux-serveurs")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "tests.security.server_settings",
        "DJANGO_DEBUG": "False",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "False",
        "DJANGO_TRUSTED_PROXIES": "1",
        "SQLITE_NAME": str(tmp / "deux-serveurs.sqlite3"),
        "PYTHONPATH": str(ROOT),
    }
    drop = None
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"], drop = postgres_database(os.environ["DATABASE_URL"], "deux_serveurs")
    manage(env, "migrate", "--no-input")
    manage(env, "createcachetable")
    create = "from django.contrib.auth.models import User\n" + "\n".join(
        f"User.objects.create_user({name!r}, password={RIGHT!r})" for name in USERS
    )
    manage(env, "shell", "-c", create)
    manage(env, "shell", "-c", LEGACY)
    manage(env, "shell", "-c", "from django.core.cache import cache; cache.clear()")
    ENVIRONMENT.update(env)
    ports = (free_port(), free_port())
    processes = [
        subprocess.Popen(
            [str(GUNICORN), "ramiscore.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / f"gunicorn-{port}.log", "w"),  # noqa: SIM115
        )
        for port in ports
    ]
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if Browser("127.0.0.1").request(port, "GET", "/sante/")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, (tmp / f"gunicorn-{port}.log").read_text()
                time.sleep(0.2)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
        if drop:
            drop()


def test_five_failures_from_one_address_hold_across_both_servers(servers) -> None:
    guesser = Browser("10.1.0.1")
    for n in range(5):
        assert guesser.login(servers[n % 2], "dora", "pas-le-bon") == 200, n
    for port in servers:
        assert guesser.login(port, "dora", RIGHT) == 429
    # The guesser has not locked dora out: from her own address, on either server, she logs in.
    assert Browser("10.1.0.2").login(servers[1], "dora", RIGHT) == 302


def test_a_username_gets_thirty_failures_at_once_across_both_servers(servers) -> None:
    # Then a lock of 3 s, growing by 3 s with each failure (games/login_limits.py USER): the next
    # request, a few milliseconds later, is refused.
    for n in range(30):
        guesser = Browser(f"10.2.0.{n}")
        assert guesser.login(servers[n % 2], "erin", "pas-le-bon") == 200, n
    for port in servers:
        assert Browser("10.2.1.1").login(port, "erin", RIGHT) == 429


def test_a_look_alike_username_shares_the_counter_across_both_servers(servers) -> None:
    # Thirty guesses under five spellings spend gina's allowance; then no spelling gets a check.
    spellings = ("gina", "GINA", "ｇina", "Gina", "ｇｉｎａ")
    for n in range(30):
        guess = Browser(f"10.3.0.{n}").login(servers[n % 2], spellings[n % 5], "pas-le-bon")
        assert guess == 200, n
    for n, spelling in enumerate(spellings):
        assert Browser(f"10.3.1.{n}").login(servers[n % 2], spelling, RIGHT) == 429
    # Five failures from one address under five spellings lock that address out of dora.
    guesser = Browser("10.3.2.1")
    for n, spelling in enumerate(("dora", "DORA", "ｄora", "Dora", "ｄｏｒａ")):
        assert guesser.login(servers[n % 2], spelling, "pas-le-bon") == 200
    assert guesser.login(servers[1], "ｄｏｒａ", RIGHT) == 429


def test_the_owner_with_her_device_cookie_logs_in_during_an_attack(servers) -> None:
    phone = Browser("10.4.0.1")
    assert phone.login(servers[0], "frank", RIGHT) == 302
    assert "rami_appareil" in phone.cookies
    phone.cookies.pop("sessionid")  # logged out; the device cookie stays
    for n in range(60):
        Browser(f"10.4.1.{n}").login(servers[n % 2], "frank", "pas-le-bon")
    assert Browser("10.4.2.1").login(servers[0], "frank", RIGHT) == 429
    assert phone.login(servers[1], "frank", RIGHT) == 302
    status, page = phone.request(servers[0], "GET", "/")
    assert status == 200 and "frank" in page


def test_sign_up_is_limited_per_address_across_both_servers(servers) -> None:
    password = "un-long-mot-de-passe-42"
    for n in range(5):
        status, _page = Browser("10.5.0.1").post_form(
            servers[n % 2],
            "/comptes/inscription/",
            {"username": f"joueur{n}", "password1": password, "password2": password},
        )
        assert status == 302, n
    status, page = Browser("10.5.0.1").post_form(
        servers[1],
        "/comptes/inscription/",
        {"username": "joueur5", "password1": password, "password2": password},
    )
    assert status == 429
    assert "Trop de comptes créés depuis cette adresse : réessayez dans 12 minutes." in page


def sign_up(browser: Browser, port: int, username: str) -> tuple[int, str]:
    password = "un-long-mot-de-passe-42"
    return browser.post_form(
        port,
        "/comptes/inscription/",
        {"username": username, "password1": password, "password2": password},
    )


def test_a_name_colliding_with_an_account_is_refused_at_sign_up(servers) -> None:
    for n, name in enumerate(("vaneßa", "VANESSA", "ｖanessa")):
        status, page = sign_up(Browser("10.6.0.1"), servers[n % 2], name)
        assert status == 200, name
        assert "Ce nom d&#x27;utilisateur est déjà pris" in page, name


def test_a_colliding_account_no_longer_refills_the_victims_counter(servers) -> None:
    """The attack of a colliding name: four guesses at vanessa's password, then a login into
    one's own account vaneßa (same key before) with its own password, in one browser, again
    and again. It got 48 checks in 79 s, never refused; now five, the sixth is refused."""
    attacker = Browser("10.6.1.1")
    checks, refused_at = 0, None
    for round_ in range(4):
        for _ in range(4):
            status = attacker.login(servers[checks % 2], "vanessa", "pas-le-bon")
            if status == 429:
                refused_at = checks
                break
            assert status == 200
            checks += 1
        if refused_at is not None:
            break
        assert attacker.login(servers[round_ % 2], "vaneßa", RIGHT) == 302
        # His device cookie is for his account, by its id: ASCII, and not vanessa's.
        assert attacker.cookies["rami_appareil"].isascii()
        attacker.cookies.pop("sessionid")
    assert refused_at == 5
    assert attacker.login(servers[0], "vanessa", RIGHT) == 429
    # vanessa herself, from her own address, is not locked out.
    assert Browser("10.6.1.2").login(servers[1], "vanessa", RIGHT) == 302


@pytest.mark.parametrize("username", ["саrol", "ırene", "İrene"])
def test_a_non_latin_username_signs_up_and_logs_in(servers, username) -> None:
    # The device cookie used to carry the typed name: gunicorn refused the non-Latin-1 header
    # with a 400 and an empty body.
    phone = Browser(f"10.7.0.{len(username.encode())}")
    status, _page = sign_up(phone, servers[0], username)
    assert status == 302
    assert all(h.isascii() for h in phone.last_set_cookies)
    phone.cookies.pop("sessionid")
    assert phone.login(servers[1], username, "un-long-mot-de-passe-42") == 302
    status, page = phone.request(servers[0], "GET", "/")
    assert status == 200 and username in page
    # A new browser too (no device cookie).
    assert Browser("10.7.1.1").login(servers[1], username, "un-long-mot-de-passe-42") == 302


def test_a_pdf_rendered_once_is_served_by_both_servers(servers) -> None:
    """The kept PDF lives in the one cache (Redis when REDIS_URL is set): until the task runner
    has rendered it, both servers say it is being prepared (and render nothing themselves);
    once rendered, both serve the same file."""
    made = manage(
        ENVIRONMENT,
        "shell",
        "-c",
        "from django.contrib.auth.models import User\n"
        "from tests.factories import make_partie\n"
        "print(make_partie(User.objects.get(username='hugo')).pk)",
    )
    pk = int(made.split()[-1])
    pdf = f"/parties/{pk}/marque.pdf"
    hugo = Browser("10.6.0.1")
    assert hugo.login(servers[1], "hugo", RIGHT) == 302
    for port in servers:
        status, page = hugo.request(port, "GET", pdf)
        assert status == 503 and "PDF en préparation" in page
    # The task runner's render, as db_worker runs it (games/tasks.py).
    render = f"from games.tasks import render_sheet_pdf; print(render_sheet_pdf.call({pk}, 'fr'))"
    assert manage(ENVIRONMENT, "shell", "-c", render).split()[-1] == "rendered"
    for port in servers:
        status, page = hugo.request(port, "GET", pdf)
        assert status == 200 and page.startswith("%PDF-")

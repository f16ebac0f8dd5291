"""ramiscore started as the README and docs/deploy.md say, for the production tests: the
production settings (DEBUG off, a strong secret, the manifest static storage over a real
collectstatic), gunicorn with the repository's gunicorn.conf.py, and Debian's Caddy with the
repository's deploy/Caddyfile in front, terminating TLS with its own local authority.

Each piece is a Service: a command, its environment, the port it answers on, and its log
(shown when it does not come up). Another process (a task worker) is one more Service, with
port 0 when it answers no HTTP: add it to the `running(...)` of tests/production/conftest.py."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
RIGHT = "cartes-sur-table"


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """Distinct free ports: each socket stays bound until all are taken (a port asked for just
    after another was let go can be the same one, and Caddy then serves http and https on one
    port: plain HTTP where the tests expect TLS)."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]


@dataclass
class Service:
    name: str
    command: list[str]
    env: dict[str, str]
    port: int
    log: Path
    tls: bool = False
    process: subprocess.Popen | None = field(default=None, repr=False)

    def start(self) -> None:
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        if not self.port:
            # A process that serves no HTTP (a task worker): up when it has not stopped at once.
            time.sleep(1)
            assert self.process.poll() is None, f"{self.name} stopped:\n{self.log.read_text()}"
            return
        deadline = time.monotonic() + 30
        error: Exception | None = None
        while True:
            assert self.process.poll() is None, f"{self.name} stopped:\n{self.log.read_text()}"
            try:
                status = Client(self.port, tls=self.tls).request("GET", "/sante/")[0]
                if status == 200:
                    return
                error = AssertionError(f"status {status}")
            except (OSError, ssl.SSLError, http.client.HTTPException) as failed:
                error = failed
            assert time.monotonic() < deadline, f"{self.name}: {error}\n{self.log.read_text()}"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Client:
    """A browser with a cookie jar, over http or https (any certificate: the test's own), from
    a chosen loopback address (127.0.0.2 is not the proxy's 127.0.0.1)."""

    def __init__(
        self, port: int, *, tls: bool = False, source: str = "127.0.0.1", host: str = ""
    ) -> None:
        self.port, self.tls, self.source = port, tls, source
        self.host = host or f"localhost:{port}"
        self.cookies: dict[str, str] = {}

    def _connection(self) -> http.client.HTTPConnection:
        source = (self.source, 0)
        if self.tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            return http.client.HTTPSConnection(
                "127.0.0.1", self.port, timeout=60, context=context, source_address=source
            )
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=source)

    def request(
        self,
        method: str,
        path: str,
        form: dict | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        conn = self._connection()
        sent = {"Host": self.host, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)  # a list: the field repeated
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            scheme = "https" if self.tls else "http"
            sent.setdefault("Origin", f"{scheme}://{self.host}")
            sent.setdefault("Referer", f"{scheme}://{self.host}{path}")
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        content = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        conn.close()
        return response.status, response.headers, content

    def post_form(self, path: str, fields: dict, **kwargs):
        """The form of ``path`` posted with its CSRF token, as a browser would."""
        status, _headers, page = self.request("GET", path, **kwargs)
        assert status == 200, (status, page[:500])
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page[:500]
        fields = {"csrfmiddlewaretoken": token[1].decode(), **fields}
        return self.request("POST", path, fields, **kwargs)

    def login(self, username: str, password: str = RIGHT, **kwargs) -> int:
        fields = {"username": username, "password": password}
        return self.post_form("/comptes/connexion/", fields, **kwargs)[0]


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def postgres_database(url: str, suffix: str) -> tuple[str, object]:
    """A fresh database next to DATABASE_URL's, and the function that drops it."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    name = f"{config['NAME']}_{suffix}"
    params = {
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    admin = psycopg.connect(**{k: v for k, v in params.items() if v is not None})
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return urlunsplit(urlsplit(url)._replace(path=f"/{name}")), drop


def production_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The README's environment: nothing of the developer's DJANGO_* settings leaks in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "GUNICORN_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "ramiscore.settings",
        "DJANGO_DEBUG": "False",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_STATIC_ROOT": str(tmp / "staticfiles"),
        "SQLITE_NAME": str(tmp / "ramiscore.sqlite3"),
        "PYTHONPATH": str(ROOT),
    }
    return env | extra


def gunicorn(tmp: Path, env: dict[str, str], name: str = "gunicorn") -> Service:
    """gunicorn as the README starts it: no option on the command line, gunicorn.conf.py's."""
    port = free_port()
    env = env | {"GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2"}
    return Service(name, [str(BIN / "gunicorn")], env, port, tmp / f"{name}.log")


def db_worker(tmp: Path, env: dict[str, str]) -> Service:
    """The task runner beside gunicorn, as docs/deploy.md starts it: it renders the PDFs."""
    command = [str(BIN / "python"), "manage.py", "db_worker", "--no-reload"]
    return Service("db_worker", command, env, 0, tmp / "db_worker.log")


def caddy(tmp: Path, upstream: int, marks: str = "") -> Service:
    """deploy/Caddyfile as shipped, its variables set for a test: Caddy's internal authority
    for localhost, on free ports of 127.0.0.1, its state under tmp, its root trusted nowhere;
    ``marks``, the follow marks' folder the app servers write (games/follow_marks.py)."""
    port, http_port = free_ports(2)
    options = "\n".join(
        [
            "admin off",
            # The tests' clients connect to 127.0.0.1 and name no server (no SNI).
            "default_sni localhost",
            "skip_install_trust",
            f"http_port {http_port}",
            f"https_port {port}",
        ]
    )
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG")}
    env |= {
        "HOME": str(tmp),
        "XDG_DATA_HOME": str(tmp / "xdg-data"),
        "XDG_CONFIG_HOME": str(tmp / "xdg-config"),
        "CADDY_OPTIONS": options,
        "RAMISCORE_DOMAIN": "localhost",
        "RAMISCORE_TLS": "tls internal",
        "RAMISCORE_SITE_OPTIONS": "bind 127.0.0.1",
        "RAMISCORE_UPSTREAM": f"127.0.0.1:{upstream}",
    }
    if marks:
        env["RAMISCORE_FOLLOW_MARKS"] = marks
    command = [CADDY, "run", "--config", str(ROOT / "deploy/Caddyfile"), "--adapter", "caddyfile"]
    return Service("caddy", command, env, port, tmp / "caddy.log", tls=True)


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx(tmp: Path, upstream: int, marks: str = "") -> Service:
    """deploy/nginx.conf with what an operator replaces replaced: the name (localhost), a
    self-signed certificate, free ports of 127.0.0.1, gunicorn's port, the follow marks'
    folder (``marks``, the app servers'; none without). The rest as shipped."""
    port, http_port = free_ports(2)
    cert, key = tmp / "localhost.crt", tmp / "localhost.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for old, new in [
        ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("/etc/letsencrypt/live/rami.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/rami.example.org/privkey.pem", str(key)),
        ("rami.example.org", "localhost"),
        ("http://127.0.0.1:8001", f"http://127.0.0.1:{upstream}"),
        ("/var/lib/ramiscore/follow-marks/", f"{marks or tmp / 'no-marks'}/"),
    ]:
        assert old in site, old
        site = site.replace(old, new)
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (tmp / "ramiscore.conf").write_text(site)
    temp = tmp / "nginx-temp"
    temp.mkdir()
    main = f"""
daemon off;
pid {tmp}/nginx.pid;
error_log stderr;
events {{}}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {tmp}/ramiscore.conf;
}}
"""
    if os.geteuid() == 0:
        main = "user root;\n" + main  # the workers read the test's files
    (tmp / "nginx-main.conf").write_text(main)
    command = [NGINX, "-c", str(tmp / "nginx-main.conf"), "-p", str(tmp)]
    env = {"PATH": os.environ.get("PATH", "")}
    return Service("nginx", command, env, port, tmp / "nginx.log", tls=True)


SEED = """
import json
from django.contrib.auth.models import User
from games import services
from tests.factories import hand, make_partie, play
alice = User.objects.create_user("alice", password={right!r})
for name in ("bea", "carl", "dora"):
    User.objects.create_user(name, password={right!r})
partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé", "David"], name="Mardi soir")
play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7), David=hand(points=30))
play(partie, "Bruno", "rami", Anne=hand(points=4), Chloé=hand(points=5), David=hand(points=6))
services.partie_share(partie=partie)
partie.refresh_from_db()
print(json.dumps({{"partie": partie.pk, "token": partie.share_token}}))
"""


def seed(env: dict[str, str]) -> dict:
    import json

    out = manage(env, "shell", "-c", SEED.format(right=RIGHT))
    return json.loads(out.strip().splitlines()[-1])


@contextlib.contextmanager
def running(*services: Service):
    started: list[Service] = []
    try:
        for service in services:
            started.append(service)
            service.start()
        yield services
    finally:
        for service in reversed(started):
            service.stop()

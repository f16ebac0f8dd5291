"""What the measures talk to: the site prepared in the temporary directory (migrated, static
files collected), gunicorn on 127.0.0.1 as the README runs it in production, a keep-alive HTTP
client for it, and Django's test client logged in as the owner."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlencode

from bench.app import Client, User, call_command
from bench.environment import HOST, ROOT

WORKERS = 3


def prepare() -> None:
    """The fresh database migrated and the static files collected, both in the temporary
    directory (bench/environment.py)."""
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)


def test_client(owner: User, page: str) -> tuple[Client, dict[str, str]]:
    """The test client logged in as ``owner``, with the CSRF cookie set by a visit to ``page``,
    and its cookies for the clients of gunicorn."""
    client = Client(HTTP_HOST=HOST)
    client.force_login(owner)
    client.get(page)  # sets the CSRF cookie
    return client, {name: morsel.value for name, morsel in client.cookies.items()}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    # The README's production command: gunicorn with 3 sync workers.
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "ramiscore.wsgi",
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        str(WORKERS),
        "--chdir",
        str(ROOT),
        "--log-level",
        "warning",
    ]
    server = subprocess.Popen(command, env=os.environ.copy())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/sante/")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def stop_server(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextmanager
def served(rounds: int) -> Iterator[int]:
    """gunicorn on a free port for one of the short benches (bench/home.py, bench/page.py,
    bench/record.py): its port, and the server stopped on the way out, whatever happened."""
    port = free_port()
    server = start_server(port)
    print(f"gunicorn on http://{HOST}:{port}/ ({WORKERS} workers), {rounds} rounds")
    try:
        yield port
    finally:
        stop_server(server)


def check(status: int, expected: int, what: str) -> None:
    if status != expected:
        raise SystemExit(f"{what}: status {status}, expected {expected}")


class Http:
    """A keep-alive client on one connection (gunicorn's sync workers close it after each
    response; http.client then opens a new one, as a browser would)."""

    def __init__(self, port: int, cookies: dict[str, str], timeout: float = 60):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
        self.headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "Accept-Language": "fr",
            "X-CSRFToken": cookies.get("csrftoken", ""),
        }

    def request(
        self,
        method: str,
        url: str,
        body: dict[str, str] | None = None,
        *,
        retry: bool = True,
        **headers: str,
    ) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body. A connection the server dropped is tried again once, unless
        ``retry`` is off (a request that may itself have made the server drop it)."""
        all_headers = {**self.headers, **headers}
        payload = None
        if body is not None:
            payload = urlencode(body)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        attempts = 2 if retry else 1
        for attempt in range(1, attempts + 1):
            try:
                self.conn.request(method, url, payload, all_headers)
                response = self.conn.getresponse()
                content = response.read()
                return response.status, dict(response.getheaders()), content
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                if attempt == attempts:
                    raise
        raise AssertionError("unreachable")

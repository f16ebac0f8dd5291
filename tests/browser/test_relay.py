"""tests/browser/relay.py: the cut network of the offline tests really is cut."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest

from tests.browser import relay as relay_module
from tests.browser.relay import Relay


@pytest.fixture
def echo() -> Iterator[int]:
    """A server on a free port that sends back whatever it receives."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _address = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    def answer(conn: socket.socket) -> None:
        with contextlib.suppress(OSError), conn:
            while data := conn.recv(1024):
                conn.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    with contextlib.suppress(OSError):
        listener.shutdown(socket.SHUT_RDWR)
    listener.close()


def _through(port: int) -> socket.socket:
    client = socket.socket()
    client.settimeout(5)
    client.connect(("127.0.0.1", port))
    return client


def test_what_goes_through_the_relay_comes_back(echo: int) -> None:
    relay = Relay(echo)
    relay.start()
    try:
        with _through(relay.port) as client:
            client.sendall(b"donne 1")
            assert client.recv(1024) == b"donne 1"
    finally:
        relay.stop()


def test_a_connection_accepted_as_the_network_is_cut_is_cut_too(echo, monkeypatch) -> None:
    """Accepted before the cut, connected to the server after it: the page must not reach
    the server through it (a browser reuses an open connection for its next request)."""
    accepted, cut = threading.Event(), threading.Event()
    connect = socket.create_connection

    def connect_after_the_cut(address, *args, **kwargs):
        accepted.set()
        cut.wait(5)
        return connect(address, *args, **kwargs)

    monkeypatch.setattr(relay_module.socket, "create_connection", connect_after_the_cut)
    relay = Relay(echo)
    relay.start()
    with _through(relay.port) as client:
        assert accepted.wait(5)
        relay.stop()
        cut.set()
        with contextlib.suppress(OSError):  # the relay may reset it before the send
            client.sendall(b"donne 2")
        try:
            answer = client.recv(1024)
        except ConnectionResetError:
            answer = b""
    assert answer == b""

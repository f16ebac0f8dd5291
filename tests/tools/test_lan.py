"""`make lan` (tools/lan.py): the address the phones open, the environment that lets Django
answer to it, and a QR code that holds exactly that address."""

from __future__ import annotations

import segno

from tools.lan import banner, lan_env, pick_address, qr_text

# Each character of the terminal code holds two modules, top and bottom (True: light).
HALVES = {"█": (True, True), " ": (False, False), "▀": (True, False), "▄": (False, True)}


def test_the_home_network_address_is_preferred() -> None:
    # The first is the one of the default route (local_candidates asks the system first).
    assert pick_address(["127.0.1.1", "192.168.1.20", "172.17.0.1"]) == "192.168.1.20"
    assert pick_address(["127.0.0.1", "81.250.1.2", "10.0.0.7"]) == "10.0.0.7"
    assert pick_address(["::1", "fe80::1", "169.254.3.4", "0.0.0.0", "192.168.1.20"]) == (
        "192.168.1.20"
    )


def test_a_public_address_when_no_private_one_and_loopback_without_network() -> None:
    assert pick_address(["127.0.0.1", "81.250.1.2"]) == "81.250.1.2"
    assert pick_address(["127.0.0.1", "pas-une-adresse"]) == "127.0.0.1"
    assert pick_address([]) == "127.0.0.1"


def test_django_is_told_the_lan_host_and_origin() -> None:
    env = lan_env({"PATH": "/usr/bin"}, "192.168.1.20", 8000)
    assert env == {
        "PATH": "/usr/bin",
        "DJANGO_DEBUG": "True",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,[::1],192.168.1.20",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "http://192.168.1.20:8000",
    }


def test_what_the_operator_set_is_kept_and_nothing_doubled() -> None:
    base = {
        "DJANGO_DEBUG": "False",
        "DJANGO_ALLOWED_HOSTS": "rami.local,192.168.1.20",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "http://rami.local:8000",
    }
    assert lan_env(base, "192.168.1.20", 8000) == {
        "DJANGO_DEBUG": "False",
        "DJANGO_ALLOWED_HOSTS": "rami.local,192.168.1.20",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "http://rami.local:8000,http://192.168.1.20:8000",
    }


def test_the_terminal_qr_code_holds_the_address() -> None:
    url = "http://192.168.1.20:8000/"
    lines = qr_text(url).splitlines()
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALVES[c] for c in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    border = 2
    symbol = segno.make(url, error="m")
    size = len(symbol.matrix)
    drawn = [row[border : border + size] for row in rows[border : border + size]]
    assert drawn == [[not dark for dark in row] for row in symbol.matrix]
    assert symbol.designator == "2-M"  # a small code, easy for a phone's camera


def test_the_banner_names_the_address_before_the_code() -> None:
    url = "http://192.168.1.20:8000/"
    text = banner(url)
    assert text.startswith("\n  ramiscore sur le wifi de la maison : http://192.168.1.20:8000/\n")
    assert qr_text(url) in text

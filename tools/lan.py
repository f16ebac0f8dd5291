"""`make lan`: ramiscore on the home wifi. Finds this machine's address on the local network,
lets Django answer to it (ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS), prints the address and a QR
code for the phones at the table, then serves on every interface.

Plain http, as `make run` (the development server, DEBUG on): everything works but the
service worker, which browsers allow only over HTTPS or on localhost (docs/deploy.md says how
to add HTTPS at home)."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import socket
import sys
from pathlib import Path

import segno

ROOT = Path(__file__).resolve().parents[1]


def local_candidates() -> list[str]:
    """The addresses this machine might have on the wifi. A UDP socket "connected" to an
    outside address sends nothing, but the system picks the interface it would use."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing is sent
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    return found


def pick_address(candidates: list[str]) -> str:
    """The first private IPv4 address (the home network's), else the first one that is not
    loopback, else 127.0.0.1 (no network: only this machine)."""
    usable = []
    for text in candidates:
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_unspecified or address.is_link_local):
            usable.append(address)
    private = [a for a in usable if a.is_private]
    chosen = (private or usable or [ipaddress.IPv4Address("127.0.0.1")])[0]
    return str(chosen)


def lan_env(base: dict[str, str], address: str, port: int) -> dict[str, str]:
    """The environment of the server: the hosts and origin of the LAN address added to what
    the operator already set."""
    hosts = [h for h in base.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    hosts = hosts or ["127.0.0.1", "localhost", "[::1]"]
    origins = [o for o in base.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
    origin = f"http://{address}:{port}"
    return base | {
        "DJANGO_DEBUG": base.get("DJANGO_DEBUG") or "True",
        "DJANGO_ALLOWED_HOSTS": ",".join([*hosts, *([address] if address not in hosts else [])]),
        "DJANGO_CSRF_TRUSTED_ORIGINS": ",".join(
            [*origins, *([origin] if origin not in origins else [])]
        ),
    }


def qr_text(url: str) -> str:
    """The QR code of the address, for a terminal: two rows of modules per line, a light
    module a character's ink (the usual light text on a dark terminal), in a light frame."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def banner(url: str) -> str:
    return (
        f"\n  ramiscore sur le wifi de la maison : {url}\n"
        "  (les téléphones sur le même wifi ouvrent cette adresse, ou scannent le code)\n\n"
        f"{qr_text(url)}\n"
    )


def main() -> None:
    port = int(os.environ.get("PORT", "8000"))
    address = pick_address(local_candidates())
    url = f"http://{address}:{port}/"
    env = lan_env(dict(os.environ), address, port)
    sys.stdout.write(banner(url))
    sys.stdout.flush()
    command = [sys.executable, "manage.py", "runserver", f"0.0.0.0:{port}"]
    os.chdir(ROOT)
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main()

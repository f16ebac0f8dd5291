"""The container's health check (Dockerfile HEALTHCHECK): GET /sante/ from gunicorn itself,
over plain http (exempt from the HTTPS redirect), naming a host the app answers to: Django
refuses any other with a 400 (DJANGO_ALLOWED_HOSTS). Exit 0 when it answers 200."""

from __future__ import annotations

import os
import sys
import urllib.request


def main() -> int:
    port = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000").rsplit(":", 1)[-1]
    hosts = os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")
    host = hosts[0].strip().lstrip(".") if hosts[0].strip() not in ("", "*") else "localhost"
    request = urllib.request.Request(f"http://127.0.0.1:{port}/sante/", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=4) as response:  # noqa: S310 - our own
            return 0 if response.status == 200 else 1
    except OSError as error:
        print(f"/sante/: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

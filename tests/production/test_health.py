"""The image's health check (Dockerfile HEALTHCHECK, deploy/healthcheck.py), run against
gunicorn on the production settings: /sante/ answers over plain http, naming an allowed
host, where every other page is sent to https."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.production.stack import ROOT, Client


def health(env: dict[str, str]) -> subprocess.CompletedProcess:
    dockerfile = (ROOT / "Dockerfile").read_text()
    command = re.search(r'\n    CMD \["python", "(deploy/healthcheck\.py)"\]\n', dockerfile)[1]
    return subprocess.run(
        [sys.executable, str(ROOT / command)], env=env, capture_output=True, timeout=30
    )


def test_the_image_health_check_passes_against_production_gunicorn(production) -> None:
    env = production.env | {"GUNICORN_BIND": f"0.0.0.0:{production.gunicorn.port}"}
    assert health(env).returncode == 0
    # A host the server does not answer to fails the check: hence the first allowed one.
    refused = health(env | {"DJANGO_ALLOWED_HOSTS": "rami.example.org"})
    assert (refused.returncode, refused.stderr) == (1, b"/sante/: HTTP Error 400: Bad Request\n")


def test_only_the_health_check_is_answered_over_plain_http(production) -> None:
    status, headers, _body = Client(production.gunicorn.port).request("GET", "/comptes/connexion/")
    assert (status, headers["Location"]) == (
        301,
        f"https://localhost:{production.gunicorn.port}/comptes/connexion/",
    )

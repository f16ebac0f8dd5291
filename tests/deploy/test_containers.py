"""The container files read together: no engine runs containers on the test machine, so what
is checked is what would break them: the variables compose.yaml sets are ones the app,
gunicorn.conf.py or deploy/Caddyfile read; Caddy, gunicorn and the health check agree on
ports and paths; the image never runs as root. Caddy itself parses deploy/Caddyfile with the
variables compose.yaml gives it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.production.stack import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()
CADDYFILE = (ROOT / "deploy" / "Caddyfile").read_text()
READ = "\n".join(
    (ROOT / name).read_text() for name in ("ramiscore/settings.py", "gunicorn.conf.py")
)


def service(name: str) -> str:
    """The lines of one service of compose.yaml (two-space indented, under services:)."""
    block = re.search(rf"\n  {name}:\n((?:    .*\n|\n)+)", COMPOSE)
    assert block, name
    return block[1]


def environment(name: str) -> dict[str, str]:
    block = re.search(r"    environment:\n((?:      .*\n)+)", service(name))
    assert block, name
    pairs = re.findall(r"^      ([A-Z_]+): (.*)$", block[1], re.MULTILINE)
    return {key: value.strip('"') for key, value in pairs}


def test_compose_has_the_app_postgresql_redis_and_caddy() -> None:
    names = re.findall(r"^  ([a-z]+):$", COMPOSE.split("\nnetworks:")[0], re.MULTILINE)
    assert names == ["web", "db", "redis", "caddy"]
    assert "    build: .\n" in service("web")
    assert "    image: postgres:15-bookworm\n" in service("db")
    assert "    image: redis:7-bookworm\n" in service("redis")
    # A cache with a bound, evicting the least recently used (docs/deploy.md "Redis").
    assert '"--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru"' in service("redis")
    assert "      - ./deploy/Caddyfile:/etc/caddy/Caddyfile:ro\n" in service("caddy")


def test_every_variable_given_to_the_app_is_one_it_reads() -> None:
    web = environment("web")
    for key in web:
        assert re.search(rf'"{key}"', READ), key
    assert web["DATABASE_URL"].endswith("@db:5432/ramiscore")
    assert web["REDIS_URL"] == "redis://redis:6379/0"
    assert web["DJANGO_TRUSTED_PROXIES"] == "1"


def test_only_caddy_is_believed_and_caddy_reaches_gunicorn() -> None:
    caddy_address = re.search(r"ipv4_address: (\S+)", service("caddy"))[1]
    assert environment("web")["FORWARDED_ALLOW_IPS"] == caddy_address
    caddy = environment("caddy")
    assert caddy["RAMISCORE_UPSTREAM"] == "web:8000"
    assert "GUNICORN_BIND=0.0.0.0:8000" in DOCKERFILE
    assert "EXPOSE 8000\n" in DOCKERFILE
    # Each variable Caddy is given is one deploy/Caddyfile reads.
    for key in caddy:
        assert "{$" + key in CADDYFILE, key


def test_caddy_reads_the_follow_marks_the_app_writes() -> None:
    folder = "/var/lib/ramiscore/follow-marks"
    assert environment("web")["RAMISCORE_FOLLOW_MARKS"] == folder
    assert environment("caddy")["RAMISCORE_FOLLOW_MARKS"] == folder
    assert f"      - follow-marks:{folder}\n" in service("web")
    assert f"      - follow-marks:{folder}:ro\n" in service("caddy")
    # The volume starts as the image's folder: the app's user owns it.
    assert f"install -d -o ramiscore -m 0750 {folder}" in DOCKERFILE


def test_the_image_runs_gunicorn_as_a_user_with_a_health_check() -> None:
    assert DOCKERFILE.startswith("# ramiscore in a container")
    assert re.search(r"^FROM python:3\.11-slim", DOCKERFILE, re.MULTILINE)
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"):
        assert package in DOCKERFILE
    users = re.findall(r"^USER (\S+)$", DOCKERFILE, re.MULTILINE)
    assert users == ["ramiscore"]
    # collectstatic at build, before the switch to the user (who may write nothing there).
    collect = DOCKERFILE.index("RUN python manage.py collectstatic --no-input\n")
    assert collect < DOCKERFILE.index("USER ramiscore\n")
    assert (ROOT / "deploy" / "healthcheck.py").exists()
    assert 'ENTRYPOINT ["deploy/entrypoint.sh"]\n' in DOCKERFILE
    assert DOCKERFILE.rstrip().endswith('CMD ["gunicorn"]')
    assert os.access(ROOT / "deploy" / "entrypoint.sh", os.X_OK)


def test_nothing_of_the_developer_goes_into_the_image() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for path in (".git", ".venv", "db.sqlite3", "staticfiles", "screenshots"):
        assert path in ignored


def test_caddy_parses_the_caddyfile_with_what_compose_gives_it() -> None:
    if not shutil.which("caddy"):
        if os.environ.get("CI") == "true":
            pytest.fail("caddy is missing: install it with `apt-get install -y caddy`.")
        pytest.skip("caddy is missing: install it with `apt-get install -y caddy`.")
    env = {"PATH": os.environ["PATH"], "HOME": "/nonexistent"}
    env |= {"RAMISCORE_DOMAIN": "rami.example.org", "RAMISCORE_UPSTREAM": "web:8000"}
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(ROOT / "deploy/Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode == 0, adapted.stderr
    assert '"host":["rami.example.org"]' in adapted.stdout
    assert '"upstreams":[{"dial":"web:8000"}]' in adapted.stdout
    assert '"buffer_requests":true' in adapted.stdout
    assert '"max_size":10000000' in adapted.stdout

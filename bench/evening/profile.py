"""Where the time of the cheapest answers goes: /sante/ and the unchanged share poll (a 304
from the cache), each asked N times of ramiscore.wsgi's application (what gunicorn calls: the
share poll's gate, games/follow_gate.py, then Django) in this process with the production
settings of the bench (bench/environment.py), under cProfile. Prints the time of a request
without and with the profiler, and the share of each part's own time: Django's subpackages
(handlers, middleware, URLs, templates…), ramiscore's modules, the cache's client, the
standard library.

    python -m bench.evening.profile [N]"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from bench.app import Client, User, call_command, services
from ramiscore.wsgi import application  # after bench.app, which sets the bench's settings


def part_of(path: str) -> str:
    """The package a function's own time is counted to: Django's subpackages one by one,
    ramiscore's modules, the other libraries, the standard library."""
    if "/site-packages/" in path:
        inner = path.split("/site-packages/", 1)[1].split("/")
        if inner[0] == "django":
            return "django." + ".".join(inner[1:3]).removesuffix(".py")
        return inner[0]
    for mine in ("/games/", "/ramiscore/"):
        if mine in path:
            return mine.strip("/") + "." + path.split(mine, 1)[1].removesuffix(".py")
    return "standard library and C" if path.startswith(("/", "~", "<")) else path


def environ_of(url: str, headers: dict[str, str]) -> dict:
    from django.test import RequestFactory

    return RequestFactory(HTTP_HOST="127.0.0.1").get(url, **headers).environ


def ask(application, environ: dict) -> int:
    status: list[str] = []
    chunks = application(dict(environ), lambda line, _headers, _exc=None: status.append(line))
    b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(status[0].split()[0])


def measure(application, environ: dict, n: int) -> tuple[float, pstats.Stats]:
    """The CPU time of one request without the profiler, and the profile of ``n`` more."""
    for _ in range(50):  # warm: imports, the connections, the URL resolver
        ask(application, environ)
    started = time.process_time()
    for _ in range(n):
        ask(application, environ)
    plain = (time.process_time() - started) / n
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(n):
        ask(application, environ)
    profile.disable()
    return plain, pstats.Stats(profile)


def shares(stats: pstats.Stats, top: int = 12) -> list[tuple[str, float]]:
    """Each part's own time (not what it calls) as a share of the whole."""
    total = stats.total_tt
    found: dict[str, float] = {}
    for (path, _line, _name), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():
        found[part_of(path)] = found.get(part_of(path), 0.0) + tt
    ranked = sorted(found.items(), key=lambda x: -x[1])[:top]
    return [(part, 100 * tt / total) for part, tt in ranked]


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)
    owner = User.objects.create_user("profil", password=None)
    partie = services.partie_create(
        owner=owner, name="Profil", preset="classique", joueurs=["Anne", "Bruno"]
    )
    token = services.partie_share(partie=partie).share_token
    poll = f"/suivre/{token}/"
    etag = Client(HTTP_HOST="127.0.0.1").get(poll, HTTP_HX_REQUEST="true")["ETag"]
    unchanged = {"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": etag}
    for label, url, headers, expected in (
        ("/sante/", "/sante/", {}, 200),
        ("unchanged share poll", poll, unchanged, 304),
    ):
        environ = environ_of(url, headers)
        assert ask(application, environ) == expected, label
        plain, stats = measure(application, environ, n)
        per = 1000 * stats.total_tt / n
        print(f"\n{label}: {1000 * plain:.2f} ms of CPU a request in this process, {per:.2f} ms")
        print(f"  under cProfile, {n} requests")
        for part, share in shares(stats):
            print(f"  {part:46} {share:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

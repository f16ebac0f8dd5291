"""Where the time of the cheapest answers goes: /sante/ and the unchanged share poll (a 304
from the cache), each asked N times through Django's WSGI handler in this process with the
production settings of the bench (bench/environment.py), under cProfile. Prints the share of
each part's own time: Django's subpackages (handlers, middleware, URLs, templates…),
ramiscore's modules, the database driver, the standard library.

    python -m bench.evening.profile [N]"""

from __future__ import annotations

import cProfile
import pstats
import sys

from bench.app import Client, User, call_command, services


def part_of(path: str) -> str:
    """The package a function's own time is counted to: Django's subpackages one by one,
    ramiscore's modules, the other libraries, the standard library."""
    if "/django/test/" in path:
        return "Django's test client (not on a real server)"
    if "/site-packages/" in path:
        inner = path.split("/site-packages/", 1)[1].split("/")
        if inner[0] == "django":
            return "django." + ".".join(inner[1:3]).removesuffix(".py")
        return inner[0]
    for mine in ("/games/", "/ramiscore/"):
        if mine in path:
            return mine.strip("/") + "." + path.split(mine, 1)[1].removesuffix(".py")
    return "standard library and C" if path.startswith(("/", "~", "<")) else path


def measure(client: Client, url: str, headers: dict[str, str], n: int) -> pstats.Stats:
    client.get(url, **headers)  # warm: imports, the connection, the URL resolver
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(n):
        client.get(url, **headers)
    profile.disable()
    return pstats.Stats(profile)


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
    client = Client(HTTP_HOST="127.0.0.1")
    poll = f"/suivre/{token}/"
    etag = client.get(poll, HTTP_HX_REQUEST="true")["ETag"]
    for label, url, headers in (
        ("/sante/", "/sante/", {}),
        ("unchanged share poll", poll, {"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": etag}),
    ):
        stats = measure(client, url, headers, n)
        per = 1000 * stats.total_tt / n
        print(f"\n{label}: {per:.2f} ms a request in this process (cProfile on), {n} requests")
        for part, share in shares(stats):
            print(f"  {part:46} {share:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

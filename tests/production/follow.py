"""A partie shared for one test, what the app did in it, and the follow marks it left: for the
tests of the proxies that answer unchanged polls (Caddy's and nginx's)."""

from __future__ import annotations

import json

from tests.production import stack

SHARED = """
import json
from django.contrib.auth.models import User
from games import services
from tests.factories import hand, make_partie, play
partie = make_partie(User.objects.get(username="alice"), joueurs=["Anne", "Bruno", "Chloé"])
play(partie, "Anne", "rami", Bruno=hand(points=12), Chloé=hand(points=7))
partie = services.partie_share(partie=partie)
print(json.dumps({"pk": partie.pk, "token": partie.share_token}))
"""
LIVE = {"HX-Request": "true"}


def shared(production) -> tuple[int, str]:
    out = json.loads(stack.manage(production.env, "shell", "-c", SHARED).splitlines()[-1])
    return out["pk"], out["token"]


def in_the_app(production, code: str) -> None:
    stack.manage(production.env, "shell", "-c", "from games import services\n" + code)


def marked(production, token: str) -> list[str]:
    folder = production.marks / token
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def compared(headers) -> dict[str, str]:
    # Each answerer's own: the date, its name, its connection, Caddy's offer of HTTP/3 (on
    # every answer of Caddy's, the app's too). Go writes "Etag": names are case-blind.
    own = {"date", "server", "via", "connection", "alt-svc"}
    return {k.lower(): v for k, v in headers.items() if k.lower() not in own}

"""The tables of the evening, seeded through the services in the stack's database: for each,
an account with a logged-in session (made here: the login limits are the security tests'
business, and a thousand logins from one address is an attack, not an evening), a four-player
classique partie and its share link. Written as JSON for the Locust file.

    python -m bench.evening.tables COUNT OUT.json   (with the stack's environment)"""

from __future__ import annotations

import json
import sys

import django


def seed(count: int) -> list[dict]:
    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    from games import services

    tables = []
    for number in range(1, count + 1):
        user = User(username=f"table{number}")
        user.set_unusable_password()
        user.save()
        partie = services.partie_create(
            owner=user,
            name=f"Table {number}",
            preset="classique",
            joueurs=["Anne", "Bruno", "Chloé", "Didier"],
        )
        partie = services.partie_share(partie=partie)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        tables.append(
            {
                "partie": partie.pk,
                "token": partie.share_token,
                "cookies": {
                    settings.SESSION_COOKIE_NAME: session.session_key,
                    settings.CSRF_COOKIE_NAME: _get_new_csrf_string(),
                },
            }
        )
    return tables


if __name__ == "__main__":
    count, out = int(sys.argv[1]), sys.argv[2]
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(seed(count), fh)

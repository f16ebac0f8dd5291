"""Every import of ramiscore's code the bench makes, in one place, so that a renamed function is
fixed here only; with the Django pieces that need Django set up, which importing this module
does first (bench/environment.py). The other modules of the bench import these names from here.

The bench leans on the app's insides as little as it can: the parties are written through the
services, the engine mirrors them (games.scoring.replay resumes from the last state), and the
forms the bench posts are read from the pages themselves (bench/forms.py), as a phone fills
them in."""

from __future__ import annotations

from bench.environment import configure

configure()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils.html import escape  # noqa: E402

from games import services  # noqa: E402
from games.errors import PartieError, translated  # noqa: E402
from games.models import Donne, Partie  # noqa: E402
from games.options import config_of  # noqa: E402
from games.scoring import get_preset, replay  # noqa: E402
from games.selectors import partie_load, partie_replay  # noqa: E402

__all__ = [
    "CaptureQueriesContext",
    "Client",
    "Donne",
    "Partie",
    "User",
    "call_command",
    "config_of",
    "connection",
    "get_preset",
    "partie_load",
    "partie_replay",
    "replay",
    "services",
    "stale_refusal",
]


def stale_refusal() -> str:
    """The refusal of a stale form as a page shows it (French, HTML-escaped)."""
    return escape(translated(PartieError("etat_perime")))

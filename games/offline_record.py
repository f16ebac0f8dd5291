"""What the partie page carries for the phone's own replay (static/js/provisional.js): the
partie's game record (docs/rules.md §1, the shape the JSON export writes) as of its revision,
and the players' form keys; and where the engine's files are (Pyodide, the engine zip, the
Web Worker that runs them). Offline, the queued donnes are the record's donnes and the engine
itself, games/scoring under Pyodide, replays them: no rule is written in JavaScript.

The record's donnes already on the server are not written out one by one: the page carries
the stored state after the last of them (``after``, DonneState.to_storage), from which the
engine's replay carries on exactly as the server's own replays do (``replay(after=…)``). So
the page costs no query and no byte more at donne 1000 than at donne 5 (make bench).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from games.display.marque import Marque
from games.engine_files import ENGINE_ZIP
from games.options import record_options
from games.scoring import TALON_EPUISE, get_preset

PYODIDE_DIR = "vendor/pyodide/"
# What loadPyodide fetches, by these fixed names next to pyodide.mjs (static_storage.py).
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
WORKER = "js/engine-worker.js"


def page_record(marque: Marque) -> dict[str, Any]:
    partie = marque.partie
    stored = marque.stored
    last = stored.states[-1] if stored.states else None
    return {
        "revision": marque.revision,
        "record": {
            "preset": partie.preset,
            "players": [j.name for j in stored.joueurs],
            "config": record_options(partie),
            "donnes": [],
            "ended": partie.ended,
        },
        "after": last.to_storage() if last else None,
        # A crosser still to decide: the donnes typed after wait for that decision, on the
        # phone as on the server.
        "blocked": bool(marque.pending or marque.blocked),
        # The donne form names its fields by player key (points_<pk>…); the record by name.
        "joueurs": {str(j.pk): j.name for j in stored.joueurs},
        # A form posted without a win type means the preset's usual one (DonneForm.clean).
        "default_win": get_preset(partie.preset).default_win,
        "talon": TALON_EPUISE,
        # Where the queue sends the decisions taken offline (games/views/offline_sync.py).
        "rachat_urls": {
            str(j.pk): reverse("rachat_queued", args=[partie.pk, j.pk]) for j in stored.joueurs
        },
        "close_url": reverse("close_queued", args=[partie.pk]),
        "rematch_url": reverse("rematch_queued", args=[partie.pk]),
        # The number of the record's first donne (after the stored state), and the partie's
        # currency for the provisional money (centimes, as the engine counts them).
        "first": last.number + 1 if last else 1,
        "currency": partie.currency,
    }


def pyodide_url() -> str:
    """The folder of the vendored Pyodide, unhashed: its loader finds its files by name."""
    return f"{settings.STATIC_URL}{PYODIDE_DIR}"


def engine_urls() -> dict[str, str]:
    return {"worker": static(WORKER), "pyodide": pyodide_url(), "engine": static(ENGINE_ZIP)}


@cache
def pyodide_version() -> str:
    """The vendored Pyodide's version (its package.json): its files' names do not change
    with it, so the service worker keeps them in a cache named after it."""
    with open(finders.find(PYODIDE_DIR + "package.json"), encoding="utf-8") as handle:
        return json.load(handle)["version"]


def background_files() -> list[str]:
    """What the service worker fetches in the background and keeps (static/js/sw-engine.js)."""
    return [pyodide_url() + name for name in PYODIDE_FILES] + [static(ENGINE_ZIP), static(WORKER)]

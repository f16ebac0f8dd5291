"""What the partie page carries for the phone's own replay (static/js/provisional.js): the
game record (docs/rules.md §1, exactly as the JSON export writes it), the revision it is at,
and the players' form keys; and where the engine's files are (Pyodide, the engine zip, the
Web Worker that runs them). Offline, each queued donne is added to this record and the whole
record is replayed by ``games/scoring`` itself, under Pyodide: no rule is written in
JavaScript.

The record costs a fixed number of queries (selectors.partie_load), whatever the length of
the partie."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.templatetags.static import static

from games.display.marque import Marque
from games.engine_files import ENGINE_ZIP
from games.files import partie_record
from games.scoring import TALON_EPUISE, get_preset
from games.selectors import partie_load

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
    data = partie_load(marque.partie)
    return {
        "revision": marque.etat,
        "record": partie_record(data),
        # The donne form names its fields by player key (points_<pk>…); the record by name.
        "joueurs": {str(j.pk): j.name for j in data.joueurs},
        # A form posted without a win type means the preset's usual one (DonneForm.clean).
        "default_win": get_preset(marque.partie.preset).default_win,
        "talon": TALON_EPUISE,
    }


def pyodide_url() -> str:
    """The folder of the vendored Pyodide, unhashed: its loader finds its files by name."""
    return f"{settings.STATIC_URL}{PYODIDE_DIR}"


def engine_urls() -> dict[str, str]:
    return {"worker": static(WORKER), "pyodide": pyodide_url(), "engine": static(ENGINE_ZIP)}


def background_files() -> list[str]:
    """What the service worker fetches in the background and keeps (static/js/sw-engine.js)."""
    return [pyodide_url() + name for name in PYODIDE_FILES] + [static(ENGINE_ZIP), static(WORKER)]

"""gunicorn.conf.py's worker hook: once the application is loaded, what it made is frozen out
of the garbage collector's full passes, and the garbage of the loading is collected first."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def test_a_loaded_worker_freezes_what_the_application_made() -> None:
    hooks = runpy.run_path(str(CONF))
    before = gc.get_freeze_count()
    garbage = [[]]
    garbage[0].append(garbage)  # a cycle only a collection frees
    del garbage
    try:
        hooks["post_worker_init"](object())
        frozen = gc.get_freeze_count()
        assert frozen > before + 10_000  # the test process's modules, Django's included
        assert gc.collect() == 0  # the cycle was collected before the freeze, nothing left
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0

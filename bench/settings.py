"""The production settings, with the static files collected into the benchmark's temporary
directory (BENCH_STATIC_ROOT) instead of the checkout's staticfiles/. Used by bench/run.py only."""

from __future__ import annotations

import os
from pathlib import Path

from ramiscore.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])

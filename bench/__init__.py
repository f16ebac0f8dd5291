"""``make bench`` (``python -m bench``): the pages and the recording of a donne, timed against
budgets; ``bench/__main__.py`` runs it. Nothing happens on import: gunicorn imports
``bench.settings`` through this package."""

from __future__ import annotations

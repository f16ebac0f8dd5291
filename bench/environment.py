"""Where the bench works and how Django is configured there, before Django is set up: the
production configuration (DEBUG off, a throwaway secret) in a temporary directory holding a fresh
SQLite file (SQLITE_NAME) and the collected static files (BENCH_STATIC_ROOT, bench/settings.py)."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

import django
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
TMP = Path(tempfile.mkdtemp(prefix="ramiscore-bench-"))
# Removed at exit, even when the bench stops early (an app import that moved, for one).
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
HOST = "127.0.0.1"


def configure() -> None:
    """Set the environment (inherited by gunicorn) and set Django up."""
    if apps.ready:
        return
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DJANGO_DEBUG": "False",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # throwaway
            "DJANGO_SECURE_SSL_REDIRECT": "False",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "SQLITE_NAME": str(TMP / "bench.sqlite3"),  # absolute: BASE_DIR / it is this path
            "BENCH_STATIC_ROOT": str(TMP / "static"),
            "DATABASE_URL": "",
            # The parties are built in this process: their PDFs are rendered when asked for,
            # so that the first PDF's time is a render's (games/tasks.py).
            "RAMISCORE_PDF_RENDER_ON_CHANGE": "False",
            "PYTHONPATH": str(ROOT),
        }
    )
    sys.path.insert(0, str(ROOT))
    django.setup()

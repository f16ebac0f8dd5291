"""A fingerprint of the code that draws what the cache keeps (the templates, the display code,
the PDF's renderer, the compiled translations, the static files' names), as this process runs
it: a page part or a PDF drawn by another release is not this one's, so a deploy draws them
anew instead of serving a week-old drawing of the old templates."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import django
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.dispatch import receiver
from django.utils.autoreload import file_changed

# What the fingerprint reads (folders and files, relative to BASE_DIR).
DRAWN_BY = ("templates", "games/display", "games/templatetags", "games/pdf.py", "locale")
DRAWN_BY_SUFFIXES = {".html", ".svg", ".py", ".mo"}


def _files(base: Path) -> list[Path]:
    found: list[Path] = []
    for name in DRAWN_BY:
        path = base / name
        found.extend(sorted(path.rglob("*")) if path.is_dir() else [path])
    return [p for p in found if p.suffix in DRAWN_BY_SUFFIXES and p.is_file()]


@cache
def code_fingerprint() -> str:
    digest = hashlib.sha256(django.get_version().encode())
    digest.update(str(getattr(staticfiles_storage, "manifest_hash", "")).encode())
    base = Path(settings.BASE_DIR)
    for path in _files(base):
        digest.update(str(path.relative_to(base)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@receiver(file_changed, dispatch_uid="fingerprint-redrawn")
def _redrawn(sender, file_path, **kwargs) -> None:
    # runserver reads an edited template or translation in place, in the same process.
    code_fingerprint.cache_clear()

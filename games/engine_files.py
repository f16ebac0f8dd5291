"""The scoring engine as a static file: ``engine/games-scoring.zip``, the very files of
``games/scoring`` (and the empty ``games/__init__.py`` above them), which the browser's Web
Worker puts on Pyodide's ``sys.path`` (static/js/engine-worker.js). The rules stay written once,
in Python: the phone runs the same code as the server.

The zip is made from the source by a staticfiles finder, so it exists wherever static files do:
``runserver`` and the tests (whitenoise reads the finders), ``collectstatic`` (the manifest
storage hashes it like every other file, so a change of the engine is a new URL). It is
deterministic (sorted names, fixed dates and modes), so the same source gives the same bytes
and the same hashed name; it is written to ``build/engine/`` only when its bytes change.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

GAMES = Path(__file__).resolve().parent
ENGINE_ZIP = "engine/games-scoring.zip"
# A zip cannot store a date before 1980; any fixed date keeps the bytes reproducible.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def engine_sources() -> list[tuple[str, Path]]:
    """(name in the zip, file) for every file of the engine package, sorted."""
    files = [("games/__init__.py", GAMES / "__init__.py")]
    files += [
        (f"games/scoring/{path.relative_to(GAMES / 'scoring').as_posix()}", path)
        for path in sorted((GAMES / "scoring").rglob("*.py"))
        if "__pycache__" not in path.parts
    ]
    return sorted(files)


def engine_zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, path in engine_sources():
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def build_dir() -> Path:
    return Path(getattr(settings, "ENGINE_BUILD_DIR", settings.BASE_DIR / "build" / "engine"))


def write_engine_zip(folder: Path) -> Path:
    """``folder/engine/games-scoring.zip``, rewritten only if the engine changed."""
    target = folder / ENGINE_ZIP
    data = engine_zip_bytes()
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".zip.partial")
        partial.write_bytes(data)
        partial.replace(target)
    return target


class EngineFinder(BaseFinder):
    """Finds ``engine/games-scoring.zip``, built from the engine's source on demand."""

    def _storage(self) -> FileSystemStorage:
        folder = build_dir()
        write_engine_zip(folder)
        return FileSystemStorage(location=folder)

    def find(self, path: str, find_all: bool = False, **kwargs: object) -> str | list[str]:
        if path != ENGINE_ZIP:
            # [], not "": finders.find() takes any non-list as a match, so a missing static
            # file came back as [""], and the test server answered 500 for it, not 404.
            return []
        found = str(write_engine_zip(build_dir()))
        return [found] if find_all or kwargs.get("all") else found

    def list(self, ignore_patterns: list[str] | None) -> list[tuple[str, FileSystemStorage]]:
        return [(ENGINE_ZIP, self._storage())]

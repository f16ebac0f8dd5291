"""The production static storage: whitenoise's hashed and compressed files, our own scripts and
styles minified first, and two savings for the vendored Pyodide (static/vendor/pyodide,
docs/decisions.md "One engine, two runtimes").

- Our scripts and styles (static/js, static/css) are written for people, with their comments:
  the collected copies lose them and their spaces (rjsmin, rcssmin) before they are hashed and
  compressed, 12 KB of the partie page's 66 KB on a phone's first visit. The vendored files
  are minified already; the source files, which ``make run`` and the tests serve, stay as
  they are.

- Pyodide's loader fetches its runtime by fixed names next to itself (``pyodide.asm.wasm``…),
  so only the unhashed copies of that folder are ever asked for: their hashed twins are kept
  (the manifest lists them) but not compressed.
- Brotli at whitenoise's quality takes over a minute for the 9.6 MB ``pyodide.asm.wasm`` on a
  small machine, at every ``collectstatic``; gzip takes a second and gives 3.5 MB instead of
  2.7 MB, fetched once per phone in the background. That folder is gzipped only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

PYODIDE = "vendor/pyodide/"
HASHED = re.compile(r"\.[0-9a-f]{12}\.")
# Our own files, as collected (never a hashed copy, never the vendored ones).
OWN = re.compile(r"(?:js/[\w-]+\.js|css/[\w-]+\.css)")
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


class GzipOnlyForPyodide(Compressor):
    """whitenoise compresses in threads sharing one compressor: each path goes to one of two
    compressors made once, never through an attribute switched for it, which another thread's
    file would read meanwhile (that left some files without Brotli and gave Pyodide's some)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.gzip_only = Compressor(**{**kwargs, "use_brotli": False})

    def compress(self, path: str) -> list[str]:
        if f"/{PYODIDE}" in path.replace("\\", "/"):
            return self.gzip_only.compress(path)
        return super().compress(path)


def minify(path: Path) -> None:
    """The file, minified in place (again: the same text)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(MINIFIERS[path.suffix](text), encoding="utf-8")


class StaticStorage(CompressedManifestStaticFilesStorage):
    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any):
        # The collected copy minified, then hashed from it rather than from the source file:
        # a file's name names its minified content.
        if not dry_run:
            for name in paths:
                if OWN.fullmatch(name):
                    minify(Path(self.path(name)))
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run, **options)

    def create_compressor(self, **kwargs: object) -> Compressor:
        return GzipOnlyForPyodide(**kwargs)

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        wanted = [p for p in paths if not (p.startswith(PYODIDE) and HASHED.search(p))]
        return super().compress_files(wanted)

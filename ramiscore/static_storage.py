"""The production static storage: whitenoise's hashed and compressed files, with two savings
for the vendored Pyodide (static/vendor/pyodide, docs/decisions.md "One engine, two runtimes").

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

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

PYODIDE = "vendor/pyodide/"
HASHED = re.compile(r"\.[0-9a-f]{12}\.")


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


class StaticStorage(CompressedManifestStaticFilesStorage):
    def create_compressor(self, **kwargs: object) -> Compressor:
        return GzipOnlyForPyodide(**kwargs)

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        wanted = [p for p in paths if not (p.startswith(PYODIDE) and HASHED.search(p))]
        return super().compress_files(wanted)

"""The production static storage (ramiscore/static_storage.py): Pyodide's folder gzipped only,
every other file compressed with Brotli and gzip, whitenoise's compressing threads
notwithstanding. Real files in a temporary STATIC_ROOT, compressed as collectstatic does."""

from __future__ import annotations

import random

import pytest

from ramiscore.static_storage import StaticStorage

brotli = pytest.importorskip("brotli")


def test_pyodide_is_gzipped_only_and_every_other_file_gets_brotli_too(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    rng = random.Random(7)
    # Text that compresses well, big enough that the threads overlap.
    words = [f"mot{n}" for n in range(400)]
    names = [f"vendor/pyodide/part{n}.js" for n in range(12)] + [f"js/app{n}.js" for n in range(12)]
    for name in names:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(" ".join(rng.choice(words) for _ in range(15_000)))

    storage = StaticStorage(location=str(tmp_path))
    written = {compressed for _name, compressed in storage.compress_files(names)}

    pyodide = {n for n in names if n.startswith("vendor/pyodide/")}
    others = set(names) - pyodide
    assert written == {n + ".gz" for n in names} | {n + ".br" for n in others}
    assert not list((tmp_path / "vendor/pyodide").glob("*.br"))

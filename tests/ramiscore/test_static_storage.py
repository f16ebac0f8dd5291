"""The production static storage (ramiscore/static_storage.py): Pyodide's folder gzipped only,
every other file compressed with Brotli and gzip, whitenoise's compressing threads
notwithstanding. Real files in a temporary STATIC_ROOT, compressed as collectstatic does."""

from __future__ import annotations

import random

import pytest
from django.core.files.storage import FileSystemStorage

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


def test_our_scripts_and_styles_are_collected_minified_and_named_by_what_they_hold(
    tmp_path, settings
):
    source, collected = tmp_path / "static", tmp_path / "collected"
    settings.STATIC_ROOT = collected
    script = "// Why this is done.\nfunction total(a, b) {\n  /* both */\n  return a + b;\n}\n"
    style = "/* The marque. */\n.marque  td {\n  color : red;\n}\n"
    vendored = "// kept as vendored\nvar x = 1;\n"
    texts = {"js/app.js": script, "css/app.css": style, "vendor/v.js": vendored}

    def collect() -> StaticStorage:
        """As collectstatic does: each source file copied, then post-processed."""
        found = FileSystemStorage(location=str(source))
        storage = StaticStorage(location=str(collected))
        for name, text in texts.items():
            for folder in (source, collected):
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text)
        list(storage.post_process({name: (found, name) for name in texts}))
        return storage

    storage = collect()
    hashed = {name: storage.stored_name(name) for name in texts}
    minified = {
        "js/app.js": "function total(a,b){return a+b;}",
        "css/app.css": ".marque td{color:red}",
    }
    for name, text in minified.items():
        assert (collected / name).read_text() == text
        assert (collected / hashed[name]).read_text() == text
    assert (collected / hashed["vendor/v.js"]).read_text() == vendored
    # The hash is the minified file's: another comment in the source, the same name.
    texts["js/app.js"] = script.replace("Why this is done.", "Autre chose.")
    assert collect().stored_name("js/app.js") == hashed["js/app.js"]

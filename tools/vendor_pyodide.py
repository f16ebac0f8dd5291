"""Write ``static/vendor/pyodide/``: the core files of Pyodide (CPython compiled to
WebAssembly), so that the scoring engine ``games/scoring`` runs unchanged in the browser's Web
Worker (static/js/engine-worker.js) and in Node for the same-answers test
(tests/games/scoring/test_pyodide.py). docs/decisions.md "One engine, two runtimes" says why.

    python tools/vendor_pyodide.py           # fetch, check, copy
    python tools/vendor_pyodide.py --check   # only check the vendored files against the pins

It runs ``npm pack pyodide@VERSION`` in a temporary directory (npm checks the registry's
integrity hash of the tarball), then checks every file it keeps against the sha256 pinned
below before copying it: a different byte, from the registry or on disk, stops the script.
Only the files the engine needs are kept: the loader (``pyodide.mjs``), the runtime
(``pyodide.asm.mjs``, ``pyodide.asm.wasm``), the standard library (``python_stdlib.zip``),
the package lock ``loadPyodide`` reads at start, and ``package.json`` (version, MPL-2.0
licence). No package of the Pyodide distribution is needed: the engine is stdlib only.

To move to another version: change VERSION, run with ``--print-hashes`` to see the new
tarball's hashes, review them, paste them into HASHES, run again, then run the same-answers
test.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "static" / "vendor" / "pyodide"
VERSION = "314.0.8"
HASHES = {
    "pyodide.mjs": "1bb8cc14f9405aaa7cd4e00c12edd0a8539de9cc026618d6ee5a9663f367dc70",
    "pyodide.asm.mjs": "22514b8be6980e28a02c8b1d6387ce8dfe666fc4edf8d547cff5dce29ff4d972",
    "pyodide.asm.wasm": "e14d49ceca9b4a0e274ea918f3a898de2d3880b6e5573a6cfe1a2267ecc70329",
    "python_stdlib.zip": "2bd3394a145bfbbe5bbc9d9d6ab9136abbb986c6fef6c142b3a2962227aa5c28",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
    "package.json": "cf0265c994f7de049944185538891e5d5c362ebef249e08b145ce64c3a562dd6",
}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def wrong_files(folder: Path) -> list[str]:
    """The kept files of ``folder`` that are missing or differ from their pinned hash."""
    return [
        name
        for name, expected in HASHES.items()
        if not (folder / name).is_file() or sha256(folder / name) != expected
    ]


def fetch(work: Path) -> Path:
    """``npm pack`` the pinned version into ``work`` and unpack it; the package's folder."""
    subprocess.run(
        ["npm", "pack", f"pyodide@{VERSION}", "--silent"],
        cwd=work,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    tarball = work / f"pyodide-{VERSION}.tgz"
    with tarfile.open(tarball) as archive:
        archive.extractall(work, filter="data")
    return work / "package"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check the vendored files only")
    parser.add_argument(
        "--print-hashes", action="store_true", help="print the fetched files' sha256, copy none"
    )
    args = parser.parse_args(argv)
    if args.check:
        wrong = wrong_files(TARGET)
        for name in wrong:
            print(f"{TARGET / name}: missing or not the pinned bytes", file=sys.stderr)
        return 1 if wrong else 0
    with tempfile.TemporaryDirectory() as tmp:
        package = fetch(Path(tmp))
        if args.print_hashes:
            for name in HASHES:
                print(f'    "{name}": "{sha256(package / name)}",')
            return 0
        wrong = wrong_files(package)
        if wrong:
            print(f"pyodide@{VERSION} from npm differs from the pins: {wrong}", file=sys.stderr)
            return 1
        TARGET.mkdir(parents=True, exist_ok=True)
        for old in TARGET.iterdir():
            if old.name not in HASHES:
                old.unlink()
        for name in HASHES:
            shutil.copyfile(package / name, TARGET / name)
    print(f"pyodide {VERSION}: {len(HASHES)} files in {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

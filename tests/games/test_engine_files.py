"""The engine as a static file (games/engine_files.py): the very source of games/scoring, the
same bytes on every build, found like any static file and importable with nothing but the
standard library, as Pyodide will import it."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.views import serve
from django.http import Http404
from django.templatetags.static import static
from django.test import Client, RequestFactory

from games import engine_files

ROOT = Path(__file__).resolve().parents[2]


def test_the_zip_holds_the_engine_source_and_nothing_else() -> None:
    archive = zipfile.ZipFile(io.BytesIO(engine_files.engine_zip_bytes()))
    names = archive.namelist()
    expected = ["games/__init__.py"] + sorted(
        f"games/scoring/{p.name}" for p in (ROOT / "games" / "scoring").glob("*.py")
    )
    assert names == expected
    for name in names:
        assert archive.read(name) == (ROOT / name).read_bytes()


def test_the_same_source_gives_the_same_bytes() -> None:
    assert engine_files.engine_zip_bytes() == engine_files.engine_zip_bytes()


def test_the_finder_finds_it_where_the_pages_point() -> None:
    found = finders.find(engine_files.ENGINE_ZIP)
    assert found
    assert Path(found).read_bytes() == engine_files.engine_zip_bytes()
    listed = [path for finder in finders.get_finders() for path, _ in finder.list([])]
    assert listed.count(engine_files.ENGINE_ZIP) == 1


def test_a_file_no_finder_has_is_not_found() -> None:
    assert finders.find("js/no-such-file.js") is None
    assert finders.find("js/no-such-file.js", find_all=True) == []


def test_a_missing_static_file_is_a_404_from_the_live_servers_static_view() -> None:
    # The view behind the browser tests' live server (StaticFilesHandler).
    with pytest.raises(Http404):
        serve(
            RequestFactory().get("/static/js/no-such-file.js"), "js/no-such-file.js", insecure=True
        )


def test_whitenoise_serves_it() -> None:
    response = Client().get(static(engine_files.ENGINE_ZIP))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == engine_files.engine_zip_bytes()


def test_it_imports_with_the_standard_library_alone(tmp_path: Path) -> None:
    # -I: no site-packages, no current directory; only the zip is on the path.
    engine = engine_files.write_engine_zip(tmp_path)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import games.scoring.cli as cli;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'games')))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(engine)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "django" not in out
    assert "'games.scoring.cli'" in out

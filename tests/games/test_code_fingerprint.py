"""The fingerprint of the code that draws what the cache keeps (games/code_fingerprint.py)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils.autoreload import file_changed

from games.code_fingerprint import _files, code_fingerprint


def test_runserver_reading_an_edited_template_draws_the_regions_anew() -> None:
    before = code_fingerprint()
    assert code_fingerprint.cache_info().currsize == 1
    file_changed.send(sender=None, file_path=Path("templates/games/_scoreboard.html"))
    assert code_fingerprint.cache_info().currsize == 0
    assert code_fingerprint() == before  # the files themselves did not change


def test_it_reads_the_templates_the_display_code_the_pdf_renderer_and_the_translations():
    base = Path(settings.BASE_DIR)
    read = {str(path.relative_to(base)) for path in _files(base)}
    assert {
        "templates/games/sheet.html",
        "templates/games/_marque_table.html",
        "games/display/sheet.py",
        "games/templatetags/kept.py",
        "games/pdf.py",
        "locale/en/LC_MESSAGES/django.mo",
    } <= read
    assert not any(name.startswith(("games/scoring", "games/views", "static")) for name in read)

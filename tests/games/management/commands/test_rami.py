"""``manage.py rami score`` through call_command; runs once the Django project is merged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

pytest.importorskip("ramiscore.settings", reason="the Django project is not in this branch yet")

from django.core.management import call_command  # noqa: E402
from django.core.management.base import CommandError  # noqa: E402

from tests.games.scoring.conftest import load_examples  # noqa: E402

CASE = load_examples()["partie_cases"][0]
RECORD = {
    "preset": CASE["preset"],
    "players": CASE["players"],
    "config": CASE["config"],
    "donnes": [d["input"] for d in CASE["donnes"]],
}


def test_it_prints_the_json_marque(tmp_path: Path) -> None:
    path = tmp_path / "p1.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    out = io.StringIO()
    call_command("rami", "score", str(path), "--format", "json", stdout=out)
    assert json.loads(out.getvalue())["final"] == CASE["expected_final"]


def test_it_reads_stdin_and_refuses_a_bad_record() -> None:
    out = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("rami", "score", "-", stdin=io.StringIO("{nope"), stdout=out)
    assert info.value.returncode == 1
    assert "enregistrement_invalide" in str(info.value)

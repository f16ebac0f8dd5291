"""The golden outputs of ``rami score`` (tests/data/score_golden.jsonl.gz): reading them,
running the command on one record, and saying where two outputs part. Shared by the test
(tests/games/scoring/test_score_golden.py) and the script that writes the file
(tools/score_records.py). Needs Django set up, as the command does."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import CommandError

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "score_golden.jsonl.gz"


def load_golden() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def input_text(record: Any) -> str:
    """What ``rami score -`` reads: a raw string as is (text that is not JSON), anything else
    as JSON."""
    return record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)


def run_score(record: Any, fmt: str) -> tuple[int, str]:
    """``manage.py rami score - --format fmt`` on the record: (exit code, stdout)."""
    out = io.StringIO()
    try:
        call_command(
            "rami", "score", "-", format=fmt, stdin=io.StringIO(input_text(record)), stdout=out
        )
    except CommandError as err:
        return err.returncode, out.getvalue()
    return 0, out.getvalue()


def first_difference(expected: str, actual: str) -> str:
    old, new = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"line {number}: expected {a!r}, got {b!r}"
    number = min(len(old), len(new)) + 1
    if len(old) > len(new):
        return f"line {number}: expected {old[number - 1]!r}, got end of output"
    return f"line {number}: expected end of output, got {new[number - 1]!r}"

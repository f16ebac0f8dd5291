"""``manage.py rami score``, byte for byte, against the golden outputs in tests/data.

tests/data/score_golden.jsonl.gz holds a few hundred partie records (valid and refused, every
preset, JSON, text and CSV output) with the exit code and the exact stdout the command gave
when the file was written by ``python bench/score_records.py --write``. A refactor of the
engine or of the command must leave every one of them unchanged; do not rewrite the file to
make this test pass unless the change of output is intended. No database is involved.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "score_golden.jsonl.gz"


def _load() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


CASES = _load()


def _score(record: Any, fmt: str) -> tuple[int, str]:
    """``rami score - --format fmt`` with the record on stdin: (exit code, stdout).

    A string is the raw input (text that is not JSON); anything else is given as JSON, exactly
    as bench/score_records.py gave it."""
    text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
    out = io.StringIO()
    try:
        call_command("rami", "score", "-", format=fmt, stdin=io.StringIO(text), stdout=out)
    except CommandError as err:
        return err.returncode, out.getvalue()
    return 0, out.getvalue()


def _first_difference(expected: str, actual: str) -> str:
    old, new = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"line {number}: expected {a!r}, got {b!r}"
    number = min(len(old), len(new)) + 1
    if len(old) > len(new):
        return f"line {number}: expected {old[number - 1]!r}, got end of output"
    return f"line {number}: expected end of output, got {new[number - 1]!r}"


def test_the_golden_file_is_there() -> None:
    assert len(CASES) >= 400
    assert len({case["name"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_score_output_is_unchanged(case: dict[str, Any]) -> None:
    exit_code, stdout = _score(case["record"], case["format"])
    # No pytest diff of the whole outputs: some run to hundreds of kilobytes.
    if stdout != case["stdout"]:
        pytest.fail(f"stdout changed, {_first_difference(case['stdout'], stdout)}", pytrace=False)
    assert exit_code == case["exit"]

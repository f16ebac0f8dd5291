"""``manage.py rami score``, byte for byte, against the golden outputs in tests/data.

tests/data/score_golden.jsonl.gz holds a few hundred partie records (valid and refused, every
preset, JSON, text and CSV output) with the exit code and the exact stdout the command gave
when the file was written by ``python tools/score_records.py --write``. A refactor of the
engine or of the command must leave every one of them unchanged; do not rewrite the file to
make this test pass unless the change of output is intended. No database is involved.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.scoring.golden import first_difference, load_golden, run_score

CASES = load_golden()


def test_the_golden_file_is_there() -> None:
    assert len(CASES) >= 400
    assert len({case["name"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_score_output_is_unchanged(case: dict[str, Any]) -> None:
    exit_code, stdout = run_score(case["record"], case["format"])
    # No pytest diff of the whole outputs: some run to hundreds of kilobytes.
    if stdout != case["stdout"]:
        pytest.fail(f"stdout changed, {first_difference(case['stdout'], stdout)}", pytrace=False)
    assert exit_code == case["exit"]

"""Same engine, same answers: every golden record of ``rami score`` (tests/data/
score_golden.jsonl.gz, the worked examples included) and every worked hand of
tests/data/examples.json, run by the engine under Pyodide in Node, exactly as the phone's
worker loads it (the vendored static/vendor/pyodide, the engine zip the static files serve),
give byte for byte what CPython gives.

Node is Debian's ``nodejs``. Without it the test is skipped with a message, except in CI
(``CI`` set), where a missing Node is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games.engine_files import write_engine_zip
from tests.games.scoring import pyodide_cases
from tests.games.scoring.conftest import load_examples
from tests.games.scoring.golden import first_difference, input_text, load_golden

HERE = Path(__file__).resolve().parent
PYODIDE = HERE.parents[2] / "static" / "vendor" / "pyodide"
NODE = shutil.which("node") or shutil.which("nodejs")


def all_cases() -> list[dict[str, Any]]:
    cases = [
        {"name": c["name"], "kind": "score", "format": c["format"]}
        | {"input": input_text(c["record"])}
        for c in load_golden()
    ]
    for hand in load_examples()["hand_cases"]:
        args = [hand["preset"], {"cards": hand["cards"], "jokers": hand["jokers"]}, hand["win"]]
        cases.append({"name": f"hand-{hand['id']}", "kind": "hand", "args": args})
    return cases


@pytest.fixture(scope="module")
def under_pyodide(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    if NODE is None:
        if os.environ.get("CI"):
            pytest.fail("Node (Debian's nodejs) is needed to run the engine under Pyodide")
        pytest.skip("Node is not installed (apt-get install nodejs): the Pyodide run is skipped")
    work = tmp_path_factory.mktemp("pyodide")
    cases = work / "cases.jsonl"
    cases.write_text(
        "".join(json.dumps(c, ensure_ascii=True) + "\n" for c in all_cases()), encoding="utf-8"
    )
    engine = write_engine_zip(work)
    run = subprocess.run(
        [NODE, HERE / "pyodide_runner.mjs", PYODIDE, engine, HERE / "pyodide_cases.py", cases],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    return {a["name"]: a for a in answers}


def test_pyodide_answers_every_case_as_cpython_does(under_pyodide: dict[str, Any]) -> None:
    cases = all_cases()
    assert len(under_pyodide) == len(cases)
    differ = []
    for case in cases:
        expected = pyodide_cases.answer(case)
        got = under_pyodide[case["name"]]
        if got != expected:
            where = (
                first_difference(expected["stdout"], got["stdout"])
                if "stdout" in expected and expected["stdout"] != got.get("stdout")
                else f"expected {expected}, got {got}"
            )
            differ.append(f"{case['name']}: {where}")
    assert not differ, "\n".join(differ[:20])


def test_cpython_answers_are_the_golden_ones() -> None:
    # The reference side is today's CPython, which the golden file pins (test_score_golden).
    golden = {c["name"]: c for c in load_golden()}
    for case in all_cases():
        if case["kind"] == "score":
            answer = pyodide_cases.answer(case)
            assert (answer["exit"], answer["stdout"]) == (
                golden[case["name"]]["exit"],
                golden[case["name"]]["stdout"],
            ), case["name"]


def test_the_cases_cover_the_golden_file_and_the_hands() -> None:
    kinds = [c["kind"] for c in all_cases()]
    assert kinds.count("score") == len(load_golden()) == 404
    assert kinds.count("hand") == len(load_examples()["hand_cases"]) == 24

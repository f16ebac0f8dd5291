"""Run cases through the engine and give its answers as JSON lines, the same code under
CPython (imported by tests/games/scoring/test_pyodide.py) and under Pyodide (run by
tests/games/scoring/pyodide_runner.mjs, with the engine zip on ``sys.path``). Standard library only.

A case is ``{"name", "kind": "score", "format", "input"}``: ``rami score - --format F`` with
``input`` on standard input, answered ``{"name", "exit", "stdout"}``; or ``{"name", "kind":
"hand", "args": [preset, hand, win]}``: the hand's penalty (docs/rules.md §9), answered ``{"name",
"penalty"}`` or ``{"name", "error"}``.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any


def answer(case: dict[str, Any]) -> dict[str, Any]:
    from games.scoring import RamiError, cli, hand_penalty

    if case["kind"] == "hand":
        try:
            return {"name": case["name"], "penalty": hand_penalty(*case["args"])}
        except RamiError as err:
            return {"name": case["name"], "error": err.code}
    stdout, stderr = io.StringIO(), io.StringIO()
    code = cli.main(
        ["score", "-", "--format", case["format"]],
        stdin=io.StringIO(case["input"]),
        stdout=stdout,
        stderr=stderr,
    )
    return {"name": case["name"], "exit": code, "stdout": stdout.getvalue()}


def answer_lines(cases_text: str) -> str:
    """One answer a line; ASCII-escaped so that any string, even a lone surrogate, crosses
    from one runtime to the other unchanged."""
    cases = [json.loads(line) for line in cases_text.splitlines() if line]
    return "".join(json.dumps(answer(case), ensure_ascii=True) + "\n" for case in cases)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as source, open(sys.argv[2], "w") as target:
        target.write(answer_lines(source.read()))

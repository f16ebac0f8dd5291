"""The budgets, all in BUDGETS below, one line each, checked against the measured result (the
dict written to bench/results/latest.json) and marked PASS or FAIL. A budget's label may hold
"{key}": it then stands for each of its keys in turn (every partie, every engine timing...)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bench.timings import FRAGMENT, PAGE, POLL, RECORD, SANTE

Result = dict[str, Any]  # the measured result: "requests", "sizes", "engine_ms", "load"
Value = Callable[[Result, str], Any]  # (result, key) -> the budget's value for that key


def server_ms(result: Result, request: str, key: str) -> float:
    """The gunicorn median of ``request`` for partie ``key`` (or of the request measured once,
    as /sante/, whatever the key)."""
    rows = result["requests"]
    return next(r for r in rows if r["name"] == request and r["partie"] in (key, ""))["server_ms"]


def ratio(request: str, over: str) -> Value:
    """gunicorn time of ``request`` over that of ``over``, for the same partie."""
    return lambda result, key: server_ms(result, request, key) / server_ms(result, over, key)


def queries(result: Result, request: str) -> dict[str, int]:
    return {r["partie"]: r["queries"] for r in result["requests"] if r["name"] == request}


def engine_ms(result: Result, name: str) -> float:
    return result["engine_ms"][name]


def page_kb(result: Result, key: str) -> float:
    return result["sizes"][key]["total_bytes"] / 1024


def load_errors(result: Result, _key: str) -> int:
    return result["load"]["read"]["errors"] + result["load"]["write"]["errors"]


def parties(result: Result) -> list[str]:
    """Every partie measured (bench/parties.py SPECS), in order."""
    return [r["partie"] for r in result["requests"] if r["name"] == PAGE]


def engine(result: Result) -> list[str]:
    return list(result["engine_ms"])


QUERIED = (PAGE, FRAGMENT, POLL)
EQUAL = "equal"  # a limit: the value, by partie, must not change from one partie to another


@dataclass(frozen=True)
class Budget:
    label: str
    value: Value
    limit: float | str
    unit: str
    keys: Callable[[Result], Iterable[str]] | tuple[str, ...] = ("",)

    def check(self, result: Result) -> list[dict[str, Any]]:
        keys = self.keys(result) if callable(self.keys) else self.keys
        return [self.line(key, self.value(result, key)) for key in keys]

    def line(self, key: str, value: Any) -> dict[str, Any]:
        if self.limit == EQUAL:
            passed = len(set(value.values())) <= 1
        else:
            passed = value <= self.limit
            value = round(value, 2)
        return {
            "budget": self.label.format(key=key),
            "value": value,
            "limit": self.limit,
            "unit": self.unit,
            "verdict": "PASS" if passed else "FAIL",
        }


# label, value, limit, unit, keys ("{key}" in the label: each key in turn)
BUDGETS = [
    Budget("queries of {key} do not grow with the donnes", queries, EQUAL, "queries", QUERIED),
    Budget("{key} partie page / minimal view", ratio(PAGE, SANTE), 3, "×", ("4x20",)),
    Budget("{key} partie page / minimal view", ratio(PAGE, SANTE), 8, "×", ("7x120",)),
    Budget("record a donne {key} / its partie page", ratio(RECORD, PAGE), 2, "×", parties),
    Budget("unchanged poll {key} / minimal view", ratio(POLL, SANTE), 1.5, "×", parties),
    Budget("engine replay {key}", engine_ms, 20, "ms", engine),
    Budget("partie page {key} + CSS + JS, compressed", page_kb, 60, "KB", parties),
    Budget("load run errors", load_errors, 0, "errors"),
]


def check_budgets(result: Result) -> list[dict[str, Any]]:
    return [line for budget in BUDGETS for line in budget.check(result)]

"""The budgets, all in BUDGETS below, one line each, checked against the measured result (the
dict written to bench/results/latest.json) and marked PASS or FAIL. A budget's label may hold
"{key}": it then stands for each of its keys in turn (every partie, every engine timing...)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bench.parties import HEAVIEST
from bench.timings import (
    FLOOR,
    FRAGMENT,
    HOME,
    PAGE,
    PDF_AGAIN,
    PDF_FIRST,
    POLL,
    RECORD,
    RECORD_QUEUED,
    SANTE,
)

Result = dict[str, Any]  # the measured result: "requests", "sizes", "engine_ms", "load"
Value = Callable[[Result, str], Any]  # (result, key) -> the budget's value for that key


def server_ms(result: Result, request: str, key: str) -> float | None:
    """The gunicorn median of ``request`` for partie ``key`` (or of the request measured once,
    as /sante/, whatever the key); None if it was not measured."""
    rows = result["requests"]
    row = next((r for r in rows if r["name"] == request and r["partie"] in (key, "")), None)
    return None if row is None else row["server_ms"]


def divided(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or not denominator else numerator / denominator


def ratio(request: str, over: str) -> Value:
    """gunicorn time of ``request`` over that of ``over``, for the same partie."""
    return lambda result, key: divided(
        server_ms(result, request, key), server_ms(result, over, key)
    )


def ratio_to(request: str, at: str) -> Value:
    """gunicorn time of ``request`` for the key over that of the same request for ``at``."""
    return lambda result, key: divided(
        server_ms(result, request, key), server_ms(result, request, at)
    )


def sante_p95(result: Result, _key: str) -> float | None:
    """/sante/'s p95 during the load run, PDFs of the heaviest partie asked in parallel."""
    return result["load"]["sante"]["p95_ms"]


def queries(result: Result, request: str) -> dict[str, int]:
    return {r["partie"]: r["queries"] for r in result["requests"] if r["name"] == request}


def engine_ms(result: Result, name: str) -> float:
    return result["engine_ms"][name]


def page_kb(result: Result, key: str) -> float:
    return result["sizes"][key]["total_bytes"] / 1024


def offline_totals_ms(result: Result, _key: str) -> float | None:
    """From "Noter la donne" offline to the engine's totals on screen, the worker ready."""
    return result.get("offline_engine", {}).get("donne_to_totals_ms")


def load_errors(result: Result, _key: str) -> int:
    return sum(result["load"][kind]["errors"] for kind in ("read", "write", "pdf", "sante"))


def parties(result: Result) -> list[str]:
    """Every partie measured (bench/parties.py SPECS), in order."""
    return [r["partie"] for r in result["requests"] if r["name"] == PAGE]


def engine(result: Result) -> list[str]:
    return list(result["engine_ms"])


QUERIED = (PAGE, FRAGMENT, POLL)
LONG = ("7x300", "7x1000")  # recording a donne there costs what it costs at 4x20
PDF = (HEAVIEST,)  # the partie whose PDF three clients ask for during the load run
EQUAL = "equal"  # a limit: the value, by partie, must not change from one partie to another


@dataclass(frozen=True)
class Budget:
    label: str
    value: Value
    limit: float | str
    unit: str
    keys: Callable[[Result], Iterable[str]] | tuple[str, ...] = ("",)
    strict: bool = False  # the value must stay under the limit, not reach it
    at_least: bool = False  # the limit is a floor (tables held), not a ceiling

    def check(self, result: Result) -> list[dict[str, Any]]:
        keys = self.keys(result) if callable(self.keys) else self.keys
        return [self.line(key, self.value(result, key)) for key in keys]

    def line(self, key: str, value: Any) -> dict[str, Any]:
        if value is None:  # not measured (a request that failed): missed
            passed = False
        elif self.limit == EQUAL:
            passed = len(set(value.values())) <= 1
        else:
            if self.at_least:
                passed = value >= self.limit
            else:
                passed = value < self.limit if self.strict else value <= self.limit
            value = round(value, 2)
        return {
            "budget": self.label.format(key=key),
            "value": value,
            "limit": self.limit,
            "unit": self.unit,
            "verdict": "PASS" if passed else "FAIL",
        }


# label, value, limit, unit, keys ("{key}" in the label: each key in turn), strict
BUDGETS = [
    Budget("queries of {key} do not grow with the donnes", queries, EQUAL, "queries", QUERIED),
    Budget("partie page {key} / 4x20", ratio_to(PAGE, "4x20"), 1.2, "×", ("7x300",)),
    Budget("partie page {key} / 4x20", ratio_to(PAGE, "4x20"), 1.3, "×", ("7x1000",)),
    Budget("record a donne {key} / 4x20", ratio_to(RECORD, "4x20"), 1.3, "×", LONG),
    Budget("partie page {key} / the floor", ratio(PAGE, FLOOR), 2, "×", ("4x20",)),
    Budget("record a donne {key} / its partie page", ratio(RECORD, PAGE), 2, "×", parties),
    Budget("record a donne {key} / the floor", ratio(RECORD, FLOOR), 3, "×", ("4x20",)),
    # The same goal for the write alone (the offline queue's donne, answered in JSON): what
    # is left of the one above once nothing is drawn.
    Budget("record {key}, nothing drawn / floor", ratio(RECORD_QUEUED, FLOOR), 3, "×", ("4x20",)),
    Budget("unchanged poll {key} / minimal view", ratio(POLL, SANTE), 1.5, "×", parties),
    Budget("PDF {key}, 2nd GET / minimal view", ratio(PDF_AGAIN, SANTE), 5, "×", ("7x300",)),
    Budget("PDF {key}, first render / its page", ratio(PDF_FIRST, PAGE), 20, "×", ("7x300",)),
    Budget("home page {key} / 2 parties", ratio_to(HOME, "2 parties"), 1.5, "×", ("200 parties",)),
    Budget("queries of the {key} do not grow with the parties", queries, EQUAL, "queries", (HOME,)),
    Budget("/sante/ p95 in the load run, PDFs of {key}", sante_p95, 1000, "ms", PDF, strict=True),
    Budget("engine replay {key}", engine_ms, 20, "ms", engine),
    Budget("partie page {key} + CSS + JS, compressed", page_kb, 60, "KB", parties),
    Budget("load run errors (PDFs and /sante/ included)", load_errors, 0, "errors"),
    Budget("offline donne to provisional totals", offline_totals_ms, 300, "ms", strict=True),
]


def check_budgets(result: Result) -> list[dict[str, Any]]:
    return [line for budget in BUDGETS for line in budget.check(result)]


def evening_value(name: str) -> Value:
    return lambda result, _key: result.get(name)


def fault_count(name: str) -> Value:
    return lambda result, _key: (result.get("fault_run") or {}).get(name)


# The evening's load run (make load, bench/evening/): checked against its own result.
EVENING_BUDGETS = [
    Budget(
        "tables held per core of the app servers (p99 < 200 ms, no error)",
        evening_value("tables_per_core"),
        1000,
        "tables",
        at_least=True,
    ),
    Budget("donnes lost in the fault run", fault_count("lost"), 0, "donnes"),
]


def check_evening(result: Result) -> list[dict[str, Any]]:
    return [line for budget in EVENING_BUDGETS for line in budget.check(result)]

"""What the bench reports: the machine it ran on, the tables printed (requests, page sizes, load
run, budgets with PASS or FAIL) and bench/results/latest.json."""

from __future__ import annotations

import datetime
import json
import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django

from bench.environment import ROOT

RESULTS = ROOT / "bench" / "results" / "latest.json"
LOAD_KINDS = {
    "read": "read (partie pages)",
    "write": "write (donnes)",
    "pdf": "PDF (200, 304, or 503/429 until rendered)",
    "sante": "/sante/ monitor",
}


def machine() -> dict[str, str]:
    model = ""
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "python": platform.python_version(),
        "django": django.get_version(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
    }


def fmt(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def print_table(result: dict[str, Any]) -> None:
    m = result["machine"]
    print(f"\nramiscore bench — {m['date']} — {m['nproc']} CPU {m['cpu']}, Python {m['python']}")
    print(
        "\n| request | partie | gunicorn ms | × /sante/ | test client ms | × /sante/ | queries"
        " | note |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for r in result["requests"]:
        queries = "" if r["queries"] is None else r["queries"]
        print(
            f"| {r['name']} | {r['partie']} | {fmt(r['server_ms'], 2)} | {fmt(r['server_ratio'])}"
            f" | {fmt(r['client_ms'], 2)} | {fmt(r['client_ratio'])} | {queries}"
            f" | {r['note']} |"
        )
    print("\n| partie page | HTML | HTML gzip | CSS + JS (br/gzip) | total compressed |")
    print("|---|---:|---:|---:|---:|")
    for key, s in result["sizes"].items():
        if key == "assets":
            continue
        print(
            f"| {key} | {s['html_bytes'] / 1024:.1f} KB | {s['html_gzip_bytes'] / 1024:.1f} KB"
            f" | {s['static_bytes'] / 1024:.1f} KB | {s['total_bytes'] / 1024:.1f} KB |"
        )
    load = result["load"]
    print(
        f"\nLoad: {load['readers']} readers + {load['writers']} writers, {load['seconds']} s;"
        f" {load['pdf_clients']} clients of the {load['pdf_partie']} PDF and a /sante/ monitor,"
        f" {load['seconds_with_pdfs']} s until the last PDF answer"
    )
    print("| clients | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind, label in LOAD_KINDS.items():
        s = load[kind]
        print(
            f"| {label} | {s['requests']} | {s['rps']} | {s['p50_ms']} | {s['p95_ms']}"
            f" | {s['p99_ms']} | {s['max_ms']} | {s['errors']} |"
        )
    w = load["write"]
    print(f"Writers: {w['recorded']} donnes recorded, {w['stale_resubmitted']} stale refusals")
    statuses = ", ".join(f"{k} × {n}" for k, n in load["pdf"]["statuses"].items()) or "none"
    print(f"PDF answers: {statuses}")
    for kind, label in LOAD_KINDS.items():
        for error in load[kind]["first_errors"]:
            print(f"  {label} error: {error}")
    print("\n| budget | value | limit | verdict |")
    print("|---|---:|---:|---|")
    for b in result["budgets"]:
        value = b["value"]
        shown = value if isinstance(value, dict) else f"{value} {b['unit']}"
        limit = b["limit"] if isinstance(b["limit"], str) else f"{b['limit']} {b['unit']}"
        print(f"| {b['budget']} | {shown} | {limit} | {b['verdict']} |")


def write_results(result: dict[str, Any], path: Path = RESULTS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return path


def print_missed(result: dict[str, Any]) -> None:
    missed = [b for b in result["budgets"] if b["verdict"] != "PASS"]
    # A measurement, not a gate: the README says which budgets are missed and why.
    print(f"{len(missed)} budget(s) missed out of {len(result['budgets'])}.")


def interleaved(
    kinds: dict[tuple[str, str], Callable[[], float]], rounds: int
) -> dict[tuple[str, str], list[float]]:
    """Each kind's time (by request and partie) in ``rounds`` rounds that take turns, so that
    a busy machine slows them all alike; each measured once before, to warm every worker (and
    every cache). For ``write_medians``."""
    for measure in kinds.values():
        measure()
    samples: dict[tuple[str, str], list[float]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind, measure in kinds.items():
            samples[kind].append(measure())
    return samples


def write_medians(samples: dict[tuple[str, str], list[float]], budgets: list, name: str) -> None:
    """The medians of one interleaved run (``samples`` by request and partie), checked
    against ``budgets`` (those whose parties were measured), printed and written to
    bench/results/``name``: the short benches (bench/home.py, bench/page.py) share it."""
    import statistics

    rows = [
        {"name": request, "partie": key, "server_ms": statistics.median(values), "queries": None}
        for (request, key), values in samples.items()
    ]
    for row in rows:
        print(f"  {row['name']:<34} {row['partie']:<11} {row['server_ms']:8.2f} ms")
    result = {"machine": machine(), "requests": rows}
    lines = [line for budget in budgets for line in budget.check(result)]
    lines = [line for line in lines if line["value"] is not None]  # the parties measured
    for line in lines:
        print(f"{line['verdict']}  {line['budget']}: {line['value']} (≤ {line['limit']})")
    result["budgets"] = lines
    path = RESULTS.parent / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"Written to {path.relative_to(ROOT)}")

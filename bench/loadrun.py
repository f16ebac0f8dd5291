"""The load run: readers of partie pages and writers recording donnes on one partie, together
against gunicorn for a fixed time; requests, rates, latency percentiles and errors by kind."""

from __future__ import annotations

import random
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bench.app import stale_refusal
from bench.parties import World
from bench.serving import Http

READERS = 16
WRITERS = 2
SECONDS = 10.0
HTMX = {"HX-Request": "true"}
# What the app answers a writer whose form is stale, and one whose donne was recorded.
STALE = stale_refusal()
RECORDED = "notée"


@dataclass
class LoadStats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    recorded: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def load_run(
    world: World,
    port: int,
    seconds: float = SECONDS,
    readers: int = READERS,
    writers: int = WRITERS,
) -> dict[str, Any]:
    """``readers`` of partie pages and ``writers`` recording donnes on one partie, for a fixed
    time. A writer refused as stale (the other one wrote meanwhile) resubmits with the fresh
    form the refusal returned, as a phone would: handled, not an error."""
    pages = [f"/parties/{p.pk}/" for p in world.parties.values()]
    target = world.writers_partie
    stats = {"read": LoadStats(), "write": LoadStats()}
    deadline = time.monotonic() + seconds
    start_gate = threading.Barrier(readers + writers)

    def reader(index: int) -> None:
        client = Http(port, world.cookies)
        rng = random.Random(index)
        start_gate.wait()
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                status, _h, _b = client.request("GET", rng.choice(pages))
                if status != 200:
                    raise RuntimeError(f"status {status}")
            except Exception as err:  # noqa: BLE001 - every failure is counted, none hidden
                with stats["read"].lock:
                    stats["read"].errors.append(repr(err))
                continue
            with stats["read"].lock:
                stats["read"].latencies.append(time.perf_counter() - start)

    def writer(index: int) -> None:
        client = Http(port, world.cookies)
        url = f"/parties/{target.pk}/donnes/"
        start_gate.wait()
        html = ""
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                if not html:
                    status, _h, body = client.request("GET", f"/parties/{target.pk}/")
                    html = body.decode()
                status, _h, body = client.request("POST", url, form_from(html), **HTMX)
                html = body.decode()
                if status != 200:
                    raise RuntimeError(f"status {status}")
                with stats["write"].lock:
                    if STALE in html:
                        stats["write"].stale += 1
                    elif RECORDED in html:
                        stats["write"].recorded += 1
                    else:
                        raise RuntimeError("neither recorded nor refused as stale")
            except Exception as err:  # noqa: BLE001
                html = ""
                with stats["write"].lock:
                    stats["write"].errors.append(repr(err))
                continue
            with stats["write"].lock:
                stats["write"].latencies.append(time.perf_counter() - start)

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(readers)]
    threads += [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 90)
    elapsed = time.perf_counter() - began
    return {
        "seconds": round(elapsed, 1),
        "readers": readers,
        "writers": writers,
        "read": summary(stats["read"], elapsed),
        "write": {
            **summary(stats["write"], elapsed),
            "recorded": stats["write"].recorded,
            "stale_resubmitted": stats["write"].stale,
        },
    }


def form_from(html: str) -> dict[str, str]:
    """The donne form of a page or of a refusal, filled in: a winner, one point for the rest."""
    etat = re.search(r'name="etat" value="([^"]*)"', html)
    cle = re.search(r'name="cle" value="([^"]*)"', html)
    en_course = re.search(r'name="en_course" value="([^"]*)"', html)
    winners = re.findall(r'name="winner" id="[^"]*" value="(\d+)"', html)
    points = re.findall(r'name="points_(\d+)"', html)
    if not (etat and cle and winners):
        raise RuntimeError("no donne form in the response")
    winner = random.choice(winners)
    post = {"winner": winner, "etat": etat.group(1), "cle": cle.group(1)}
    if en_course:
        post["en_course"] = en_course.group(1)
    for pk in points:
        if pk != winner:
            post[f"points_{pk}"] = "1"
    return post


def summary(s: LoadStats, elapsed: float) -> dict[str, Any]:
    lat = sorted(s.latencies)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    return {
        "requests": len(lat),
        "rps": round(len(lat) / elapsed, 1),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "errors": len(s.errors),
        "first_errors": s.errors[:5],
    }

"""The load run: readers of partie pages and writers recording donnes on one partie, together
against gunicorn for a fixed time, while three clients ask for the PDF of the heaviest partie
and a monitor polls /sante/; requests, rates, latency percentiles and errors by kind."""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.app import stale_refusal
from bench.forms import new_donne
from bench.parties import HEAVIEST, World, renew_last
from bench.serving import Http
from bench.timings import header, retry_after

READERS = 16
WRITERS = 2
PDF_CLIENTS = 3
SECONDS = 10.0
HTMX = {"HX-Request": "true"}
# What the app answers a writer whose form is stale, and one whose donne was recorded.
STALE = stale_refusal()
RECORDED = "notée"
# A PDF still coming after this long is a timeout (an error); /sante/ is polled this often.
PDF_TIMEOUT = 60.0
SANTE_TIMEOUT = 30.0
SANTE_EVERY = 0.1
# Not rendered yet: 503 with Retry-After, the page that asks again by itself (the task runner
# renders it, games/views/sheet_cache.py), or 429 while the owner's earlier one renders; both
# asked again after their Retry-After. 304 if ever answered.
PDF_LATER = {429, 503}
PDF_FINE = {200, 304, *PDF_LATER}


@dataclass
class LoadStats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    recorded: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, err: str) -> None:
        with self.lock:
            self.errors.append(err)

    def took(self, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)


def load_run(
    world: World,
    port: int,
    seconds: float = SECONDS,
    readers: int = READERS,
    writers: int = WRITERS,
    pdf_clients: int = PDF_CLIENTS,
) -> dict[str, Any]:
    """``readers`` of partie pages and ``writers`` recording donnes on one partie, for a fixed
    time. A writer refused as stale (the other one wrote meanwhile) resubmits with the fresh
    form the refusal returned, as a phone would: handled, not an error. Meanwhile
    ``pdf_clients`` ask for the PDF of the heaviest partie, each asking again once its answer
    came (200, 304, or 503 or 429 with Retry-After while it is being prepared; another 5xx,
    a dropped connection or a timeout is an error), and a monitor polls /sante/ until the
    deadline and the last PDF answer, whichever comes later. The heaviest partie's last donne
    is first recorded anew, so that no PDF of it is left from the measures before."""
    heaviest = world.parties[HEAVIEST]
    renew_last(world.client, heaviest)
    pages = [f"/parties/{p.pk}/" for p in world.parties.values()]
    pdf_url = f"/parties/{heaviest.pk}/marque.pdf"
    target = world.writers_partie
    stats = {kind: LoadStats() for kind in ("read", "write", "pdf", "sante")}
    deadline = time.monotonic() + seconds
    # Everyone starts together; a thread that died before getting there breaks it, not hangs it.
    start_gate = threading.Barrier(readers + writers + pdf_clients + 1, timeout=60)
    pdfs_done = threading.Event()

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
                stats["read"].error(repr(err))
                continue
            stats["read"].took(time.perf_counter() - start)

    def writer(index: int) -> None:
        client = Http(port, world.cookies)
        rng = random.Random(100 + index)
        url = f"/parties/{target.pk}/donnes/"
        start_gate.wait()
        html = ""
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                if not html:
                    status, _h, body = client.request("GET", f"/parties/{target.pk}/")
                    html = body.decode()
                status, _h, body = client.request("POST", url, new_donne(html, rng), **HTMX)
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
                stats["write"].error(repr(err))
                continue
            stats["write"].took(time.perf_counter() - start)

    def pdf_client(_index: int) -> None:
        s = stats["pdf"]
        client = Http(port, world.cookies, timeout=PDF_TIMEOUT)
        start_gate.wait()
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                status, headers, _b = client.request("GET", pdf_url, retry=False)
            except (OSError, http.client.HTTPException) as err:
                kind = "timeout" if isinstance(err, TimeoutError) else type(err).__name__
                with s.lock:
                    s.statuses[kind] += 1
                s.error(f"{kind} after {time.perf_counter() - start:.1f} s: {err!r}")
                client = Http(port, world.cookies, timeout=PDF_TIMEOUT)
                continue
            s.took(time.perf_counter() - start)
            with s.lock:
                s.statuses[str(status)] += 1
            if status not in PDF_FINE or (status == 503 and header(headers, "Retry-After") is None):
                s.error(f"status {status}")
            elif status in PDF_LATER:
                time.sleep(retry_after(headers))

    def monitor(_index: int) -> None:
        s = stats["sante"]
        client = Http(port, {}, timeout=SANTE_TIMEOUT)
        start_gate.wait()
        while time.monotonic() < deadline or not pdfs_done.is_set():
            start = time.perf_counter()
            try:
                status, _h, _b = client.request("GET", "/sante/")
                if status != 200:
                    raise RuntimeError(f"status {status}")
            except Exception as err:  # noqa: BLE001
                s.error(repr(err))
                client = Http(port, {}, timeout=SANTE_TIMEOUT)
            # A poll that failed or timed out counts with the time it took: its percentiles
            # are what a load balancer would have seen.
            s.took(time.perf_counter() - start)
            time.sleep(SANTE_EVERY)

    def start(target: Any, count: int) -> list[threading.Thread]:
        threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        return threads

    began = time.perf_counter()
    clients = start(reader, readers) + start(writer, writers)
    pdf_threads = start(pdf_client, pdf_clients)
    (watch,) = start(monitor, 1)
    for thread in clients:
        thread.join(timeout=seconds + 90)
    elapsed = time.perf_counter() - began
    for thread in pdf_threads:
        thread.join(timeout=seconds + PDF_TIMEOUT + 30)
    pdfs_done.set()
    watch.join(timeout=SANTE_TIMEOUT + 5)
    elapsed_all = time.perf_counter() - began
    return {
        "seconds": round(elapsed, 1),
        "seconds_with_pdfs": round(elapsed_all, 1),
        "readers": readers,
        "writers": writers,
        "pdf_clients": pdf_clients,
        "pdf_partie": HEAVIEST,
        "read": summary(stats["read"], elapsed),
        "write": {
            **summary(stats["write"], elapsed),
            "recorded": stats["write"].recorded,
            "stale_resubmitted": stats["write"].stale,
        },
        "pdf": {
            **summary(stats["pdf"], elapsed_all),
            "statuses": dict(sorted(stats["pdf"].statuses.items())),
        },
        "sante": summary(stats["sante"], elapsed_all),
    }


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
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "errors": len(s.errors),
        "first_errors": s.errors[:5],
    }

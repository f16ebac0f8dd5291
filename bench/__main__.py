"""``make bench`` (``python -m bench`` from the checkout): the pages and the recording of a
donne, timed against budgets.

Everything happens in a temporary directory: a fresh SQLite database (SQLITE_NAME), migrated
here, and the static files collected there (bench/environment.py, bench/settings.py). The
parties are recorded through the services, rachats and eliminations included
(bench/parties.py); then each request is timed as a median over repetitions, through gunicorn on
127.0.0.1 (DEBUG off, as in production) and through Django's test client, and each figure is
also given as a ratio to /sante/, the cheapest Django response of the same server
(bench/timings.py); a PDF's first render is timed once. The page sizes (bench/sizes.py) and a
short load run (bench/loadrun.py, with PDFs of the heaviest partie asked in parallel and /sante/
watched) follow. The table is printed and written to bench/results/latest.json
(bench/reporting.py); the budgets (bench/budgets.py) are marked PASS or FAIL. A measurement,
not a gate: it exits 0.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.budgets import check_budgets
from bench.environment import HOST, ROOT, TMP
from bench.loadrun import load_run
from bench.offline_engine import measure_offline_engine, print_offline_engine
from bench.parties import build_world
from bench.reporting import machine, print_missed, print_table, write_results
from bench.serving import WORKERS, free_port, prepare, start_server, stop_server
from bench.sizes import measure_sizes
from bench.timings import engine_times, measure_requests


def main() -> int:
    started = time.perf_counter()
    server = worker = None
    try:
        print(f"Temporary database and static files in {TMP}")
        prepare()
        world = build_world()
        port = free_port()
        server = start_server(port)
        # The task runner renders the PDFs beside gunicorn, as in production (README.md).
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"],
            cwd=ROOT,
            env=os.environ.copy(),
        )
        print(
            f"gunicorn on http://{HOST}:{port}/ ({WORKERS} workers); medians: gunicorn, test client"
        )
        rows = measure_requests(world, port)
        sizes = measure_sizes(world, port)
        print("the engine on the phone (Chromium)…", flush=True)
        offline_engine = measure_offline_engine(world, port)
        print("load run…", flush=True)
        load = load_run(world, port)
        engine = engine_times(world)
        result = {
            "machine": machine(),
            "requests": [r.__dict__ for r in rows],
            "sizes": sizes,
            "engine_ms": engine,
            "load": load,
            "offline_engine": offline_engine,
        }
        result["budgets"] = check_budgets(result)
        print_table(result)
        print_offline_engine(result["offline_engine"])
        path = write_results(result)
        print(f"\nWritten to {path.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s")
        print_missed(result)
        return 0
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        if server is not None:
            stop_server(server)


if __name__ == "__main__":
    sys.exit(main())

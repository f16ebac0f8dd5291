"""PDFs off the request path, measured (``python -m bench.pdf_renders``).

1. The render's CPU (time.process_time, in this process, WeasyPrint already imported as in a
   long-lived worker) of a 7 × 999 and a 7 × 300 partie with the seven long names and 4-digit
   totals, and the 7 × 300 partie page through Django's test client, for the ratio.
2. The production setup of the README (gunicorn, 3 sync workers, DEBUG off) with the task runner
   beside it (`manage.py db_worker`): four accounts ask for their 999-donne PDF at the same
   moment, following the "en préparation" page (503, Retry-After) until the file comes, while
   /sante/ and a fifth account's partie page are asked in a loop. Every latency is recorded;
   nothing is a gate. Bounded: at most PDF_WAIT seconds, then it stops.

Figures go to bench/results/pdf_renders.json and are printed."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time

from bench.app import Client, User, call_command
from bench.environment import HOST, ROOT
from bench.serving import Http, free_port, start_server, stop_server, test_client
from games import sheet_files  # noqa: E402
from games.services.imports import partie_import  # noqa: E402
from tests.sheet_records import four_digit_record  # noqa: E402

ACCOUNTS = 4
PDF_WAIT = 180.0


def cpu(function) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def render_costs(owner: User) -> dict[str, float]:
    import weasyprint  # noqa: F401  (as a worker has it: imported once)

    figures = {}
    for donnes in (300, 999):
        partie = partie_import(owner=owner, record=four_digit_record(donnes), name=f"7x{donnes}")
        figures[f"pdf_7x{donnes}_cpu_s"] = min(
            cpu(lambda p=partie: sheet_files.render_pdf(p, "fr")) for _ in range(2)
        )
        if donnes == 300:
            client = Client(HTTP_HOST=HOST)
            client.force_login(owner)
            url = f"/parties/{partie.pk}/"
            client.get(url)
            page = statistics.median(cpu(lambda u=url, c=client: c.get(u)) for _ in range(15))
            figures["page_7x300_cpu_s"] = page
    figures["pdf_7x300_over_page"] = figures["pdf_7x300_cpu_s"] / figures["page_7x300_cpu_s"]
    return figures


def timed_loop(port, cookies, url, stop: threading.Event, out: list[float]) -> None:
    http = Http(port, cookies, timeout=120)
    while not stop.is_set():
        start = time.perf_counter()
        status, _h, _b = http.request("GET", url)
        out.append(time.perf_counter() - start)
        if status != 200:
            out.append(float("nan"))
        time.sleep(0.1)


def ask_pdf(port, cookies, url, out: dict) -> None:
    """As the browser would: the "en préparation" page again after its Retry-After."""
    http = Http(port, cookies, timeout=120)
    start = time.perf_counter()
    answers = []
    while time.perf_counter() - start < PDF_WAIT:
        t = time.perf_counter()
        status, headers, body = http.request("GET", url)
        answers.append(time.perf_counter() - t)
        if status == 200 and body.startswith(b"%PDF"):
            out.update(ready_s=time.perf_counter() - start, answers=answers, status=200)
            return
        if status != 503:
            out.update(status=status, answers=answers)
            return
        time.sleep(float(headers.get("Retry-After", "3")))
    out.update(status="timeout", answers=answers)


def summary(values: list[float]) -> dict[str, float]:
    ok = [v for v in values if v == v]
    return {
        "count": len(ok),
        "errors": len(values) - len(ok),
        "p50_ms": round(statistics.median(ok) * 1000, 1),
        "max_ms": round(max(ok) * 1000, 1),
    }


def concurrent_pdfs(port: int) -> dict:
    owners = [User.objects.create_user(f"pdf{n}") for n in range(ACCOUNTS + 1)]
    parties = []
    for n, owner in enumerate(owners[:ACCOUNTS]):
        parties.append(partie_import(owner=owner, record=four_digit_record(999), name=f"p{n}"))
    # Clear what the writes queued: the four PDFs are asked for at once, from nothing.
    from django.core.cache import cache
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.all().delete()
    cache.clear()
    other = partie_import(owner=owners[-1], record=four_digit_record(300), name="autre")
    _client, other_cookies = test_client(owners[-1], "/")
    clients = [test_client(o, "/")[1] for o in owners[:ACCOUNTS]]
    DBTaskResult.objects.all().delete()

    baseline_health: list[float] = []
    baseline_page: list[float] = []
    stop = threading.Event()
    loops = [
        threading.Thread(target=timed_loop, args=(port, {}, "/sante/", stop, baseline_health)),
        threading.Thread(
            target=timed_loop,
            args=(port, other_cookies, f"/parties/{other.pk}/", stop, baseline_page),
        ),
    ]
    for loop in loops:
        loop.start()
    time.sleep(5)
    stop.set()
    for loop in loops:
        loop.join()

    health: list[float] = []
    page: list[float] = []
    stop = threading.Event()
    loops = [
        threading.Thread(target=timed_loop, args=(port, {}, "/sante/", stop, health)),
        threading.Thread(
            target=timed_loop, args=(port, other_cookies, f"/parties/{other.pk}/", stop, page)
        ),
    ]
    results = [{} for _ in parties]
    askers = [
        threading.Thread(
            target=ask_pdf, args=(port, cookies, f"/parties/{p.pk}/marque.pdf", results[n])
        )
        for n, (p, cookies) in enumerate(zip(parties, clients, strict=True))
    ]
    for thread in loops + askers:
        thread.start()
    for thread in askers:
        thread.join()
    stop.set()
    for loop in loops:
        loop.join()
    return {
        "pdfs": [
            {
                "status": r.get("status"),
                "ready_s": round(r.get("ready_s", float("nan")), 1),
                "slowest_answer_ms": round(max(r.get("answers", [0])) * 1000, 1),
            }
            for r in results
        ],
        "sante_before": summary(baseline_health),
        "sante_during": summary(health),
        "other_page_before": summary(baseline_page),
        "other_page_during": summary(page),
    }


def main() -> int:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)
    os.environ["RAMISCORE_PDF_RENDERS_AT_ONCE"] = "1"
    from django.conf import settings

    settings.PDF_RENDER_ON_CHANGE = False  # the parties below are imported, not played
    owner = User.objects.create_user("banc-pdf")
    figures = {"renders": render_costs(owner)}
    print(json.dumps(figures, indent=1), flush=True)

    port = free_port()
    server = start_server(port)
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    try:
        figures["four_accounts"] = concurrent_pdfs(port)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        stop_server(server)
    print(json.dumps(figures, indent=1))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "pdf_renders.json").write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Times and query counts: each request as a median over repetitions, through gunicorn and
through the test client, with its queries counted once and its ratio to /sante/; the first
render of a PDF, timed once; and the engine's replay of long parties, outside any request."""

from __future__ import annotations

import dataclasses
import http.client
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.app import CaptureQueriesContext, Client, connection, get_preset, partie_load, replay
from bench.bench_replay import CONFIG, long_partie
from bench.environment import HOST
from bench.parties import HEAVIEST, REPLAYED, World, edit_first, record_again, renew_last
from bench.serving import WORKERS, Http, check

# The requests by name, as the table and the budgets (bench/budgets.py) call them.
SANTE = "minimal view /sante/"
FLOOR = "the floor (logged-in empty page)"
HOME = "home page"
PAGE = "partie page"
FRAGMENT = "htmx marque fragment"
RECORD = "record a donne (htmx POST)"
# The same donne from the phone's offline queue (static/js/queue.js): the same read, form and
# write, answered in a line of JSON, nothing drawn. What the write itself costs.
RECORD_QUEUED = "record a donne (queue, JSON)"
QUEUE = {"X-Ramiscore-Queue": "1"}
# The page the phone's service worker asks for as soon as a donne's answer is swapped, to keep
# it for a reload offline (static/js/offline.js keepThisPage): a donne costs both requests.
PAGE_AFTER = "partie page after a donne"
POLL = "share poll, unchanged (304)"
PDF_FIRST = "marque PDF, first render (once)"
PDF_AGAIN = "marque PDF, 2nd GET (unchanged)"
PDF_MATCH = "marque PDF, If-None-Match"
EDIT = "edit donne 1 (POST, replays all)"

# PasswordChangeDoneView: a session, the user, the base template, and nothing else.
FLOOR_URL = "/comptes/mot-de-passe/change/"
BLANK_SHEET = "/parties/marque-vierge.pdf?preset=classique&joueurs=4"
HTMX = {"HX-Request": "true"}
# A first PDF answered 429 ("Le PDF est en préparation") is asked again until it comes, as the
# page would, after the Retry-After it gives (at most this long), for at most PDF_WAIT seconds.
RETRY_AFTER_MAX = 2.0
PDF_WAIT = 120.0
# bench/bench_replay.py's parties: players × donnes, through the engine alone.
REPLAY_PLAYERS = (7, 8)
REPLAY_DONNES = 300


@dataclass
class Row:
    name: str
    partie: str
    server_ms: float | None = None
    server_ratio: float | None = None
    client_ms: float | None = None
    client_ratio: float | None = None
    queries: int | None = None
    reps: int = 0
    note: str = ""


def median_ms(
    action: Callable[[], Any],
    *,
    before: Callable[[], Any] | None = None,
    after: Callable[[], Any] | None = None,
    reps: int = 30,
    seconds: float = 4.0,
    min_reps: int = 5,
) -> tuple[float, int]:
    """Median wall time of ``action`` in ms; ``before``/``after`` run outside the timing and
    ``before``'s result is passed to ``action``. Stops after ``reps`` or ``seconds``."""
    times = []
    start_all = time.perf_counter()
    for _ in range(reps):
        arg = before() if before else None
        start = time.perf_counter()
        result = action(arg) if before else action()
        times.append(time.perf_counter() - start)
        if after:
            after(result)
        if len(times) >= min_reps and time.perf_counter() - start_all > seconds:
            break
    return statistics.median(times) * 1000, len(times)


def header(headers: dict[str, str], name: str) -> str | None:
    return next((v for k, v in headers.items() if k.lower() == name.lower()), None)


@dataclass
class Session:
    """One account: its test client, and a gunicorn client with the same cookies."""

    client: Client
    http: Http


def measure_requests(world: World, port: int) -> list[Row]:
    owner = Session(world.client, Http(port, world.cookies))
    rows: list[Row] = []

    def both(
        name: str,
        key: str,
        method: str,
        url: str,
        expected: int,
        *,
        session: Session = owner,
        headers: dict[str, str] | None = None,
        data: Callable[[], dict[str, str]] | None = None,
        reps: int = 30,
        seconds: float = 4.0,
        min_reps: int = 5,
    ) -> Row:
        headers = headers or {}
        django_headers = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}

        def via_client(arg=None):
            if method == "GET":
                response = session.client.get(url, **django_headers)
            else:
                response = session.client.post(url, arg, **django_headers)
            check(response.status_code, expected, f"{name} {key} (test client)")
            return response

        def via_server(arg=None):
            status, _h, _body = session.http.request(method, url, arg, **headers)
            check(status, expected, f"{name} {key} (gunicorn)")
            return status

        payload = data() if data else None  # prepared before the queries are counted
        with CaptureQueriesContext(connection) as queries:
            via_client(payload)
        n_queries = len(queries)  # now: the next request clears the log it slices
        options = {"reps": reps, "seconds": seconds, "before": data, "min_reps": min_reps}
        server_ms, n = median_ms(via_server, **options)
        client_ms, _n = median_ms(via_client, **options)
        row = Row(name, key, server_ms, None, client_ms, None, n_queries, n)
        rows.append(row)
        print(f"  {name:<34} {key:<11} {server_ms:8.1f} ms  {client_ms:8.1f} ms  ({n} reps)")
        return row

    def once(name: str, key: str, url: str) -> tuple[Row, dict[str, str]]:
        """One GET through gunicorn, on a connection of its own, not repeated: the first render
        of a PDF (what comes after it may be a cache's answer). A 429 is asked again after its
        Retry-After, and the time runs until the PDF comes."""
        http_client = Http(port, world.cookies, timeout=PDF_WAIT)
        start = time.perf_counter()
        waits, status, headers, note = 0, 0, {}, ""
        try:
            while True:
                status, headers, _body = http_client.request("GET", url, retry=False)
                # 503: "en préparation", the task runner renders it (games/tasks.py).
                if status not in (429, 503) or time.perf_counter() - start > PDF_WAIT:
                    break
                waits += 1
                time.sleep(retry_after(headers))
        except (OSError, http.client.HTTPException) as err:
            note = f"error: {err!r}"
        elapsed = (time.perf_counter() - start) * 1000
        if not note and status != 200:
            note = f"status {status}"
        if waits:
            note = f"{note + ', ' if note else ''}after {waits} × 429/503"
        row = Row(name, key, None if status != 200 else elapsed, reps=1, note=note)
        rows.append(row)
        print(f"  {name:<34} {key:<11} {elapsed:8.1f} ms  {'':>11}  (once) {note}")
        return row, headers

    def pdfs(key: str, url: str, *, cached: bool = True) -> None:
        """The first render; then, unless ``cached`` is off, a plain second GET of the unchanged
        partie and a conditional one with the first response's ETag (if it had one)."""
        first, headers = once(PDF_FIRST, key, url)
        if not cached:
            return
        if first.server_ms is None:
            rows.append(Row(PDF_AGAIN, key, note="not measured: no first PDF"))
            return
        try:
            # Not yet cached, a PDF takes seconds: one repetition is then enough.
            both(PDF_AGAIN, key, "GET", url, 200, reps=20, seconds=3, min_reps=1)
        except SystemExit as err:  # another answer (a 429 from a worker without it…): noted
            rows.append(Row(PDF_AGAIN, key, note=str(err)))
        etag = header(headers, "ETag")
        if not etag:
            rows.append(Row(PDF_MATCH, key, note="not measured: no ETag in the first response"))
            return
        try:
            match = {"If-None-Match": etag}
            both(PDF_MATCH, key, "GET", url, 304, headers=match, reps=30, seconds=3)
        except SystemExit as err:
            rows.append(Row(PDF_MATCH, key, note=str(err)))

    warm_pdf_workers(port, world.cookies)
    base = both(SANTE, "", "GET", "/sante/", 200, reps=200, seconds=3)
    both(FLOOR, "", "GET", FLOOR_URL, 200, reps=100, seconds=3)
    for key, (client, cookies) in world.accounts.items():
        both(HOME, key, "GET", "/", 200, session=Session(client, Http(port, cookies)))
    # Posted to the address gunicorn serves, as the phone does: the page is kept for it.
    address = {"Host": f"{HOST}:{port}"}
    for key, partie in world.parties.items():
        page = f"/parties/{partie.pk}/"
        both(PAGE, key, "GET", page, 200)
        both(FRAGMENT, key, "GET", page, 200, headers=HTMX)
        turns = iter(range(10**6))

        def again(p=partie, t=turns) -> dict[str, str]:
            return record_again(world.client, p, next(t))

        # The page's post, then the queue's: the same donne, drawn or answered in JSON.
        for name, asked in ((RECORD, HTMX), (RECORD_QUEUED, QUEUE)):
            both(
                name,
                key,
                "POST",
                f"/parties/{partie.pk}/donnes/",
                200,
                headers=asked,
                data=again,
                reps=20,
            )
        both(
            PAGE_AFTER,
            key,
            "GET",
            page,
            200,
            headers=address,
            data=lambda p=partie, t=turns: renew_last(world.client, p, address["Host"], next(t)),
            reps=20,
        )
        follow = f"/suivre/{partie.share_token}/"
        etag = world.client.get(follow, HTTP_HX_REQUEST="true")["ETag"]
        both(
            POLL,
            key,
            "GET",
            follow,
            304,
            headers={**HTMX, "If-None-Match": etag},
            reps=100,
            seconds=3,
        )
        # The heaviest PDF takes many seconds today: rendered once, then requested in parallel
        # during the load run (bench/loadrun.py).
        pdfs(key, f"/parties/{partie.pk}/marque.pdf", cached=key != HEAVIEST)
    edited = world.parties[REPLAYED]
    both(
        EDIT,
        REPLAYED,
        "POST",
        f"/parties/{edited.pk}/donnes/1/",
        302,
        data=lambda: edit_first(world.client, edited),
        reps=20,
    )
    for row in rows:
        if row.server_ms is not None:
            row.server_ratio = row.server_ms / base.server_ms
        if row.client_ms is not None:
            row.client_ratio = row.client_ms / base.client_ms
    return rows


def warm_pdf_workers(port: int, cookies: dict[str, str]) -> None:
    """A few blank sheets asked for at once, so that every gunicorn worker has loaded WeasyPrint
    and its fonts (a second or so, once per process) before a first render is timed."""

    def blank(_index: int) -> None:
        status, _h, _b = Http(port, cookies).request("GET", BLANK_SHEET, retry=False)
        if status != 200:
            print(f"  warming up: blank sheet answered {status}")

    for _round in range(2):
        threads = [threading.Thread(target=blank, args=(i,)) for i in range(2 * WORKERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def retry_after(headers: dict[str, str], default: float = 1.0) -> float:
    """The pause a 429 asks for (Retry-After, in seconds), within RETRY_AFTER_MAX."""
    try:
        seconds = float(header(headers, "Retry-After") or default)
    except ValueError:
        seconds = default
    return min(max(seconds, 0.1), RETRY_AFTER_MAX)


def engine_times(world: World, runs: int = 21) -> dict[str, float]:
    """Median ms of a replay by the engine alone: bench_replay's parties, and the partie
    REPLAYED as loaded from the database."""

    def med(action: Callable[[], Any]) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    out = {}
    for count in REPLAY_PLAYERS:
        players = [f"Joueur {i}" for i in range(1, count + 1)]
        preset = dataclasses.replace(get_preset("classique"), max_players=8)
        partie = long_partie(players, REPLAY_DONNES)
        out[f"bench_replay {count}x{REPLAY_DONNES}"] = med(
            lambda p=players, s=preset, d=partie: replay(s, p, d, CONFIG)
        )
    data = partie_load(world.parties[REPLAYED])
    out[f"partie {REPLAYED} (data.replay)"] = med(data.replay)
    return out

"""Times and query counts: each request as a median over repetitions, through gunicorn and
through the test client, with its queries counted once and its ratio to /sante/; and the
engine's replay of long parties, outside any request."""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.app import CaptureQueriesContext, connection, get_preset, partie_load, replay
from bench.bench_replay import CONFIG, long_partie
from bench.parties import LONGEST, World, edit_data, record_data, undo_last
from bench.serving import Http, check

# The requests by name, as the table and the budgets (bench/budgets.py) call them.
SANTE = "minimal view /sante/"
PAGE = "partie page"
FRAGMENT = "htmx marque fragment"
RECORD = "record a donne (htmx POST)"
POLL = "share poll, unchanged (304)"
PDF = "marque PDF"
EDIT = "edit donne 1 (POST, replays all)"

HTMX = {"HX-Request": "true"}
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
    budget: str = ""
    verdict: str = ""


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


def measure_requests(world: World, port: int) -> list[Row]:
    client = world.client
    http_client = Http(port, world.cookies)
    rows: list[Row] = []

    def both(
        name: str,
        key: str,
        method: str,
        url: str,
        expected: int,
        *,
        headers: dict[str, str] | None = None,
        data: Callable[[], dict[str, str]] | None = None,
        after: Callable[[Any], Any] | None = None,
        reps: int = 30,
        seconds: float = 4.0,
    ) -> Row:
        headers = headers or {}
        django_headers = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}

        def via_client(arg=None):
            if method == "GET":
                response = client.get(url, **django_headers)
            else:
                response = client.post(url, arg, **django_headers)
            check(response.status_code, expected, f"{name} {key} (test client)")
            return response

        def via_server(arg=None):
            status, _h, _body = http_client.request(method, url, arg, **headers)
            check(status, expected, f"{name} {key} (gunicorn)")
            return status

        with CaptureQueriesContext(connection) as queries:
            via_client(data() if data else None)
        n_queries = len(queries)  # now: the next request clears the log it slices
        if after:
            after(None)
        before = data if data else None
        options = {"reps": reps, "seconds": seconds, "before": before, "after": after}
        server_ms, n = median_ms(via_server, **options)
        client_ms, _n = median_ms(via_client, **options)
        row = Row(name, key, server_ms, None, client_ms, None, n_queries, n)
        rows.append(row)
        print(f"  {name:<28} {key:<6} {server_ms:8.1f} ms  {client_ms:8.1f} ms  ({n} reps)")
        return row

    base = both(SANTE, "", "GET", "/sante/", 200, reps=200, seconds=3)
    for key, partie in world.parties.items():
        page = f"/parties/{partie.pk}/"
        both(PAGE, key, "GET", page, 200)
        both(FRAGMENT, key, "GET", page, 200, headers=HTMX)
        both(
            RECORD,
            key,
            "POST",
            f"/parties/{partie.pk}/donnes/",
            200,
            headers=HTMX,
            data=lambda p=partie: record_data(p),
            after=lambda _r, p=partie: undo_last(p),
            reps=20,
        )
        follow = f"/suivre/{partie.share_token}/"
        etag = client.get(follow, HTTP_HX_REQUEST="true")["ETag"]
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
        both(PDF, key, "GET", f"/parties/{partie.pk}/marque.pdf", 200, reps=5, seconds=8)
    longest = world.parties[LONGEST]
    both(
        EDIT,
        LONGEST,
        "POST",
        f"/parties/{longest.pk}/donnes/1/",
        302,
        data=lambda: edit_data(longest),
        reps=20,
    )
    for row in rows:
        row.server_ratio = row.server_ms / base.server_ms
        row.client_ratio = row.client_ms / base.client_ms
    return rows


def engine_times(world: World, runs: int = 21) -> dict[str, float]:
    """Median ms of a replay by the engine alone: bench_replay's parties, and the longest
    partie as loaded from the database."""

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
    data = partie_load(world.parties[LONGEST])
    out[f"partie {LONGEST} (data.replay)"] = med(data.replay)
    return out

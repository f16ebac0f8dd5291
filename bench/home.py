"""``python -m bench.home`` (``make bench-home``): the home page of an account of 2 parties and
of one of 200 (bench/parties.py ACCOUNTS), and the floor, through gunicorn (DEBUG off), in
interleaved rounds so that a busy machine slows all three alike; the ratio 200 / 2 against its
budget (bench/budgets.py, the same line ``make bench`` checks). Quicker than the whole bench
when only the home page changed. Written to bench/results/home.json."""

from __future__ import annotations

import random
import statistics
import sys
import time
from functools import partial

from bench.budgets import BUDGETS
from bench.parties import ACCOUNTS, build_account
from bench.reporting import interleaved, write_medians
from bench.serving import Http, prepare, served
from bench.timings import FLOOR, FLOOR_URL, HOME

ROUNDS = 41
TIMED = 10  # requests of each kind per round; the round's median is kept


def timed_ms(http: Http, url: str) -> float:
    times = []
    for _ in range(TIMED):
        start = time.perf_counter()
        status, _headers, _body = http.request("GET", url)
        times.append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise SystemExit(f"GET {url}: {status}")
    return statistics.median(times)


def main() -> int:
    prepare()
    rng = random.Random(8)
    accounts = {key: build_account(f"banc{n}", n, rng) for key, n in ACCOUNTS.items()}
    with served(ROUNDS) as port:
        https = {key: Http(port, cookies) for key, (_client, cookies) in accounts.items()}
        floor_http = next(iter(https.values()))
        kinds = [*((HOME, key, http, "/") for key, http in https.items())]
        kinds.append((FLOOR, "", floor_http, FLOOR_URL))
        timed = {(name, key): partial(timed_ms, http, url) for name, key, http, url in kinds}
        samples = interleaved(timed, ROUNDS)
    home = next(b for b in BUDGETS if b.label.startswith("home page"))
    write_medians(samples, [home], "home.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

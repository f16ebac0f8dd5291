"""``python -m bench.page`` (``make bench-page``): the partie page of 4×20, 7×300 and 7×1000
(bench/parties.py SPECS) and the floor, through gunicorn (DEBUG off), in interleaved rounds so
that a busy machine slows them all alike; the ratios "partie page / the floor" and "partie page
{key} / 4x20" against their budgets (bench/budgets.py, the lines ``make bench`` checks). Quicker
than the whole bench when only the partie page changed. Written to bench/results/page.json.

``--rounds N`` sets the number of rounds; ``--keys 4x20,7x300`` builds only those parties."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from functools import partial

from bench.app import User
from bench.budgets import BUDGETS
from bench.home import timed_ms
from bench.parties import SPECS, build_partie
from bench.reporting import interleaved, write_medians
from bench.serving import Http, prepare, served, test_client
from bench.timings import FLOOR, FLOOR_URL, PAGE

ROUNDS = 41
KEYS = ("4x20", "7x300", "7x1000")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.page")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--keys", default=",".join(KEYS))
    args = parser.parse_args(argv)
    keys = args.keys.split(",")
    prepare()
    rng = random.Random(8)
    owner = User.objects.create_user("banc", password=secrets.token_urlsafe(16))
    parties = {}
    for spec in SPECS:
        if spec.key in keys:
            started = time.perf_counter()
            parties[spec.key] = build_partie(owner, spec, rng)
            print(f"  recorded partie {spec.key} in {time.perf_counter() - started:.1f} s")
    _client, cookies = test_client(owner, "/")
    with served(args.rounds) as port:
        http = Http(port, cookies)
        kinds = [(PAGE, key, f"/parties/{partie.pk}/") for key, partie in parties.items()]
        kinds.append((FLOOR, "", FLOOR_URL))
        timed = {(name, key): partial(timed_ms, http, url) for name, key, url in kinds}
        samples = interleaved(timed, args.rounds)
    ratios = [b for b in BUDGETS if b.label.startswith("partie page") and b.unit == "×"]
    write_medians(samples, ratios, "page.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

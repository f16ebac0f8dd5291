"""``python -m bench.record`` (``make bench-record``): recording a donne on 4×20 (bench/parties.py
SPECS) through gunicorn (DEBUG off), as the page's form posts it (htmx: the answer draws the
page) and as the offline queue sends it (JSON: nothing drawn), and the floor, in interleaved
rounds as bench/page.py times the page: a busy machine slows all three alike, where the whole
bench times each request's repetitions minutes apart from the floor's. The ratios "record … /
the floor" against their budgets (bench/budgets.py, the lines ``make bench`` checks). Written
to bench/results/record.json.

Each post records the partie's last donne again (bench/parties.py ``record_again``: deleted,
then the page loaded and its form filled in), so the partie keeps its 20 donnes; only the post
is timed. ``--rounds N`` sets the number of rounds."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from functools import partial
from itertools import count

from bench.app import User
from bench.budgets import BUDGETS
from bench.environment import HOST
from bench.home import timed_ms
from bench.parties import SPECS, build_partie, record_again
from bench.reporting import interleaved, write_medians
from bench.serving import Http, check, prepare, served, test_client
from bench.timings import FLOOR, FLOOR_URL, HTMX, QUEUE, RECORD, RECORD_QUEUED, median_ms

ROUNDS = 41
KEY = "4x20"
# Posts of each kind per round, the round's median kept (the floor: bench/home.py timed_ms).
TIMED = 5
EACH = {"reps": TIMED, "min_reps": TIMED, "seconds": 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.record")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)
    prepare()
    owner = User.objects.create_user("banc", password=secrets.token_urlsafe(16))
    spec = next(spec for spec in SPECS if spec.key == KEY)
    partie = build_partie(owner, spec, random.Random(8))
    client, cookies = test_client(owner, "/")
    url = f"/parties/{partie.pk}/donnes/"
    turns = count()
    with served(args.rounds) as port:
        http = Http(port, cookies)
        # The phone posts to the address gunicorn serves: the page its answer keeps is that one.
        address = {"Host": f"{HOST}:{port}"}

        def post(data: dict[str, str], headers: dict[str, str]) -> None:
            status, _headers, _body = http.request("POST", url, data, **address, **headers)
            check(status, 200, f"POST {url}")

        def again() -> dict[str, str]:
            return record_again(client, partie, next(turns))

        def posted(headers: dict[str, str]) -> float:
            return median_ms(lambda data: post(data, headers), before=again, **EACH)[0]

        kinds = {
            (FLOOR, ""): partial(timed_ms, http, FLOOR_URL),
            (RECORD, KEY): partial(posted, HTMX),
            (RECORD_QUEUED, KEY): partial(posted, QUEUE),
        }
        samples = interleaved(kinds, args.rounds)
    ratios = [b for b in BUDGETS if b.label.startswith("record") and "floor" in b.label]
    write_medians(samples, ratios, "record.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The evening as Locust plays it (``locust -f bench/evening/locustfile.py``, headless, run by
bench/evening/run.py). The tables come from EVENING_TABLES (bench/evening/tables.py); how
many play from EVENING_COUNT. Per table: one scorekeeper recording a donne every one to three
minutes through the page's own form (bench/forms.py reads it as a phone would), three
followers polling the share link every 3 s with the ETag they hold, a big screen for one
table in ten, and for one in a hundred an export and a PDF now and then.

What each scorekeeper was told was recorded is written to EVENING_RECORDED at the end: the
fault run holds it against the database. The figures of a step are those of EVENING_MEASURED:
every request from EVENING_WARMUP seconds after the last user started until the end, so that
the tables' first page loads (an evening's tables do not all sit down in the same second) are
not what the step is judged on."""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import time
from collections import Counter, defaultdict

from locust import FastHttpUser, between, events, task

from bench.forms import new_donne

with open(os.environ["EVENING_TABLES"], encoding="utf-8") as _fh:
    TABLES = json.load(_fh)
COUNT = int(os.environ.get("EVENING_COUNT", len(TABLES)))
TABLES = TABLES[:COUNT]
RECORDED_FILE = os.environ.get("EVENING_RECORDED", "")
MEASURED_FILE = os.environ.get("EVENING_MEASURED", "")
WARMUP = float(os.environ.get("EVENING_WARMUP", "0"))
# The time between two donnes at a table; a run shorter than this still records about one
# donne per table: each scorekeeper's first is drawn in the first minute.
DONNE_EVERY = (60, 180)
HTMX = {"HX-Request": "true"}
RECORDED = "notée"
# A phone's queue sends a donne again every few seconds until it gets an answer; here once a
# second, ten times (a PostgreSQL restart lasts a second or two).
RETRIES = 10
STALE = "a changé"

recorded: dict[int, set[str]] = {}  # partie id: idempotency keys the page said were recorded


def cookie_header(table: dict) -> dict[str, str]:
    cookies = table["cookies"]
    return {
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "X-CSRFToken": cookies["csrftoken"],
        "Accept-Language": "fr",
    }


def seats(count: int) -> itertools.cycle:
    """Each user of a kind takes the next table in turn."""
    return itertools.cycle(range(count))


class Scorekeeper(FastHttpUser):
    fixed_count = COUNT
    wait_time = between(*DONNE_EVERY)
    seat = seats(COUNT)

    def on_start(self) -> None:
        self.table = TABLES[next(self.seat)]
        self.headers = cookie_header(self.table)
        self.pk = self.table["partie"]
        self.rng = random.Random(self.pk)
        self.html = ""
        recorded.setdefault(self.pk, set())
        self.open_page()
        time.sleep(self.rng.uniform(0, DONNE_EVERY[0]))

    def open_page(self) -> None:
        with self.client.get(
            f"/parties/{self.pk}/", headers=self.headers, name="partie page", catch_response=True
        ) as response:
            if response.status_code == 200:
                self.html = response.text
            else:
                response.failure(f"status {response.status_code}")

    def keep_page(self) -> None:
        """What the phone's service worker does once a donne's answer is swapped: it asks for
        the page, to keep it for a reload offline (static/js/offline.js keepThisPage)."""
        # Named as the proxy's log can name it: by its path, the page opened.
        self.client.get(f"/parties/{self.pk}/", headers=self.headers, name="partie page")

    @task
    def record_a_donne(self) -> None:
        if not self.html:
            self.open_page()
            if not self.html:
                return
        post = new_donne(self.html, self.rng)
        # A phone whose request got no answer sends the same donne again (its key): the
        # server records it once (docs/decisions.md "Offline").
        for attempt in range(RETRIES + 1):
            with self.client.post(
                f"/parties/{self.pk}/donnes/",
                data=post,
                headers={**self.headers, **HTMX},
                name="record a donne",
                catch_response=True,
            ) as response:
                body = response.text or ""
                if response.status_code == 200 and RECORDED in body:
                    recorded[self.pk].add(post["idempotency_key"])
                    self.html = body
                    self.keep_page()
                    return
                if response.status_code == 200 and STALE in body:
                    self.html = ""  # another phone wrote meanwhile: read the page again
                    return
                if response.status_code in (0, 502, 503, 504) and attempt < RETRIES:
                    response.success()  # retried below, counted once if it fails for good
                    time.sleep(1)
                    continue
                response.failure(f"status {response.status_code}")
                self.html = ""
                return


def every(period: float):
    """A phone's poll timer (htmx's ``every 3s``): it fires on the phone's own beat, whatever
    the last answer took. Locust's constant_pacing starts the next poll at once after one that
    took longer than the period, so a slow moment (the tables' first pages) leaves every
    follower polling in the same tenth of a second from then on: a herd no real evening
    has, which would measure the herd's queue rather than the app."""

    def wait_time(user) -> float:
        now = time.monotonic()
        user.beat += period
        while user.beat < now:
            user.beat += period
        return user.beat - now

    return wait_time


class Poller(FastHttpUser):
    """A phone or a screen following the share link with the ETag it holds, from a moment of
    its own in the period."""

    abstract = True
    path = ""  # after /suivre/<token>/
    label = ""
    period = 3.0

    def on_start(self) -> None:
        self.token = self.table()["token"]
        self.etag = ""
        self.beat = time.monotonic() + random.uniform(0, self.period)
        time.sleep(max(0.0, self.beat - time.monotonic()))

    def table(self) -> dict:
        return TABLES[next(self.seat)]

    @task
    def poll(self) -> None:
        headers = {**HTMX, "Accept-Language": "fr"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(
            f"/suivre/{self.token}/{self.path}", headers=headers, name=self.label,
            catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code in (200, 304):
                self.etag = response.headers.get("ETag", self.etag)
                response.success()
            else:
                response.failure(f"status {response.status_code}")


class Follower(Poller):
    fixed_count = 3 * COUNT
    wait_time = every(Poller.period)
    seat = seats(COUNT)
    label = "follow poll"


class BigScreen(Poller):
    fixed_count = max(1, COUNT // 10)
    period = 5.0
    wait_time = every(period)
    seat = seats(COUNT)
    path = "?grand=1"
    label = "big screen poll"

    def table(self) -> dict:
        return TABLES[next(self.seat) * 10 % COUNT]


class Floor(FastHttpUser):
    """Not of the evening (asked by name only, bench/evening/run.py CEILING): a table whose
    three followers' polls, one a second between them, each cost what /sante/ costs."""

    fixed_count = COUNT
    wait_time = every(1.0)

    def on_start(self) -> None:
        self.beat = time.monotonic() + random.uniform(0, 1.0)
        time.sleep(max(0.0, self.beat - time.monotonic()))

    @task
    def poll(self) -> None:
        self.client.get("/sante/", headers={"Accept-Language": "fr"}, name="floor poll")


class Exporter(FastHttpUser):
    fixed_count = max(1, COUNT // 100)
    wait_time = between(20, 40)
    seat = seats(COUNT)

    def on_start(self) -> None:
        table = TABLES[next(self.seat) * 100 % COUNT]
        self.headers = cookie_header(table)
        self.pk = table["partie"]

    @task(3)
    def csv(self) -> None:
        self.client.get(f"/parties/{self.pk}/export.csv", headers=self.headers, name="export csv")

    @task(1)
    def pdf(self) -> None:
        # A PDF not ready yet is answered at once (a page that refreshes itself, or 503 with
        # Retry-After, or 429 while the owner's earlier one renders): never a held worker.
        with self.client.get(
            f"/parties/{self.pk}/marque.pdf", headers=self.headers, name="pdf",
            catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code in (200, 202, 304, 429, 503):
                response.success()
            else:
                response.failure(f"status {response.status_code}")


@events.quitting.add_listener
def _write_recorded(environment, **_kwargs) -> None:
    if RECORDED_FILE:
        with open(RECORDED_FILE, "w", encoding="utf-8") as fh:
            json.dump({str(pk): len(keys) for pk, keys in recorded.items()}, fh)


# The measured window: from WARMUP seconds after the last user started.
measure_from: float | None = None
measure_from_epoch = 0.0  # the same instant on the clock of the proxy's log
samples: dict[str, list[float]] = defaultdict(list)
failures: Counter[str] = Counter()


@events.spawning_complete.add_listener
def _start_measuring(**_kwargs) -> None:
    global measure_from, measure_from_epoch
    measure_from = time.monotonic() + WARMUP
    measure_from_epoch = time.time() + WARMUP


@events.request.add_listener
def _sample(name, response_time, exception, **_kwargs) -> None:
    if measure_from is None or time.monotonic() < measure_from:
        return
    samples[name].append(response_time)
    if exception:
        failures[name] += 1


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


@events.quitting.add_listener
def _write_measured(environment, **_kwargs) -> None:
    if not MEASURED_FILE or measure_from is None:
        return
    seconds = max(1e-9, time.monotonic() - measure_from)
    kinds = {
        name: {
            "requests": len(values),
            "failures": failures[name],
            "rps": round(len(values) / seconds, 1),
            "p50_ms": round(percentile(values, 50), 1),
            "p99_ms": round(percentile(values, 99), 1),
        }
        for name, values in samples.items()
    }
    with open(MEASURED_FILE, "w", encoding="utf-8") as fh:
        window = {"from_epoch": measure_from_epoch, "to_epoch": time.time()}
        json.dump({"seconds": round(seconds, 1), "kinds": kinds, **window}, fh)

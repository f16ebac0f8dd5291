"""The evening's runs (``make load``; ``python -m bench.evening --help``). Stepped runs: for
each number of tables, Locust plays the evening for a fixed time after every user has
started; a step holds when the p99 of every request kind is under 200 ms and nothing failed.
The headline is the largest step that held, per CPU core given to the app servers. Then the
fault run at a smaller size: one app server killed, Redis restarted, PostgreSQL restarted,
with a probe of the proxy every 0.2 s telling what a client saw during each fault and when it
recovered, and the donnes the scorekeepers were told were recorded counted in the database."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench.evening.stack import ROOT, Stack

RESULTS = ROOT / "bench" / "results"
P99_MS = 200
# A step counts only if the evening was played: a load generator short of its core sends less
# than it should, and the proxy then answers fewer tables than the step says, quickly. The
# share of the follow polls owed that the proxy must see (offered_share).
OFFERED = 0.9
# The tables sit down over SPAWN_S seconds; the step is judged from WARMUP_S seconds after the
# last one did (each table's first page is a full render; later polls find nothing new).
SPAWN_S = 30
WARMUP_S = 20
# At most this many users sit down a second: each table's first pages are full renders (about
# 50 ms of the app core for a table's four), and a thousand tables arriving within 30 s would
# be a queue of their first pages, which no evening makes and which Locust, sharing its core
# with Caddy and PostgreSQL, could not send on time either.
MAX_SPAWN_RATE = 40
LOCUSTFILE = Path(__file__).with_name("locustfile.py")


# Who plays at each table (bench/evening/locustfile.py): a scorekeeper and three followers, a
# big screen for one table in ten, an exporter for one in a hundred.
PLAYERS = {
    "Scorekeeper": lambda tables: tables,
    "Follower": lambda tables: 3 * tables,
    "BigScreen": lambda tables: max(1, tables // 10),
    "Exporter": lambda tables: max(1, tables // 100),
}
# Not of the evening: asked by name (--only Floor), a table whose three followers' polls each
# cost what /sante/ does, the cheapest answer Django gives. How many of those the app core
# holds is the most any poll served by the app servers could reach.
CEILING = {"Floor": lambda tables: tables}


def users_for(tables: int, only: tuple[str, ...] = ()) -> int:
    players = {**PLAYERS, **CEILING}
    return sum(count(tables) for name, count in players.items() if name in (only or PLAYERS))


def locust(
    stack: Stack, tables: int, seconds: int, out: Path, cpus: str, only: tuple[str, ...] = ()
) -> dict:
    prefix = out / f"step{tables}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "EVENING_TABLES": str(out / "tables.json"),
        "EVENING_COUNT": str(tables),
        "EVENING_RECORDED": f"{prefix}_recorded.json",
    }
    users = users_for(tables, only)
    # Every user started within about SPAWN_S seconds, never faster than MAX_SPAWN_RATE.
    rate = min(max(20, users // SPAWN_S), MAX_SPAWN_RATE)
    env["EVENING_MEASURED"] = f"{prefix}_measured.json"
    env["EVENING_WARMUP"] = str(WARMUP_S)
    command = [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
        "-u", str(users), "-r", str(rate),
        "-t", f"{seconds + users // rate + WARMUP_S + 5}s",
        "--host", stack.url, "--csv", str(prefix), "--reset-stats", "--only-summary",
        "--stop-timeout", "10", "--loglevel", "WARNING", *(only or PLAYERS),
    ]  # fmt: skip
    if cpus:
        command = ["taskset", "-c", cpus, *command]
    # The load generator shares its core with PostgreSQL, Redis and Caddy, the stack under
    # test: it takes what they leave. Short of the core, it sends less than the evening, and
    # the step does not count (OFFERED).
    command = ["nice", "-n", "19", *command]
    with open(f"{prefix}.log", "w", encoding="utf-8") as log:
        generator = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=log, stderr=log, start_new_session=True
        )
        try:
            least_weight(generator.pid)
            # nice and taskset exec what they start: Locust keeps the pid.
            busy = CpuSampler(lambda: {**stack.groups(), "load generator": {generator.pid}})
            busy.start()
            generator.wait()
        finally:
            if generator.poll() is None:  # the run interrupted: Locust is in a session of its own
                generator.terminate()
                generator.wait()
    busy.stop.set()
    stats = read_stats(prefix, tables, stack.access_log)
    measured = json.loads(Path(f"{prefix}_measured.json").read_text(encoding="utf-8"))
    window = measured["from_epoch"], measured["to_epoch"]
    stats["cpu_busy"] = busy.share(*window)
    stats["cpu_of"] = busy.used(*window)
    stats["cpu_stolen"] = busy.stolen(*window)
    stats["cpu_busiest_second"] = busy.busiest_second(*window)
    return stats


def least_weight(pid: int) -> None:
    """The load generator's session weighed as ``nice 19`` against every other one. Where
    the kernel groups processes by session (/proc/sys/kernel/sched_autogroup_enabled), a
    process's own nice counts only against its session's others, and each session gets its
    share of the core: Locust, in the runner's session with Redis and Caddy, weighed as much as
    PostgreSQL's session did (docs/decisions.md "The load generator's weight"). Where autogroups
    are off, this changes nothing (or the file is missing) and the process's nice is its weight."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text("19", encoding="ascii")


class CpuSampler(threading.Thread):
    """How busy each CPU was (from /proc/stat, once a second): is the app servers' core the
    limit, or something else? And what the processes of each group used, in cores: the app
    servers and their task runners on one core, PostgreSQL, Redis, the proxy and the load
    generator on the other (``Stack.groups``; asked at each sample, as a fault restarts
    some)."""

    def __init__(self, groups: Callable[[], dict[str, set[int]]]) -> None:
        super().__init__(daemon=True)
        self.groups = groups
        self.samples: list[tuple[float, dict[str, tuple[int, int, int]], dict[str, int]]] = []
        self.stop = threading.Event()

    @staticmethod
    def read() -> dict[str, tuple[int, int, int]]:
        cpus = {}
        with open("/proc/stat", encoding="ascii") as fh:
            for line in fh:
                name, *fields = line.split()
                if name.startswith("cpu") and name != "cpu":
                    ticks = [int(f) for f in fields]
                    # total, idle + iowait, and stolen: the time the host gave to another VM
                    cpus[name] = (sum(ticks), ticks[3] + ticks[4], ticks[7])
        return cpus

    def run(self) -> None:
        # What each process was last seen to use: a process that ends (a backend with its
        # connection, a server killed or restarted by a fault) still counts what it used.
        last: dict[tuple[str, int], int] = {}
        while not self.stop.is_set():
            groups = self.groups()
            for name, pids in group_ticks(groups).items():
                for pid, used in pids.items():
                    last[(name, pid)] = max(used, last.get((name, pid), 0))
            totals = dict.fromkeys(groups, 0)
            for (name, _pid), used in last.items():
                totals[name] = totals.get(name, 0) + used
            self.samples.append((time.time(), self.read(), totals))
            time.sleep(1)

    def _ends(self, start: float, end: float):
        inside = [s for s in self.samples if start <= s[0] <= end]
        return (inside[0], inside[-1]) if len(inside) >= 2 else (None, None)

    def share(self, start: float, end: float) -> dict[str, float]:
        first, last = self._ends(start, end)
        if first is None:
            return {}
        first, last = first[1], last[1]
        return {
            name: round(1 - (last[name][1] - first[name][1]) / (last[name][0] - first[name][0]), 2)
            for name in first
            if last[name][0] > first[name][0]
        }

    def stolen(self, start: float, end: float) -> dict[str, float]:
        """The share of each CPU's time the host gave to another machine: a shared machine's
        slow moments."""
        first, last = self._ends(start, end)
        if first is None:
            return {}
        first, last = first[1], last[1]
        return {
            name: round((last[name][2] - first[name][2]) / (last[name][0] - first[name][0]), 3)
            for name in first
            if last[name][0] > first[name][0]
        }

    def busiest_second(self, start: float, end: float) -> dict[str, float]:
        """Each CPU's busy share in its busiest second: a core full for moments, not on
        average."""
        inside = [s[1] for s in self.samples if start <= s[0] <= end]
        busiest: dict[str, float] = {}
        for before, after in itertools.pairwise(inside):
            for name in before:
                total = after[name][0] - before[name][0]
                if total > 0:
                    busy = 1 - (after[name][1] - before[name][1]) / total
                    busiest[name] = round(max(busiest.get(name, 0.0), busy), 2)
        return busiest

    def used(self, start: float, end: float) -> dict[str, float]:
        """Cores used by each group between start and end (of a process that ended meanwhile,
        what it used until the last sample that saw it)."""
        first, last = self._ends(start, end)
        if first is None:
            return {}
        seconds = (last[0] - first[0]) * os.sysconf("SC_CLK_TCK")
        return {name: round((last[2][name] - first[2][name]) / seconds, 2) for name in first[2]}


def group_ticks(groups: dict[str, set[int]]) -> dict[str, dict[int, int]]:
    """The CPU ticks (user and system) used so far by each process of each group, by pid: a
    group is the processes started as its pids and all they started (a server's workers,
    PostgreSQL's backends)."""
    procs: dict[int, tuple[int, int]] = {}  # pid: (parent, ticks)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        procs[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    group_of = {pid: name for name, pids in groups.items() for pid in pids}
    ticks: dict[str, dict[int, int]] = {name: {} for name in groups}
    for pid, (_parent, used) in procs.items():
        root, seen = pid, 0
        while root not in group_of and root in procs and seen < 64:  # up to a root, or init
            root, seen = procs[root][0], seen + 1
        if root in group_of:
            ticks[group_of[root]][pid] = used
    return ticks


def read_stats(prefix: Path, tables: int, access_log: Path) -> dict:
    """The measured window's figures per request kind: as Locust's clients saw them
    (bench/evening/locustfile.py), and as the proxy did (its access log). A step holds on the
    proxy's p99 and no failure on either side. Locust's own figures are kept beside: on this
    2-core machine its gevent client adds tens of milliseconds with hundreds of users (the
    README's "Load" section: /sante/ answers in 2 ms to threads, in 32 ms to Locust's
    users, at the same rate), so they say more of the load generator than of the app."""
    measured = json.loads(Path(f"{prefix}_measured.json").read_text(encoding="utf-8"))
    kinds = measured["kinds"]
    proxy = proxy_stats(access_log, measured["from_epoch"], measured["to_epoch"])
    offered = offered_share(proxy, tables, measured["to_epoch"] - measured["from_epoch"])
    held = (
        bool(proxy)
        and (offered is None or offered >= OFFERED)
        and all(k["failures"] == 0 for k in kinds.values())
        and all(k["errors"] == 0 and k["p99_ms"] < P99_MS for k in proxy.values())
    )
    return {
        "tables": tables, "held": held, "seconds": measured["seconds"],
        "offered": offered, "proxy": proxy, "kinds": kinds,
    }  # fmt: skip


def offered_share(proxy: dict, tables: int, seconds: float) -> float | None:
    """The follow polls the proxy saw, as a share of the evening's (three followers a table,
    each every 3 s: one a second a table); None when no follower played."""
    polls = proxy.get("follow poll", {}).get("requests", 0)
    return round(polls / seconds / tables, 2) if polls else None


# The request kinds of the evening, by method and path (bench/evening/locustfile.py names).
KINDS = [
    ("POST", re.compile(r"/parties/\d+/donnes/"), "record a donne"),
    ("GET", re.compile(r"/parties/\d+/"), "partie page"),
    ("GET", re.compile(r"/suivre/[^/?]+/\?grand=1"), "big screen poll"),
    ("GET", re.compile(r"/suivre/[^/?]+/"), "follow poll"),
    ("GET", re.compile(r"/parties/\d+/export\.csv"), "export csv"),
    ("GET", re.compile(r"/parties/\d+/marque\.pdf"), "pdf"),
    ("GET", re.compile(r"/sante/"), "floor poll"),
]


def proxy_stats(access_log: Path, start: float, end: float) -> dict:
    """p50/p99 per kind of the requests the proxy answered between start and end (epoch)."""
    times: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    with open(access_log, encoding="utf-8") as fh:
        for line in fh:
            entry = json.loads(line)
            if not start <= entry.get("ts", 0) <= end or "request" not in entry:
                continue
            request = entry["request"]
            method, uri = request["method"], request["uri"]
            name = next((n for m, rx, n in KINDS if m == method and rx.fullmatch(uri)), "other")
            times.setdefault(name, []).append(entry["duration"] * 1000)
            status = entry.get("status", 0)
            # A PDF not rendered yet: 503 with Retry-After, by design (views/sheet_cache.py).
            expected = name == "pdf" and status == 503
            errors[name] = errors.get(name, 0) + (status >= 500 and not expected)
    return {
        name: {
            "requests": len(values),
            "errors": errors[name],
            "p50_ms": round(percentile(values, 50), 1),
            "p99_ms": round(percentile(values, 99), 1),
        }
        for name, values in sorted(times.items())
    }


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Probe(threading.Thread):
    """What a client of the proxy sees, every 0.2 s: a follow poll and /sante/."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.urls = [f"{url}/sante/", f"{url}/suivre/{token}/"]
        self.log: list[tuple[float, bool]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for url in self.urls:
                ok = True
                try:
                    with urllib.request.urlopen(url, timeout=5) as response:
                        ok = response.status == 200
                except (urllib.error.URLError, OSError):
                    ok = False
                self.log.append((time.monotonic(), ok))
            time.sleep(0.2)

    def window(self, start: float, end: float) -> dict:
        seen = [ok for t, ok in self.log if start <= t < end]
        failed = [t for t, ok in self.log if start <= t < end and not ok]
        return {
            "probes": len(seen),
            "errors": len(failed),
            "recovered_after_s": round(failed[-1] - start, 1) if failed else 0.0,
        }


def fault_run(stack: Stack, tables: int, out: Path, cpus: str) -> dict:
    token = json.loads((out / "tables.json").read_text())[0]["token"]
    # The steps before played these tables too: only what this run adds is held against
    # what its scorekeepers were told.
    before = stored_donnes(stack)
    probe = Probe(stack.url, token)
    marks: dict[str, float] = {}

    def faults() -> None:
        time.sleep(30)
        marks["kill -9 app server"] = time.monotonic()
        stack.kill_app("app1")
        time.sleep(20)
        marks["restart Redis"] = time.monotonic()
        stack.restart_redis()
        time.sleep(20)
        marks["restart PostgreSQL"] = time.monotonic()
        stack.restart_postgres()
        marks["end"] = time.monotonic() + 20

    probe.start()
    chaos = threading.Thread(target=faults, daemon=True)
    chaos.start()
    stats = locust(stack, tables, 100, out, cpus)
    chaos.join()
    probe.stop.set()
    names = list(marks)
    windows = {
        name: probe.window(marks[name], marks[names[i + 1]]) for i, name in enumerate(names[:-1])
    }
    told = json.loads((out / f"step{tables}_recorded.json").read_text())
    stored = {pk: n - before.get(pk, 0) for pk, n in stored_donnes(stack).items()}
    lost = sum(max(0, n - stored.get(pk, 0)) for pk, n in told.items())
    extra = sum(max(0, stored.get(pk, 0) - n) for pk, n in told.items())
    return {
        "tables": tables,
        "faults": windows,
        "told_recorded": sum(told.values()),
        "in_database": sum(stored.get(pk, 0) for pk in told),
        "lost": lost,
        "recorded_unconfirmed": extra,
        "locust": stats,
    }


def stored_donnes(stack: Stack) -> dict[str, int]:
    query = "SELECT partie_id, count(*) FROM games_donne GROUP BY partie_id"
    rows = subprocess.run(
        [str(stack.pg_bin / "psql"), "-h", "127.0.0.1", "-p", str(stack.ports["pg"]),
         "-U", "ramiscore", "-At", "-F", " ", "-c", query, "ramiscore"],
        check=True, capture_output=True, text=True,
    ).stdout.split("\n")  # fmt: skip
    return {pk: int(n) for pk, n in (r.split() for r in rows if r.strip())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.evening", description=__doc__)
    parser.add_argument("--steps", default="100,400,700,850,1000,1200")
    parser.add_argument("--seconds", type=int, default=60, help="measured time per step")
    parser.add_argument("--fault-tables", type=int, default=100)
    # Two per server: both servers share the app core, so four sync workers run on it, about
    # gunicorn's 2 × cores + 1. With three each (six on the core), a donne's 30 ms of CPU were
    # shared out with five workers answering polls: its p99 at 200 tables was 389 ms, 143 ms
    # with two each (README "An evening").
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument(
        "--no-marks", action="store_true", help="every poll to the app (no follow marks)"
    )
    known = ", ".join([*PLAYERS, *CEILING])
    parser.add_argument("--only", default="", help=f"these players only, of {known}")
    args = parser.parse_args(argv)
    only = tuple(name for name in args.only.split(",") if name)
    if unknown := sorted(set(only) - set(PLAYERS) - set(CEILING)):
        parser.error(f"--only: {', '.join(unknown)}: not one of {known}")
    steps = [int(s) for s in args.steps.split(",")]
    cores = os.cpu_count() or 1
    # Two cores or more: the app servers on the first, everything else (Locust, Caddy,
    # PostgreSQL, Redis) on the others, so that the figure is per core of the app servers.
    app_cpus, other_cpus = ("0", f"1-{cores - 1}") if cores >= 2 else ("", "")
    stack = Stack(
        workers=args.workers, app_cpus=app_cpus, other_cpus=other_cpus, marks=not args.no_marks
    )
    out = stack.tmp / "out"
    out.mkdir(parents=True)
    result: dict = {"setup": {}, "steps": []}
    try:
        print("Starting PostgreSQL, Redis, two gunicorn servers and Caddy…", flush=True)
        stack.start()
        result["setup"] = {
            "app_servers": 2,
            "workers_per_server": args.workers,
            "app_server_cores": 1 if app_cpus else cores,
            "database": "PostgreSQL (private cluster)",
            "cache": "Redis",
            "proxy": "Caddy (deploy/Caddyfile), round robin, retries on the other server",
            "follow_marks": stack.marks,
            "machine_cores": cores,
            "players": list(only or PLAYERS),
        }
        seed = max(steps + [args.fault_tables])
        print(f"Seeding {seed} tables…", flush=True)
        subprocess.run(
            [sys.executable, "-m", "bench.evening.tables", str(seed), str(out / "tables.json")],
            env=stack.env, cwd=ROOT, check=True,
        )  # fmt: skip
        for tables in steps:
            print(f"{tables} tables ({users_for(tables, only)} users)…", flush=True)
            step = locust(stack, tables, args.seconds, out, other_cpus, only)
            result["steps"].append(step)
            print_step(step)
            if not step["held"]:
                break
        held = [s["tables"] for s in result["steps"] if s["held"]]
        result["tables_held"] = max(held) if held else 0
        result["tables_per_core"] = result["tables_held"] / result["setup"]["app_server_cores"]
        print(f"\nHeld: {result['tables_held']} tables, {result['tables_per_core']:.0f} per core")
        # The fault run counts the scorekeepers' donnes: with the whole evening only.
        if not args.no_faults and not only:
            print(f"Fault run with {args.fault_tables} tables…", flush=True)
            result["fault_run"] = fault_run(stack, args.fault_tables, out, other_cpus)
            print(json.dumps(result["fault_run"]["faults"], indent=1))
            print({k: result["fault_run"][k] for k in ("told_recorded", "in_database", "lost")})
    finally:
        stack.stop()
    # Imported last: the bench's budgets module sets Django up for the bench (bench/app.py).
    from bench.budgets import check_evening

    result["budgets"] = check_evening(result)
    for line in result["budgets"]:
        print(f"{line['verdict']}  {line['budget']}: {line['value']} (goal {line['limit']})")
    RESULTS.mkdir(exist_ok=True)
    # A run of some players only is kept beside the evening's, never in its place.
    path = RESULTS / ("evening.json" if not only else f"evening-{'-'.join(only)}.json")
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"Written to {path.relative_to(ROOT)}")
    return 0


def print_step(step: dict) -> None:
    for name, k in sorted(step["kinds"].items()):
        p = step["proxy"].get(name, {"p50_ms": 0, "p99_ms": 0, "errors": 0})
        print(
            f"  {name:18} {k['requests']:7} req {k['rps']:7.1f}/s"
            f"  proxy p50 {p['p50_ms']:6.1f} p99 {p['p99_ms']:6.1f} ms, {p['errors']} errors"
            f"  | Locust p50 {k['p50_ms']:6.0f} p99 {k['p99_ms']:6.0f} ms, {k['failures']} failed"
        )
    print(f"  CPU busy: {step.get('cpu_busy', {})}, used by: {step.get('cpu_of', {})}")
    print(
        f"  stolen by the host: {step.get('cpu_stolen', {})},"
        f" busiest second: {step.get('cpu_busiest_second', {})}"
    )
    if step.get("offered") is not None:
        print(f"  follow polls at the proxy: {step['offered']:.0%} of the evening's")
    print("  held" if step["held"] else "  did not hold")

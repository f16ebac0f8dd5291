"""The production setup of the README, started here and torn down after: a private
PostgreSQL cluster, Redis, two gunicorn servers (the repository's settings, DEBUG off), each
with its task runner, and Caddy in front, balancing them and retrying on the other when one
dies. Each server can be pinned to given CPUs, so that a figure per core of the app servers
means what it says."""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
PG_BIN = Path("/usr/lib/postgresql")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for(check, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{what} did not start within {seconds:.0f} s")


def answers(port: int, path: str = "/sante/") -> bool:
    conn = http.client.HTTPConnection(HOST, port, timeout=2)
    conn.request("GET", path)
    return conn.getresponse().status == 200


def as_postgres(*command: str) -> list[str]:
    # initdb and postgres refuse to run as root; the machine's postgres account runs them.
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


@dataclass
class Stack:
    workers: int = 3
    app_cpus: str = ""  # e.g. "0": taskset for both app servers
    other_cpus: str = ""  # e.g. "1": taskset for PostgreSQL, Redis and Caddy
    # Caddy answers the unchanged polls from the app's marks (games/follow_marks.py), as
    # deploy/Caddyfile does; False: every poll reaches the app servers, as behind nginx.
    marks: bool = True
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ramiscore-load-")))
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)
    ports: dict[str, int] = field(default_factory=dict)

    # --- the pieces ------------------------------------------------------------------------

    @property
    def pg_bin(self) -> Path:
        version = sorted(PG_BIN.iterdir(), key=lambda p: int(p.name))[-1]
        return version / "bin"

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DJANGO_DEBUG": "False",
            "DJANGO_SECRET_KEY": self.secret,
            "DJANGO_SECURE_SSL_REDIRECT": "False",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_TRUSTED_PROXIES": "1",
            "DATABASE_URL": f"postgres://ramiscore@{HOST}:{self.ports['pg']}/ramiscore",
            "REDIS_URL": f"redis://{HOST}:{self.ports['redis']}/0",
            "BENCH_STATIC_ROOT": str(self.tmp / "static"),
            "PYTHONPATH": str(ROOT),
            "RAMISCORE_FOLLOW_MARKS": self.marks_folder,
        }

    @property
    def marks_folder(self) -> str:
        """The follow marks' folder, the same for the app servers and Caddy; empty without."""
        return str(self.tmp / "follow-marks") if self.marks else ""

    def start(self) -> None:
        self.secret = secrets.token_urlsafe(50)
        self.start_postgres()
        self.start_redis()
        self.prepare()
        for name in ("app1", "app2"):
            self.start_app(name)
            self.start_worker(f"{name}-tasks")
        self.start_proxy()

    def start_postgres(self) -> None:
        data = self.tmp / "pg"
        data.mkdir()
        shutil.chown(self.tmp, "postgres") if os.geteuid() == 0 else None
        shutil.chown(data, "postgres") if os.geteuid() == 0 else None
        subprocess.run(
            as_postgres(str(self.pg_bin / "initdb"), "-D", str(data), "-U", "ramiscore",
                        "--auth=trust", "-E", "UTF8"),
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        self.ports["pg"] = free_port()
        self._start_pg_server()
        wait_for(self._pg_ready, "PostgreSQL")
        subprocess.run(
            [str(self.pg_bin / "createdb"), "-h", HOST, "-p", str(self.ports["pg"]),
             "-U", "ramiscore", "ramiscore"],
            check=True,
        )  # fmt: skip

    def _pg_ctl(self, *args: str) -> None:
        data = self.tmp / "pg"
        options = f"-p {self.ports['pg']} -k {data} -c listen_addresses=127.0.0.1"
        subprocess.run(
            self.pinned(as_postgres(str(self.pg_bin / "pg_ctl"), "-D", str(data), "-o", options,
                                    "-l", str(data / "log"), "-w", *args)),
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip

    def pinned(self, command: list[str]) -> list[str]:
        """The services off the app servers' core (their children inherit it): what the app
        servers' core does is theirs alone."""
        return ["taskset", "-c", self.other_cpus, *command] if self.other_cpus else command

    def _start_pg_server(self) -> None:
        self._pg_ctl("start")

    def _pg_ready(self) -> bool:
        probe = [str(self.pg_bin / "pg_isready"), "-q", "-h", HOST, "-p", str(self.ports["pg"])]
        return subprocess.run(probe).returncode == 0

    def start_redis(self) -> None:
        self.ports.setdefault("redis", free_port())
        self.procs["redis"] = subprocess.Popen(
            self.pinned(["redis-server", "--port", str(self.ports["redis"]), "--bind", HOST,
                         "--save", "", "--appendonly", "no"]),
            stdout=subprocess.DEVNULL,
        )  # fmt: skip

        def ready() -> bool:
            with socket.create_connection((HOST, self.ports["redis"]), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")

        wait_for(ready, "Redis")

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip

    def prepare(self) -> None:
        self.manage("migrate", "--no-input")
        self.manage("collectstatic", "--no-input")

    def start_app(self, name: str) -> None:
        self.ports.setdefault(name, free_port())
        # The repository's gunicorn.conf.py (read from the working directory), as the README
        # runs it, with this stack's port and workers and no access log (a line per request
        # would be most of what the load measures).
        command = [
            sys.executable, "-m", "gunicorn",
            "--bind", f"{HOST}:{self.ports[name]}", "--workers", str(self.workers),
            "--access-logfile", "/dev/null", "--log-level", "warning",
        ]  # fmt: skip
        if self.app_cpus:
            command = ["taskset", "-c", self.app_cpus, *command]
        self.procs[name] = subprocess.Popen(command, env=self.env, cwd=ROOT, start_new_session=True)
        wait_for(lambda: answers(self.ports[name]), f"gunicorn {name}")

    def start_worker(self, name: str) -> None:
        """The task runner beside each app server, as docs/deploy.md runs it: the PDFs."""
        command = [sys.executable, "manage.py", "db_worker", "--no-reload"]
        if self.app_cpus:
            command = ["taskset", "-c", self.app_cpus, *command]
        self.procs[name] = subprocess.Popen(
            command, env=self.env, cwd=ROOT, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def start_proxy(self) -> None:
        """deploy/Caddyfile as shipped, over plain http, balancing the two app servers."""
        self.ports["proxy"] = free_port()
        upstreams = " ".join(f"{HOST}:{self.ports[n]}" for n in ("app1", "app2"))
        env = {
            **os.environ,
            "HOME": str(self.tmp),
            "XDG_DATA_HOME": str(self.tmp),
            "CADDY_OPTIONS": "admin off\nauto_https off",
            "RAMISCORE_DOMAIN": f"http://{HOST}:{self.ports['proxy']}",
            # Each request's time as the proxy saw it (bench/evening/run.py reads it).
            # Never rolled: a thousand tables write more than the 100 MiB after which Caddy
            # starts a new file, and the figures would be read from the last part only.
            "RAMISCORE_SITE_OPTIONS": (
                f"log {{\noutput file {self.access_log} {{\nroll_disabled\n}}\nformat json\n}}"
            ),
            "RAMISCORE_UPSTREAM": upstreams,
            "RAMISCORE_PROXY_OPTIONS": "\n".join([
                "lb_policy round_robin", "lb_try_duration 5s", "fail_duration 10s",
                "health_uri /sante/", "health_interval 1s",
            ]),
            "RAMISCORE_FOLLOW_MARKS": self.marks_folder,
        }  # fmt: skip
        if self.marks_folder:
            Path(self.marks_folder).mkdir(exist_ok=True)
        self.procs["proxy"] = subprocess.Popen(
            self.pinned(["caddy", "run", "--config", str(ROOT / "deploy" / "Caddyfile"),
                         "--adapter", "caddyfile"]),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip
        wait_for(lambda: answers(self.ports["proxy"]), "Caddy")

    def groups(self) -> dict[str, set[int]]:
        """The processes of each part of the stack, by the pids that started the others: the
        app servers, their task runners, PostgreSQL (its postmaster), Redis and the proxy."""
        started = {name: proc.pid for name, proc in self.procs.items() if proc.poll() is None}
        groups = {
            "app servers": {pid for name, pid in started.items() if name in ("app1", "app2")},
            "task runners": {pid for name, pid in started.items() if name.endswith("-tasks")},
            "PostgreSQL": set(),
            "Redis": {started["redis"]} if "redis" in started else set(),
            "proxy": {started["proxy"]} if "proxy" in started else set(),
        }
        try:  # its first line is the postmaster's pid
            first = (self.tmp / "pg" / "postmaster.pid").read_text().split("\n", 1)[0]
            groups["PostgreSQL"].add(int(first))
        except (OSError, ValueError):  # restarting
            pass
        return groups

    @property
    def access_log(self) -> Path:
        return self.tmp / "access.log"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.ports['proxy']}"

    # --- the faults ------------------------------------------------------------------------

    def kill_app(self, name: str) -> None:
        """kill -9 the server and its task runner, as a crashed machine would."""
        for proc in (self.procs[name], self.procs[f"{name}-tasks"]):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def restart_redis(self) -> None:
        self.procs["redis"].kill()
        self.procs["redis"].wait()
        self.start_redis()

    def restart_postgres(self) -> None:
        # Fast shutdown: every connection is cut, as a crash or a failover would.
        self._pg_ctl("-m", "fast", "restart")
        wait_for(self._pg_ready, "PostgreSQL")

    def stop(self) -> None:
        for name in ("proxy", "app1", "app1-tasks", "app2", "app2-tasks", "redis"):
            proc = self.procs.get(name)
            if proc is None or proc.poll() is not None:
                continue
            if name.startswith("app"):
                os.killpg(proc.pid, signal.SIGTERM)
            else:
                proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if "pg" in self.ports:
            with contextlib.suppress(subprocess.CalledProcessError):  # it never started
                self._pg_ctl("-m", "fast", "stop")
        shutil.rmtree(self.tmp, ignore_errors=True)

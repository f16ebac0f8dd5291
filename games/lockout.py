"""Proportional locks on password checks (docs/decisions.md "Lockout"): a counter of recent
failures that forgets them at a steady pace, and a lock that grows with how far past its
allowance the counter is, rather than a long fixed block.

A ``Lock`` lets ``free`` failures through; the ``free``-th locks the counter for ``step``
seconds, and each one after it for ``step`` seconds more than the one before (the lock is
``step`` times the failures from the ``free``-th on); one failure is forgotten every
``forget`` seconds. So a few typos cost nothing, a dozen cost a minute or two, and an attacker
who keeps going waits about ``forget`` seconds per guess (the pace at which failures are
forgotten): at most ``3600 / forget`` guesses an hour once the allowance is spent. When the
guessing stops, the lock ends after at most ``step × (failures - free + 1)`` seconds.

Counting is exact under concurrency, as the token buckets are (games/throttle.py): an attempt
is counted, and its lock set, before the password is checked, on every counter at once under
row locks, so two attempts at the same instant cannot both pass a counter that allows one. A
right password then gives its failure back (``release``) and lifts the lock it set, unless
another attempt has set one since."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.db import transaction

from games.models import LoginLock

# Seconds since the epoch. Tests and bench/lockout.py set it to a clock of their own.
clock = time.time
# A counter untouched for a day is forgotten (the slowest forgets 60 failures in an hour).
FORGET_AFTER = 24 * 3600


@dataclass(frozen=True)
class Lock:
    kind: str
    free: int
    step: float
    forget: float

    def counter(self, value: str) -> Counter:
        # Hashed, as the token buckets: a username or an address may hold any character.
        digest = hashlib.sha256(f"{self.kind}\0{value}".encode()).hexdigest()[:40]
        return Counter(f"{self.kind}:{digest}", self)

    def failures(self, row: LoginLock | None, now: float) -> float:
        if row is None:
            return 0.0
        return max(0.0, row.failures - max(0.0, now - row.stamp) / self.forget)

    def lock(self, failures: float, now: float) -> float:
        """The end of the lock after an attempt that brought the counter to ``failures``: none
        before the ``free``-th, then ``step`` seconds, then ``step`` more for each failure."""
        # Continuous in ``failures``: a partly forgotten failure locks for part of a step.
        past = failures - self.free + 1
        return now + self.step * past if past > 0 else 0.0


@dataclass(frozen=True)
class Counter:
    key: str
    lock: Lock


@dataclass
class Attempt:
    """An attempt counted on ``counters``; ``locks`` are the lock ends it set."""

    counters: tuple[Counter, ...]
    locks: dict[str, float]


def _rows(counters: tuple[Counter, ...], now: float) -> dict[str, LoginLock]:
    # Rows made first, so the lock below covers every counter even when two requests meet a
    # new one at once (PostgreSQL locks only rows that exist).
    LoginLock.objects.bulk_create(
        [LoginLock(key=c.key, failures=0.0, stamp=now) for c in counters],
        ignore_conflicts=True,
    )
    rows = LoginLock.objects.select_for_update().filter(key__in=[c.key for c in counters])
    return {row.key: row for row in rows.order_by("key")}


def attempt(*counters: Counter) -> tuple[float, Attempt | None]:
    """Count one attempt on every counter, or on none: ``(0, attempt)`` when counted, else
    ``(seconds until every counter is unlocked, None)``; nothing is checked then."""
    now = clock()
    counters = tuple(sorted(counters, key=lambda c: c.key))  # one lock order for all
    with transaction.atomic():
        rows = _rows(counters, now)
        wait = max(rows[c.key].locked_until - now for c in counters)
        if wait > 0:
            return wait, None
        locks = {}
        for counter in counters:
            row = rows[counter.key]
            row.failures = counter.lock.failures(row, now) + 1
            row.stamp = now
            row.locked_until = locks[counter.key] = counter.lock.lock(row.failures, now)
        LoginLock.objects.bulk_update(list(rows.values()), ["failures", "stamp", "locked_until"])
    return 0.0, Attempt(counters, locks)


def release(attempt: Attempt, *, forget: tuple[Counter, ...] = ()) -> None:
    """The right password: the attempt was no failure. Its failure is given back and its lock
    lifted (unless another attempt set one since) on every counter; the ``forget`` ones lose
    all their failures (the owner proved who she is: her own typos are forgiven)."""
    now = clock()
    with transaction.atomic():
        rows = _rows(attempt.counters, now)
        for counter in attempt.counters:
            row = rows[counter.key]
            if counter in forget:
                row.failures, row.locked_until = 0.0, 0.0
                continue
            row.failures = max(0.0, counter.lock.failures(row, now) - 1)
            row.stamp = now
            if row.locked_until == attempt.locks[counter.key]:
                row.locked_until = 0.0
        LoginLock.objects.bulk_update(list(rows.values()), ["failures", "stamp", "locked_until"])
    LoginLock.objects.filter(stamp__lt=now - FORGET_AFTER).delete()

"""Token buckets in the database, shared by every worker and every server, as
healthchecks keeps its ``TokenBucket``: a login, a sign-up or an expensive file takes a token
from each bucket it concerns; an empty bucket refuses and says how long to wait.

A bucket holds at most ``capacity`` tokens and gets them back evenly over ``seconds``. So in any
window of ``seconds`` it lets through at most ``2 × capacity`` (a full bucket, then what flows
back): the limits are written as "at most N in T", with ``capacity = N / 2``. No row is a full
bucket.

Unlike healthchecks' bucket, taking is exact under concurrency. One bucket is taken by one
conditional UPDATE (the database adds what flowed back and takes a token only if there is
one); several are taken together under row locks (``select_for_update``; SQLite's IMMEDIATE
transactions lock the whole file), all of them or none."""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest, Least
from django.db.models.lookups import GreaterThanOrEqual

from games.models import TokenBucket

# A row untouched for longer than the longest refill (an hour) is full: forgotten after a day.
FORGET_AFTER = 24 * 3600


@dataclass(frozen=True)
class Limit:
    """At most ``2 × capacity`` in any ``seconds`` (see the module's docstring)."""

    kind: str
    capacity: int
    seconds: int

    @property
    def rate(self) -> float:
        return self.capacity / self.seconds

    def bucket(self, value: str) -> Bucket:
        # Hashed: a username or an address may be long or hold any character; the key stays
        # short and says nothing.
        digest = hashlib.sha256(f"{self.kind}\0{value}".encode()).hexdigest()[:40]
        return Bucket(f"{self.kind}:{digest}", self)


@dataclass(frozen=True)
class Bucket:
    key: str
    limit: Limit


def _level(row: TokenBucket | None, limit: Limit, now: float) -> float:
    if row is None:
        return float(limit.capacity)
    return min(float(limit.capacity), row.tokens + max(0.0, now - row.stamp) * limit.rate)


def _wait(level: float, limit: Limit) -> float:
    return (1 - level) / limit.rate if level < 1 else 0.0


def take(*buckets: Bucket) -> float:
    """Take one token from every bucket, or from none. Returns 0 when taken, else the seconds
    until every bucket holds a token again."""
    now = time.time()
    if len(buckets) == 1:
        return _take_one(buckets[0], now)
    buckets = tuple(sorted(buckets, key=lambda b: b.key))  # one lock order for every request
    with transaction.atomic():
        # Create the missing rows full first, so that the lock below covers every bucket even
        # when two requests meet a new one at once (PostgreSQL locks only rows that exist).
        TokenBucket.objects.bulk_create(
            [TokenBucket(key=b.key, tokens=b.limit.capacity, stamp=now) for b in buckets],
            ignore_conflicts=True,
        )
        rows = {
            row.key: row
            for row in TokenBucket.objects.select_for_update()
            .filter(key__in=[b.key for b in buckets])
            .order_by("key")
        }
        levels = [(rows[b.key], _level(rows[b.key], b.limit, now), b.limit) for b in buckets]
        wait = max(_wait(level, limit) for _row, level, limit in levels)
        if wait:
            return wait
        for row, level, _limit in levels:
            row.tokens, row.stamp = level - 1, now
        TokenBucket.objects.bulk_update([row for row, _l, _m in levels], ["tokens", "stamp"])
    return 0.0


def _take_one(bucket: Bucket, now: float) -> float:
    """One statement in the common case (the row is there and holds a token): the expensive
    files count at the cost of one query."""
    limit = bucket.limit
    elapsed = Greatest(Value(now) - F("stamp"), Value(0.0))
    level = Least(Value(float(limit.capacity)), F("tokens") + elapsed * Value(limit.rate))
    rows = TokenBucket.objects.filter(GreaterThanOrEqual(level, 1.0), key=bucket.key)
    if rows.update(tokens=level - 1, stamp=now):
        return 0.0
    # No row yet (a full bucket), or an empty one: make sure there is one, and try again.
    TokenBucket.objects.bulk_create(
        [TokenBucket(key=bucket.key, tokens=limit.capacity, stamp=now)], ignore_conflicts=True
    )
    if rows.update(tokens=level - 1, stamp=now):
        return 0.0
    row = TokenBucket.objects.filter(key=bucket.key).first()
    return max(1.0, _wait(_level(row, limit, now), limit))  # at least a second: it was empty


def refill(*buckets: Bucket) -> None:
    """Fill the buckets up again (no row is a full bucket), and forget the old rows."""
    TokenBucket.objects.filter(key__in=[b.key for b in buckets]).delete()
    TokenBucket.objects.filter(stamp__lt=time.time() - FORGET_AFTER).delete()


def give_back(*buckets: Bucket) -> None:
    """Return the token a request took."""
    now = time.time()
    with transaction.atomic():
        rows = TokenBucket.objects.select_for_update().filter(key__in=[b.key for b in buckets])
        by_key = {b.key: b for b in buckets}
        for row in rows.order_by("key"):
            limit = by_key[row.key].limit
            row.tokens, row.stamp = min(limit.capacity, _level(row, limit, now) + 1), now
            row.save(update_fields=["tokens", "stamp"])


def minutes(wait: float) -> int:
    """A wait in whole minutes, as the messages say it."""
    return max(1, math.ceil(wait / 60))

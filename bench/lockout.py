"""The figures of the login locks (games/login_limits.py, games/lockout.py), measured on the real
counters with an injected clock: how many guesses an attacker gets in an hour, and how long
the owner, or everyone behind a club's address, waits after N failures.

``python -m bench.lockout`` prints them (a fresh SQLite database in a temporary directory,
as the bench's); tests/security/test_lockout.py asserts the same figures, so that a change of
the limits changes the test and docs/decisions.md "Lockout" together. Each attempt goes
through ``login_checks`` and ``lockout.attempt``, as the login form does, without the password
hash (its cost is not what is measured). The attacker is as quick as the locks let him be: he
sends a guess a second, and when refused, comes back the instant the lock ends."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

SPACING = 1.0  # seconds between two guesses an attacker sends while nothing refuses him


class Clock:
    """The injected time of games.lockout: starts at a fixed instant, moves when told."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    clock: Clock
    owner: object  # the account attacked

    def request(self, address: str, cookie: str | None = None):
        from django.test import RequestFactory

        request = RequestFactory().post("/comptes/connexion/", REMOTE_ADDR=address)
        if cookie is not None:
            from games.login_limits import DEVICE_COOKIE

            request.COOKIES[DEVICE_COOKIE] = cookie
        return request

    def wait(self, username: str, address: str, cookie: str | None = None) -> float:
        """How long a login of ``username`` from ``address`` is refused now (0: checked),
        without counting anything."""
        from games.lockout import LoginLock
        from games.login_limits import login_checks

        checks = login_checks(self.request(address, cookie), username)
        rows = LoginLock.objects.filter(key__in=[c.key for c in checks.counted])
        return max([r.locked_until - self.clock.now for r in rows] + [0.0])

    def guess(self, username: str, address: str, cookie: str | None = None) -> float:
        """One wrong password: 0 when it was checked, else the wait announced."""
        from games import lockout
        from games.login_limits import login_checks

        checks = login_checks(self.request(address, cookie), username)
        wait, counted = lockout.attempt(*checks.counted)
        return 0.0 if counted is not None else wait

    def right(self, username: str, address: str, cookie: str | None = None) -> float:
        """The right password: 0 when it logged in, else the wait announced."""
        from games import lockout
        from games.login_limits import login_checks

        checks = login_checks(self.request(address, cookie), username)
        wait, counted = lockout.attempt(*checks.counted)
        if counted is None:
            return wait
        lockout.release(counted, forget=checks.forgiven)
        return 0.0


class Before(World):
    """The limits as they were before the proportional locks (token buckets: 5 failures of a
    username from an address then one every 3 minutes, 50 checks of a username at once then
    one every 72 s, 20 failures of an address then one every 3 minutes), on the same token
    buckets (games/throttle.py), its clock injected the same way: the figures to compare."""

    def buckets(self, username: str, address: str):
        from games.throttle import Limit
        from games.usernames import username_key

        key = username_key(username)
        return [
            Limit("before-user-address", capacity=5, seconds=15 * 60).bucket(f"{key}\0{address}"),
            Limit("before-address", capacity=20, seconds=60 * 60).bucket(address),
            Limit("before-user", capacity=50, seconds=60 * 60).bucket(key),
        ]

    def wait(self, username: str, address: str, cookie: str | None = None) -> float:
        from games import throttle
        from games.models import TokenBucket

        buckets = self.buckets(username, address)
        rows = {r.key: r for r in TokenBucket.objects.filter(key__in=[b.key for b in buckets])}
        return max(
            throttle._wait(throttle._level(rows.get(b.key), b.limit, self.clock.now), b.limit)
            for b in buckets
        )

    def guess(self, username: str, address: str, cookie: str | None = None) -> float:
        from games import throttle

        return throttle.take(*self.buckets(username, address))


class _Time:
    """What games.throttle reads as ``time``: the injected clock."""

    def __init__(self, clock: Clock) -> None:
        self.time = clock


def world(username: str = "victime", before: bool = False) -> World:
    """A fresh account and clock (the counters emptied): call inside a database."""
    from django.contrib.auth.models import User

    from games import lockout, throttle
    from games.models import LoginLock, TokenBucket

    LoginLock.objects.all().delete()
    TokenBucket.objects.all().delete()
    clock = Clock()
    lockout.clock = clock
    throttle.time = _Time(clock)  # the token buckets of ``Before``
    owner = User.objects.filter(username=username).first() or User.objects.create_user(
        username, password=secrets.token_urlsafe(12)
    )
    return (Before if before else World)(clock, owner)


def attack(
    w: World, seconds: float, target: Callable[[int], tuple[str, str]], stop_after: int = 0
) -> int:
    """Guesses as quick as allowed for ``seconds`` (or until ``stop_after`` of them were
    checked); ``target(n)`` gives the username and the address of the n-th. Returns how many
    were checked."""
    end, checked = w.clock.now + seconds, 0
    while w.clock.now < end and not (stop_after and checked >= stop_after):
        username, address = target(checked)
        wait = w.guess(username, address)
        if wait:
            w.clock.now += wait + 0.001  # back the instant the lock ends
        else:
            checked += 1
            w.clock.now += SPACING
    return checked


def rotating(n: int) -> tuple[str, str]:
    """One account, a new address for every guess (a botnet, or a trusted proxy's
    X-Forwarded-For)."""
    return "victime", f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def one_address(n: int) -> tuple[str, str]:
    return "victime", "203.0.113.1"


def spraying(n: int) -> tuple[str, str]:
    """Many usernames, one address (a club's wifi, or a password sprayed)."""
    return f"membre{n}", "203.0.113.2"


def guesses_per_hour(
    target: Callable[[int], tuple[str, str]], before: bool = False
) -> tuple[int, int]:
    """Guesses checked in the first hour of an attack, and in the second."""
    w = world(before=before)
    first = attack(w, 3600, target)
    return first, attack(w, 3600, target)


def owner_wait_after(n: int, before: bool = False) -> tuple[float, float]:
    """The owner, from a browser and an address never seen, after ``n`` guesses from rotating
    addresses stopped: how long she waits, and how long the attack took."""
    w = world(before=before)
    start = w.clock.now
    attack(w, 24 * 3600, rotating, stop_after=n)
    took = w.clock.now - start
    return w.wait("victime", "198.51.100.1"), took


def club_wait_after(n: int, before: bool = False) -> float:
    """Everyone behind a club's address, after ``n`` failures there at any names: how long a
    member who never failed waits to log in."""
    w = world("habituee", before=before)
    attack(w, 24 * 3600, spraying, stop_after=n)
    return w.wait("habituee", "203.0.113.2")


def device_owner_during_attack() -> float:
    """The owner's own browser (her device cookie), during an attack from rotating addresses
    that has gone on for an hour."""
    from django.core import signing

    from games.login_limits import DEVICE_COOKIE, DEVICE_SALT

    w = world()
    cookie = signing.get_cookie_signer(salt=DEVICE_COOKIE + DEVICE_SALT).sign(
        f"{secrets.token_urlsafe(16)}:{w.owner.pk}"
    )
    attack(w, 3600, rotating)
    return w.wait("victime", "10.0.0.1", cookie)


def owner_at_home_during_attack() -> float:
    """The owner in a browser the site has never seen, at an address she logged in from
    before (her home, her club), during an attack from rotating addresses that has gone on
    for an hour."""
    from games.login_limits import remember_address

    w = world()
    remember_address(w.owner, "198.51.100.9")
    attack(w, 3600, rotating)
    return w.wait("victime", "198.51.100.9")


OWNER_AFTER = (10, 29, 30, 40, 50, 60, 100)
CLUB_AFTER = (19, 20, 25, 30, 50)


def figures(before: bool = False) -> dict[str, object]:
    found: dict[str, object] = {
        "rotating addresses, one account (1st hour, 2nd hour)": guesses_per_hour(rotating, before),
        "one address, one account (1st hour, 2nd hour)": guesses_per_hour(one_address, before),
        "one address, many usernames (1st hour, 2nd hour)": guesses_per_hour(spraying, before),
        "owner, new browser, after N guesses: (wait s, attack took s)": {
            n: tuple(round(x) for x in owner_wait_after(n, before)) for n in OWNER_AFTER
        },
        "club member after N failures at the address: wait s": {
            n: round(club_wait_after(n, before)) for n in CLUB_AFTER
        },
    }
    if not before:  # the device cookie was counted alone before too
        found["owner's own browser during the attack: wait s"] = device_owner_during_attack()
        found["owner, new browser at her usual address, during the attack: wait s"] = (
            owner_at_home_during_attack()
        )
    return found


def main() -> None:
    from bench.environment import configure

    configure()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    for title, before in (("Before (token buckets)", True), ("Now (proportional locks)", False)):
        print(title)
        for name, value in figures(before).items():
            print(f"  {name}: {value}")


if __name__ == "__main__":
    main()

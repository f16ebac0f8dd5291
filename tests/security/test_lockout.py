"""The figures of the login locks (docs/decisions.md "Lockout"), measured by bench/lockout.py
on the real counters with an injected clock: a change of the limits shows here, and in the
decision's table, together. Each figure is also given as it was with the token buckets the
locks replaced, measured the same way."""

from __future__ import annotations

import pytest

from bench import lockout as figures
from games import lockout, throttle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clocks(monkeypatch) -> None:
    # bench/lockout.py injects its clock into both; put the real ones back afterwards.
    monkeypatch.setattr(lockout, "clock", lockout.clock)
    monkeypatch.setattr(throttle, "time", throttle.time)


def test_an_attacker_with_rotating_addresses_gets_fifty_guesses_an_hour() -> None:
    assert figures.guesses_per_hour(figures.rotating) == (101, 51)
    assert figures.guesses_per_hour(figures.rotating, before=True) == (99, 50)


def test_an_attacker_at_one_address_gets_twenty_guesses_an_hour_at_one_account() -> None:
    assert figures.guesses_per_hour(figures.one_address) == (29, 21)
    assert figures.guesses_per_hour(figures.one_address, before=True) == (24, 20)


def test_an_address_trying_many_usernames_gets_forty_an_hour() -> None:
    # The price of a club's short lock: twice the guesses the token bucket allowed.
    assert figures.guesses_per_hour(figures.spraying) == (80, 42)
    assert figures.guesses_per_hour(figures.spraying, before=True) == (39, 20)


@pytest.mark.parametrize(
    ("n", "now", "before"),
    [
        (10, (0, 10), (0, 10)),
        (30, (1, 30), (0, 30)),
        (40, (25, 166), (0, 40)),
        (50, (41, 504), (22, 50)),
        (60, (51, 975), (71, 721)),
        (100, (67, 3471), (71, 3601)),
    ],
)
def test_the_owner_in_a_new_browser_waits_in_proportion_to_the_guesses(n, now, before) -> None:
    """(her wait, how long the attack took), in seconds, once n guesses stopped."""
    assert tuple(round(x) for x in figures.owner_wait_after(n)) == now
    assert tuple(round(x) for x in figures.owner_wait_after(n, before=True)) == before


@pytest.mark.parametrize(
    ("n", "now", "before"), [(19, 0, 0), (20, 2, 160), (25, 20, 179), (30, 34, 179)]
)
def test_a_club_is_locked_for_seconds_after_its_members_mistakes(n, now, before) -> None:
    assert round(figures.club_wait_after(n)) == now
    assert round(figures.club_wait_after(n, before=True)) == before


def test_the_owners_browser_and_her_usual_address_are_never_locked_by_an_attack() -> None:
    assert figures.device_owner_during_attack() == 0
    assert figures.owner_at_home_during_attack() == 0

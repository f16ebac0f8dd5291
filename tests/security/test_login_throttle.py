"""Login and sign-up limits (games/login_limits.py, games/lockout.py), through Django's test
client, the login locks' clock stopped. The same limits across two real gunicorn servers are in
test_two_servers.py; the figures of the locks (guesses an hour, waits) in test_lockout.py.

Cast: alice and bob have accounts (password "cartes-sur-table"); the guessers have addresses in
the documentation ranges. Each visitor is a fresh Client, without the device cookie a
successful login leaves, unless the test says so."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core import signing
from django.test import Client, RequestFactory
from django.urls import reverse

from bench.lockout import Clock
from games import lockout, throttle
from games.login_limits import DEVICE_COOKIE, DEVICE_SALT, username_key

pytestmark = pytest.mark.django_db
RIGHT = "cartes-sur-table"
WRONG_LOGIN = "Saisissez un nom d’utilisateur et un mot de passe valides."


def trop(minutes: int) -> str:
    unit = "minute" if minutes == 1 else "minutes"
    return f"Trop d&#x27;essais : réessayez dans {minutes} {unit}."


def trop_s(seconds: int) -> str:
    unit = "seconde" if seconds == 1 else "secondes"
    return f"Trop d&#x27;essais : réessayez dans {seconds} {unit}."


@pytest.fixture(autouse=True)
def clock(monkeypatch) -> Clock:
    """The time of the login locks (games/lockout.py) and of the token buckets of the sign-up
    and password-change limits (games/throttle.py), one clock, stopped: it moves when a test
    says so, so that a wait announced is exact however long the requests took."""
    clock = Clock()
    monkeypatch.setattr(lockout, "clock", clock)
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=clock))
    return clock


def attempt(username: str, password: str, ip: str, client: Client | None = None):
    client = client or Client()
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def time_passes(seconds: float) -> None:
    """As if ``seconds`` went by, for the login locks and every token bucket alike."""
    lockout.clock.now += seconds


def test_the_key_is_the_username_as_django_logs_it_in() -> None:
    # NFKC (full-width letters become ASCII), then case-folded.
    assert username_key("ｃarol") == "carol"
    assert username_key("ＣＡＲＯＬ") == "carol"
    assert username_key("Straße") == "strasse"


def test_a_look_alike_username_logs_in_as_the_account(alice) -> None:
    # Why the counters must use the same key: Django itself logs "ａlice" in as alice.
    assert logged_in(attempt("ａlice", RIGHT, "203.0.113.1"))


def test_five_failures_from_one_address_refuse_that_address_only(alice) -> None:
    for _ in range(5):
        response = attempt("alice", "pas-le-bon", "203.0.113.7")
        assert response.status_code == 200 and WRONG_LOGIN in response.content.decode()
    refused = attempt("alice", RIGHT, "203.0.113.7")
    assert refused.status_code == 429
    assert trop_s(30) in refused.content.decode()  # the fifth failure locks for 30 s
    assert not logged_in(refused)
    # The guesser has not locked the owner out: from her own address the password works.
    assert logged_in(attempt("alice", RIGHT, "198.51.100.20"))


def test_every_spelling_of_a_username_shares_its_counters(alice) -> None:
    for spelling in ("alice", "ALICE", "ａlice", "Alice", "ＡＬＩＣＥ"):
        assert attempt(spelling, "pas-le-bon", "203.0.113.8").status_code == 200
    assert attempt("ａｌｉｃｅ", RIGHT, "203.0.113.8").status_code == 429


def test_the_lock_grows_with_each_failure_and_ends(alice) -> None:
    for _ in range(5):
        attempt("alice", "pas-le-bon", "203.0.113.9")
    time_passes(29)
    assert trop_s(1) in attempt("alice", RIGHT, "203.0.113.9").content.decode()
    time_passes(1)
    # A sixth failure, 30 s later (a sixth of a failure forgotten meanwhile: one every
    # 3 minutes): 5.83 failures lock for 30 s x 1.83 = 55 s.
    assert attempt("alice", "pas-le-bon", "203.0.113.9").status_code == 200
    assert trop_s(55) in attempt("alice", RIGHT, "203.0.113.9").content.decode()
    time_passes(55)
    assert logged_in(attempt("alice", RIGHT, "203.0.113.9"))


def test_the_right_password_is_not_counted_as_a_failure(alice) -> None:
    for _ in range(2):
        for _ in range(4):
            attempt("alice", "pas-le-bon", "198.51.100.3")
        assert logged_in(attempt("alice", RIGHT, "198.51.100.3"))


def test_an_address_guessing_many_usernames_is_locked_for_seconds_after_twenty(alice) -> None:
    for n in range(20):
        assert attempt(f"inconnu{n}", "x", "203.0.113.10").status_code == 200
    refused = attempt("alice", RIGHT, "203.0.113.10")
    assert refused.status_code == 429 and trop_s(4) in refused.content.decode()
    assert logged_in(attempt("alice", RIGHT, "198.51.100.21"))
    # A club's wifi where someone mistyped twenty times: the others wait seconds, not minutes.
    time_passes(4)
    assert logged_in(attempt("alice", RIGHT, "203.0.113.10"))


def test_a_username_gets_thirty_failures_from_all_addresses_then_a_growing_lock(alice) -> None:
    for n in range(30):
        response = attempt("alice", "pas-le-bon", f"10.0.{n // 200}.{n % 200}")
        assert response.status_code == 200, n
    refused = attempt("alice", RIGHT, "198.51.100.30")
    assert refused.status_code == 429 and trop_s(3) in refused.content.decode()
    time_passes(3)
    assert attempt("alice", "pas-le-bon", "10.0.1.1").status_code == 200
    # 30.96 failures (one forgotten every 72 s): 3 s x 1.96 = 5.9 s.
    assert trop_s(6) in attempt("alice", RIGHT, "198.51.100.31").content.decode()
    time_passes(6)
    assert logged_in(attempt("alice", RIGHT, "198.51.100.32"))


def test_a_new_browser_at_an_address_the_owner_logs_in_from_is_not_locked_out(alice) -> None:
    assert logged_in(attempt("alice", RIGHT, "198.51.100.33"))  # her home, once
    for n in range(60):
        attempt("alice", "pas-le-bon", f"10.5.{n // 200}.{n % 200}")
    assert attempt("alice", RIGHT, "198.51.100.34").status_code == 429  # anywhere else
    # At home, in a browser the site has never seen: the guesses from elsewhere do not count.
    assert logged_in(attempt("alice", RIGHT, "198.51.100.33"))
    # Ninety days later the address is forgotten (unless she logged in from it meanwhile).
    time_passes(91 * 24 * 3600)
    for n in range(60):
        attempt("alice", "pas-le-bon", f"10.6.{n // 200}.{n % 200}")
    assert attempt("alice", RIGHT, "198.51.100.33").status_code == 429


def test_a_guesser_at_the_owners_address_is_still_counted_there(alice) -> None:
    assert logged_in(attempt("alice", RIGHT, "198.51.100.35"))
    for _ in range(5):
        assert attempt("alice", "pas-le-bon", "198.51.100.35").status_code == 200
    assert attempt("alice", RIGHT, "198.51.100.35").status_code == 429


def test_the_lock_of_one_username_leaves_the_others_alone(alice, bob) -> None:
    for n in range(50):
        attempt("alice", "pas-le-bon", f"10.1.0.{n}")
    assert logged_in(attempt("bob", RIGHT, "198.51.100.40"))


def owner_browser(username: str = "alice") -> Client:
    """A browser where the owner logged in once, then out: it keeps the device cookie."""
    browser = Client()
    assert logged_in(attempt(username, RIGHT, "198.51.100.50", browser))
    browser.post(reverse("logout"))
    return browser


def test_a_login_leaves_a_signed_device_cookie(alice) -> None:
    browser = owner_browser()
    cookie = browser.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/comptes/connexion/"
    assert cookie["max-age"] == 365 * 24 * 3600
    request = RequestFactory().get("/")
    request.COOKIES[DEVICE_COOKIE] = cookie.value
    device, _sep, who = request.get_signed_cookie(DEVICE_COOKIE, salt=DEVICE_SALT).partition(":")
    # The account by its id, never by its name (games/usernames.py).
    assert who == str(alice.pk) and len(device) >= 20
    request.COOKIES[DEVICE_COOKIE] = cookie.value.replace(f":{alice.pk}:", f":{alice.pk + 1}:")
    with pytest.raises(signing.BadSignature):
        request.get_signed_cookie(DEVICE_COOKIE, salt=DEVICE_SALT)


def test_the_owner_with_her_device_cookie_logs_in_while_the_account_is_hammered(alice) -> None:
    browser = owner_browser()
    for n in range(60):
        attempt("alice", "pas-le-bon", f"10.2.{n // 200}.{n % 200}")
    assert attempt("alice", RIGHT, "198.51.100.51").status_code == 429
    # Her phone, even from an address that guessed too.
    attempt("alice", "pas-le-bon", "10.2.0.1")
    assert logged_in(attempt("alice", RIGHT, "10.2.0.1", browser))


def test_a_device_cookie_is_locked_after_five_failures_of_its_own(alice) -> None:
    browser = owner_browser()
    for _ in range(5):
        assert attempt("alice", "pas-le-bon", "198.51.100.52", browser).status_code == 200
    assert attempt("alice", RIGHT, "198.51.100.52", browser).status_code == 429
    # The others' counters were not touched: a browser without the cookie still may.
    assert logged_in(attempt("alice", RIGHT, "198.51.100.53"))


def test_a_device_cookie_vouches_for_its_own_username_only(alice, bob) -> None:
    bobs = owner_browser("bob")
    for n in range(50):
        attempt("alice", "pas-le-bon", f"10.3.0.{n}")
    assert attempt("alice", RIGHT, "198.51.100.54", bobs).status_code == 429


def test_a_forged_device_cookie_is_ignored(alice) -> None:
    for n in range(50):
        attempt("alice", "pas-le-bon", f"10.4.0.{n}")
    forger = Client()
    forger.cookies[DEVICE_COOKIE] = f"abc:{alice.pk}"
    assert attempt("alice", RIGHT, "198.51.100.55", forger).status_code == 429


def test_the_limits_messages_are_translated(alice) -> None:
    for _ in range(5):
        attempt("alice", "x", "203.0.113.11")
    time_passes(30)
    attempt("alice", "x", "203.0.113.11")
    time_passes(55)
    attempt("alice", "x", "203.0.113.11")  # the seventh: a lock of 76 s
    refused = Client().post(
        reverse("login"),
        {"username": "alice", "password": RIGHT},
        REMOTE_ADDR="203.0.113.11",
        headers={"Accept-Language": "en"},
    )
    assert "Too many attempts: try again in 2 minutes." in refused.content.decode()


def signup(username: str, ip: str, password: str = "un-long-mot-de-passe-42"):
    return Client().post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": password},
        REMOTE_ADDR=ip,
    )


def test_sign_up_allows_five_accounts_from_one_address_then_one_every_12_minutes(db) -> None:
    for n in range(5):
        assert signup(f"joueur{n}", "203.0.113.12").status_code == 302
    refused = signup("joueur5", "203.0.113.12")
    assert refused.status_code == 429
    assert (
        "Trop de comptes créés depuis cette adresse : réessayez dans 12 minutes."
        in refused.content.decode()
    )
    assert signup("joueur5", "198.51.100.60").status_code == 302
    time_passes(12 * 60)
    assert signup("joueur6", "203.0.113.12").status_code == 302


def test_a_refused_sign_up_form_does_not_count(db) -> None:
    for n in range(6):
        response = Client().post(
            reverse("signup"),
            {"username": f"j{n}", "password1": "un-long-mot-42", "password2": "autre"},
            REMOTE_ADDR="203.0.113.13",
        )
        assert response.status_code == 200
    assert signup("joueur", "203.0.113.13").status_code == 302


def test_sign_up_leaves_the_device_cookie(db) -> None:
    client = Client()
    password = "un-long-mot-de-passe-42"
    client.post(
        reverse("signup"),
        {"username": "Zoé", "password1": password, "password2": password},
        REMOTE_ADDR="203.0.113.14",
    )
    assert DEVICE_COOKIE in client.cookies


def change_password(client: Client, old: str):
    new = "un-nouveau-mot-de-passe-42"
    data = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post(reverse("password_change"), data)


def test_a_stolen_session_cannot_guess_the_old_password(alice) -> None:
    """Found by an audit: the password-change form checks a password too. Five wrong old
    passwords per account, then one every 3 minutes; the right one is then not even checked."""
    thief = Client()
    thief.force_login(alice)
    for _ in range(5):
        wrong = change_password(thief, "devine")
        assert wrong.status_code == 200
        assert wrong.context["form"].errors["old_password"][0].startswith("Votre ancien mot")
    refused = change_password(thief, RIGHT)
    assert refused.status_code == 200
    assert refused.context["form"].errors["old_password"] == [
        "Trop d'essais : réessayez dans 3 minutes."
    ]
    assert trop(3) in refused.content.decode()  # beside the field it concerns
    alice.refresh_from_db()
    assert alice.check_password(RIGHT)
    time_passes(3 * 60)
    assert change_password(thief, RIGHT).status_code == 302  # the owner, three minutes later

"""One account per username key (games/usernames.py), and a device cookie that names the
account by its id: the sign-ups that collided with an existing account's key, the counters
they shared, and the names a header could not carry. The same attacks through real gunicorn
servers are in tests/security/test_two_servers.py.

Cast: vanessa, Straße and Élodie have accounts (password "cartes-sur-table")."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from games.login_limits import DEVICE_COOKIE, DEVICE_SALT
from games.models import UsernameKey
from games.usernames import flagged_key, username_key, username_problem, username_taken
from tests.factories import make_user

pytestmark = pytest.mark.django_db
RIGHT = "cartes-sur-table"
PASSWORD = "un-long-mot-de-passe-42"
TAKEN = (
    "Ce nom d&#x27;utilisateur est déjà pris (à une majuscule, un accent ou une variante de "
    "lettre près) : choisissez-en un autre."
)


def signup(username: str, ip: str = "203.0.113.70", client: Client | None = None):
    return (client or Client()).post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=ip,
    )


def attempt(username: str, password: str, ip: str, client: Client | None = None):
    return (client or Client()).post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


@pytest.mark.parametrize(
    ("existing", "attacker"),
    [
        ("vanessa", "vaneßa"),
        ("Straße", "STRAẞE"),
        ("Straße", "strasse"),
        ("Élodie", "élodie"),
        ("Élodie", "ÉLODIE"),
        ("carol", "ｃarol"),
    ],
)
def test_a_sign_up_whose_key_is_taken_is_refused_next_to_the_field(existing, attacker) -> None:
    make_user(existing)
    response = signup(attacker)
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [TAKEN.replace("&#x27;", "'")]
    assert TAKEN in response.content.decode()
    assert User.objects.count() == 1
    assert UsernameKey.objects.get().key == username_key(existing)


def test_every_account_gets_its_key(db) -> None:
    assert signup("Zoé").status_code == 302
    make_user("STRAẞE")
    assert dict(UsernameKey.objects.values_list("user__username", "key")) == {
        "Zoé": "zoé",
        "STRAẞE": "strasse",
    }
    assert username_taken("strasse") and not username_taken("zoe")


def test_a_rename_whose_key_is_taken_is_refused(db) -> None:
    make_user("vanessa")
    other = make_user("bruno")
    problem = username_problem("VANEßA", other)
    assert problem is not None and problem.code == "username_taken"
    assert username_problem("bruno", other) is None  # his own key is not "taken"
    other.username = "vaneßa"
    with pytest.raises(IntegrityError), transaction.atomic():
        other.save()
    other.refresh_from_db()
    assert other.username == "bruno"
    other.username = "Bruno-Sébastien"
    other.save()
    assert UsernameKey.objects.get(user=other).key == "bruno-sébastien"


def test_the_database_holds_one_account_per_key(db) -> None:
    make_user("vanessa")
    other = make_user("bruno")
    with pytest.raises(IntegrityError), transaction.atomic():
        UsernameKey.objects.filter(user=other).update(key="vanessa")
    # A login saves the account (its last login): the key is not touched.
    assert logged_in(attempt("vanessa", RIGHT, "203.0.113.71"))
    assert UsernameKey.objects.get(user__username="vanessa").key == "vanessa"


def legacy_collision(victim: str, attacker: str) -> User:
    """An account created before keys were unique, as the migration leaves it: its own name and
    password, the victim's key followed by its id, flagged."""
    user = make_user(f"legacy{User.objects.count()}")
    User.objects.filter(pk=user.pk).update(username=attacker)
    UsernameKey.objects.filter(user=user).update(
        key=flagged_key(username_key(victim), user.pk), flagged=True
    )
    return User.objects.get(pk=user.pk)


def test_a_flagged_account_cannot_refill_the_account_it_collides_with(db) -> None:
    """The attack: four guesses at vanessa's password, then a login into one's own colliding
    account with its own password, again and again. Before, the right password refilled the
    counter both names shared (48 guesses in 79 s, never refused)."""
    make_user("vanessa")
    attacker = legacy_collision("vanessa", "vaneßa")
    ip = "203.0.113.72"
    guesses = 0
    refused = None
    for _round in range(5):
        for _ in range(4):
            response = attempt("vanessa", "pas-le-bon", ip)
            if response.status_code == 429:
                refused = guesses
                break
            guesses += 1
        if refused is not None:
            break
        assert logged_in(attempt("vaneßa", RIGHT, ip))  # the attacker's own account
    assert refused == 5  # five guesses from this address, as for any other account
    assert attempt("vanessa", RIGHT, ip).status_code == 429
    # Still the attacker's account: it logs in, and logging in did not rename its key.
    assert logged_in(attempt("vaneßa", RIGHT, "198.51.100.72"))
    key = UsernameKey.objects.get(user=attacker)
    assert (key.key, key.flagged) == (f"vanessa #{attacker.pk}", True)


def test_a_flagged_account_changes_its_password_and_keeps_its_flag(db) -> None:
    make_user("vanessa")
    attacker = legacy_collision("vanessa", "vaneßa")
    attacker.set_password("un-autre-mot-de-passe-42")
    attacker.save()  # every field: the key stays the flagged one
    assert UsernameKey.objects.get(user=attacker).key == f"vanessa #{attacker.pk}"
    attacker.username = "vanessa-deux"
    attacker.save()
    key = UsernameKey.objects.get(user=attacker)
    assert (key.key, key.flagged) == ("vanessa-deux", False)


def test_the_migration_keeps_the_oldest_and_flags_the_others(db) -> None:
    backfill = importlib.import_module("games.migrations.0012_username_keys").backfill
    first = make_user("vanessa")
    second = legacy_collision("vanessa", "vaneßa")
    third = legacy_collision("vanessa", "VANESSA")
    lone = make_user("Élodie")
    UsernameKey.objects.all().delete()
    backfill(apps, None)
    rows = {k.user_id: (k.key, k.flagged) for k in UsernameKey.objects.all()}
    assert rows == {
        first.pk: ("vanessa", False),
        second.pk: (f"vanessa #{second.pk}", True),
        third.pk: (f"vanessa #{third.pk}", True),
        lone.pk: ("élodie", False),
    }


def test_the_device_cookie_names_the_account_by_its_id(db) -> None:
    client = Client()
    assert signup("саrol", client=client).status_code == 302  # a Cyrillic "а"
    user = User.objects.get(username="саrol")
    morsel = client.cookies[DEVICE_COOKIE]
    morsel.value.encode("ascii")
    device, _sep, who = (
        client.get(reverse("login"))
        .wsgi_request.get_signed_cookie(DEVICE_COOKIE, salt=DEVICE_SALT)
        .partition(":")
    )
    assert who == str(user.pk) and len(device) >= 20


@pytest.mark.parametrize("username", ["саrol", "ırene", "İrene", "Zoé", "Straße"])
def test_a_non_latin_username_signs_up_and_logs_in_with_a_latin_1_header(username) -> None:
    client = Client()
    response = signup(username, client=client)
    assert response.status_code == 302
    for header in response.headers.get("Set-Cookie", "").split("\n"):
        header.encode("latin-1")
    assert str(response.cookies[DEVICE_COOKIE]).encode("ascii")
    client.post(reverse("logout"))
    response = attempt(username, PASSWORD, "203.0.113.73", client)
    assert logged_in(response)
    assert str(response.cookies[DEVICE_COOKIE]).encode("ascii")


def test_a_cookie_speaks_only_for_the_account_it_was_issued_to(db) -> None:
    """The attacker's browser holds a device cookie of his own account, whose name collides
    with vanessa's: it does not make the guesses at vanessa's password his own."""
    make_user("vanessa")
    legacy_collision("vanessa", "vaneßa")
    browser = Client()
    assert logged_in(attempt("vaneßa", RIGHT, "203.0.113.74", browser))
    browser.post(reverse("logout"))
    for n in range(5):
        assert attempt("vanessa", "pas-le-bon", "203.0.113.74", browser).status_code == 200, n
    assert attempt("vanessa", RIGHT, "203.0.113.74", browser).status_code == 429
    # His own account, from his browser, is counted on the cookie's own bucket.
    assert logged_in(attempt("vaneßa", RIGHT, "203.0.113.74", browser))


def test_a_key_taken_between_the_check_and_the_save_is_refused_by_the_column(db) -> None:
    """Two sign-ups at the same instant both pass the form's check; the unique column refuses
    the second inside the service's transaction, with the same message, nothing saved."""
    from games.forms.accounts import SignupForm
    from games.services.accounts import create_account

    form = SignupForm({"username": "vaneßa", "password1": PASSWORD, "password2": PASSWORD})
    assert form.is_valid()
    make_user("vanessa")  # the other sign-up, meanwhile
    assert create_account(form) is None
    assert form.errors["username"] == [TAKEN.replace("&#x27;", "'")]
    assert list(User.objects.values_list("username", flat=True)) == ["vanessa"]

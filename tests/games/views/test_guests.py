"""Play first, sign up later (games/services/guests.py, games/views/guests.py): the guest made
by the first "Nouvelle partie", its limit, its claim, and its removal after GUEST_KEEP."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import services, throttle
from games.models import Partie
from games.services.guests import GUEST_KEEP, GUEST_PREFIX, is_guest
from tests.factories import hand, make_partie, make_user, partie_form, play
from tests.games.views.test_donnes import donne_data

pytestmark = pytest.mark.django_db
PASSWORD = "cartes-sur-table-42"


def start_as_guest(client, **fields) -> Partie:
    response = client.post(reverse("partie_new"), partie_form(name="Chez Mamie", **fields))
    partie = Partie.objects.get(name="Chez Mamie")
    assert response.status_code == 302
    assert response["Location"] == reverse("partie_detail", args=[partie.pk])
    return partie


def test_the_new_partie_form_needs_no_account_and_makes_none(client) -> None:
    body = client.get(reverse("partie_new")).content.decode()
    assert "Sans compte : cette partie reste sur ce téléphone 30 jours" in body
    assert not User.objects.exists()


def test_the_first_partie_without_an_account_makes_a_guest_logged_in_here(client) -> None:
    partie = start_as_guest(client)
    guest = User.objects.get()
    assert partie.owner == guest and is_guest(guest)
    assert guest.username.startswith(GUEST_PREFIX) and len(guest.username) == 7 + 22
    assert not guest.has_usable_password()
    # The session lasts as long as the guest's parties are kept.
    assert client.session.get_expiry_date() == guest.date_joined + GUEST_KEEP
    home = client.get(reverse("home")).content.decode()
    assert 'id="guest-note"' in home and "Garder mes parties" in home
    assert 'id="continuer"' in home and "Chez Mamie" in home


def test_a_guest_plays_shares_and_prints_its_partie(client) -> None:
    partie = start_as_guest(client)
    page = client.get(reverse("partie_detail", args=[partie.pk]))
    assert page.status_code == 200
    data = {**donne_data(partie, "Anne", points_Bruno="25"), "revision": page.context["revision"]}
    assert client.post(reverse("donne_create", args=[partie.pk]), data).status_code == 302
    assert partie.donnes.count() == 1
    assert client.post(reverse("partie_share", args=[partie.pk])).status_code == 302
    partie.refresh_from_db()
    follower = Client().get(reverse("partie_follow", args=[partie.share_token]))
    assert follower.status_code == 200
    pdf = client.get(reverse("partie_sheet_pdf", args=[partie.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_a_refused_table_makes_no_guest_and_costs_no_token(client) -> None:
    for _ in range(6):
        response = client.post(reverse("partie_new"), partie_form(joueurs=["Anne"]))
        assert response.status_code == 200
        assert "Ce jeu se joue de 2 à 6 joueurs ; la table en compte 1." in (
            response.context["form"].non_field_errors()
        )
    assert not User.objects.exists()
    start_as_guest(client)  # the address still has all its tokens


@pytest.fixture
def still_clock(monkeypatch) -> None:
    """The token buckets' clock (games/throttle.py) stopped, so that the wait announced is the
    limit's exact 12 minutes however long the five guests took to make."""
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: 1_900_000_000.0))


@pytest.mark.usefixtures("still_clock")
def test_an_address_makes_as_many_guests_as_accounts_then_waits(client) -> None:
    for number in range(5):
        fresh = Client()
        fresh.post(reverse("partie_new"), partie_form(name=f"Partie {number}"))
    refused = Client().post(reverse("partie_new"), partie_form(name="Une de trop"))
    assert refused.status_code == 429
    assert refused.context["form"].non_field_errors() == [
        "Trop de parties sans compte commencées depuis cette adresse : réessayez dans 12 "
        "minutes, ou créez un compte."
    ]
    assert User.objects.count() == 5
    assert not Partie.objects.filter(name="Une de trop").exists()


def test_garder_mes_parties_turns_the_guest_into_an_account_keeping_everything(client) -> None:
    partie = start_as_guest(client)
    play(partie, "Anne", "rami", Bruno=hand("K"))
    guest = User.objects.get()
    form = client.get(reverse("guest_claim"))
    assert form.status_code == 200
    assert form.context["form"]["username"].value() in ("", None)
    assert "Sans compte, elles sont effacées le" in form.content.decode()
    data = {"username": "mamie", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("guest_claim"), data)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    account = User.objects.get()
    assert account.pk == guest.pk and account.username == "mamie"
    assert account.check_password(PASSWORD) and not is_guest(account)
    assert list(account.parties.all()) == [partie] and partie.donnes.count() == 1
    # Still logged in here, now for an account's session; and anywhere with the password.
    home = client.get(reverse("home")).content.decode()
    assert "Compte mamie créé : vos parties sont gardées." in home
    assert 'id="guest-note"' not in home and "Chez Mamie" in home
    assert client.session.get_expire_at_browser_close() is False
    assert Client().login(username="mamie", password=PASSWORD)
    # Claimed, it is no longer removed.
    assert services.guests_remove_expired(now=account.date_joined + 2 * GUEST_KEEP) == 0


def test_the_claim_checks_like_the_sign_up_and_changes_nothing_when_refused(client) -> None:
    make_user("Mamie")
    start_as_guest(client)
    guest = User.objects.get(username__startswith=GUEST_PREFIX)
    data = {"username": "mamie", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("guest_claim"), data)
    assert response.status_code == 200
    # The sign-up's own check: one account per username key (games/usernames.py).
    assert response.context["form"].errors["username"] == [
        "Ce nom d'utilisateur est déjà pris (à une majuscule, un accent ou une variante de "
        "lettre près) : choisissez-en un autre."
    ]
    mismatch = {"username": "tata", "password1": PASSWORD, "password2": PASSWORD + "x"}
    assert client.post(reverse("guest_claim"), mismatch).context["form"].errors["password2"]
    guest.refresh_from_db()
    assert is_guest(guest) and guest.username.startswith(GUEST_PREFIX)
    # The page still knows the visitor is a guest.
    assert "Garder mes parties" in client.get(reverse("home")).content.decode()


def test_a_guest_asking_for_the_sign_up_is_sent_to_its_claim(client) -> None:
    start_as_guest(client)
    assert client.get(reverse("signup"))["Location"] == reverse("guest_claim")
    data = {"username": "neuf", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("signup"), data)["Location"] == reverse("guest_claim")
    assert User.objects.count() == 1


def test_only_a_guest_has_something_to_claim(client, alice) -> None:
    client.force_login(alice)
    assert client.get(reverse("guest_claim"))["Location"] == reverse("home")
    data = {"username": "autre", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("guest_claim"), data)["Location"] == reverse("home")
    alice.refresh_from_db()
    assert alice.username == "alice"


NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def guest_made(days_ago: float, name: str) -> User:
    """A guest and its partie, made ``days_ago`` before NOW."""
    partie = services.guest_partie_create(name=name, preset="classique", joueurs=["Anne", "Léa"])
    User.objects.filter(pk=partie.owner_id).update(date_joined=NOW - timedelta(days=days_ago))
    return User.objects.get(pk=partie.owner_id)


def test_unclaimed_guests_go_with_their_parties_after_thirty_days() -> None:
    old = guest_made(30.01, "Vieille")
    recent = guest_made(29.9, "Récente")
    # Made at sign-up with the guests' prefix: an account with a password is never removed.
    lookalike = User.objects.create_user(GUEST_PREFIX + "moi", password=PASSWORD)
    User.objects.filter(pk=lookalike.pk).update(date_joined=NOW - timedelta(days=400))
    make_partie(lookalike, name="La mienne")
    assert services.guests_remove_expired(now=NOW) == 1
    assert not User.objects.filter(pk=old.pk).exists()
    assert set(Partie.objects.values_list("name", flat=True)) == {"Récente", "La mienne"}
    assert User.objects.filter(pk=recent.pk).exists()


def test_the_command_removes_them_at_the_time_it_is_given() -> None:
    guest_made(31, "Vieille")
    guest_made(1, "Récente")
    out = io.StringIO()
    call_command("remove_expired_guests", "--now", NOW.isoformat(), stdout=out)
    assert out.getvalue() == "1 compte(s) invité(s) supprimé(s).\n"
    assert list(Partie.objects.values_list("name", flat=True)) == ["Récente"]
    out = io.StringIO()
    later = (NOW + timedelta(days=29, hours=1)).isoformat()
    call_command("remove_expired_guests", "--now", later, stdout=out)
    assert out.getvalue() == "1 compte(s) invité(s) supprimé(s).\n"
    assert not Partie.objects.exists()


def test_a_guest_s_home_costs_an_account_s_queries(client, django_assert_num_queries) -> None:
    start_as_guest(client)
    client.get(reverse("home"))
    # session, user, the latest parties with their stored results, their players: telling a
    # guest apart costs no query.
    with django_assert_num_queries(4):
        assert client.get(reverse("home")).status_code == 200

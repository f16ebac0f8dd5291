"""Accounts and the home page. Cast: alice has parties, bob has none."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Partie
from tests.factories import hand, make_partie, make_user, partie_form, play

pytestmark = pytest.mark.django_db


def test_signing_up_logs_in_and_opens_a_new_partie(client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "marie",
            "password1": "cartes-sur-table-42",
            "password2": "cartes-sur-table-42",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("partie_new")
    assert User.objects.get().username == "marie"
    assert client.get(reverse("partie_new")).status_code == 200


def test_login_logout_and_password_change_pages_are_styled_in_french(client) -> None:
    assert "Se connecter" in client.get(reverse("login")).content.decode()
    make_user("alice")
    client.login(username="alice", password="cartes-sur-table")
    body = client.get(reverse("password_change")).content.decode()
    assert "Changer de mot de passe" in body
    assert client.post(reverse("logout")).status_code == 302
    # Logged out, the new-partie form is a guest's (tests/games/views/test_guests.py).
    assert "Sans compte" in client.get(reverse("partie_new")).content.decode()


def test_home_puts_continuer_first_then_rejouer_for_the_finished_partie(client) -> None:
    alice = make_user("alice")
    finished = make_partie(alice, name="Dimanche")
    play(finished, "Bruno", "rami", Alice=hand("K"), Chloé=hand("2"))
    services.partie_close(partie=finished)
    running = make_partie(alice, name="Lundi", joueurs=["Zoé", "Yves"], preset="rami51")
    play(running, "Yves", "sortie", Zoé=hand("5"))
    make_partie(make_user("bob"), name="La partie de Bob")
    client.force_login(alice)
    body = client.get(reverse("home")).content.decode()
    # The partie in progress is the first thing, with "Continuer"; then "Rejouer" for the
    # finished one; then the list.
    assert body.index('id="continuer"') < body.index("Lundi") < body.index('id="rematch-latest"')
    assert f'href="/parties/nouvelle/?rejouer={finished.pk}"' in body
    assert body.index('id="rematch-latest"') < body.index("Terminées") < body.index("Dimanche")
    assert "La partie de Bob" not in body
    # Each card says the variant, the state and the players.
    assert "Rami 51</span> · En cours · 1 donne · En tête : Yves" in body
    finished_state = 'Rami classique</span> · <span class="text-success">Terminée</span>'
    assert f"{finished_state} · Gagnant : Bruno · 1 donne" in body
    assert "Zoé, Yves" in body and "Alice, Bruno, Chloé" in body


def test_home_never_offers_rejouer_for_a_partie_in_progress(client) -> None:
    alice = make_user("alice")
    make_partie(alice, name="Ce soir")  # in progress, no donne yet
    client.force_login(alice)
    body = client.get(reverse("home")).content.decode()
    assert "rematch-latest" not in body and "Rejouer" not in body
    assert body.index('id="continuer"') < body.index("Ce soir") < body.index('id="new-partie"')
    assert "En cours · pas encore de donne" in body


def test_a_new_partie_keeps_the_seat_order_and_the_money(client) -> None:
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(
        reverse("partie_new"),
        {
            "name": "",
            "preset": "rami40",
            "joueurs": ["Zoé", "", "Anne", "Bruno"],
            "mise_initiale": "1,50",
            "rachat_price": "1.5",
            "point_value": "0",
            "settlement": "gagnant",
            "currency": "EUR",
            "seuil_inclusive": "",
        },
    )
    partie = Partie.objects.get()
    assert response["Location"] == reverse("partie_detail", args=[partie.pk])
    assert [j.name for j in partie.joueurs.all()] == ["Zoé", "Anne", "Bruno"]
    assert partie.name.startswith("Partie du ")
    assert str(partie.mise_initiale) == "1.50" and str(partie.rachat_price) == "1.50"
    assert partie.seuil_inclusive is None  # the preset decides: > 150 (docs/rules.md R20)


@pytest.mark.parametrize(
    ("joueurs", "message"),
    [
        (["Anne"], "Ce jeu se joue de 2 à 6 joueurs ; la table en compte 1."),
        (
            ["Anne", "anne"],
            "Le joueur anne apparaît deux fois à la table.",
        ),
        (
            ["A", "B", "C", "D", "E", "F", "G"],
            "Ce jeu se joue de 2 à 6 joueurs ; la table en compte 7.",
        ),
        (
            ["Anne", "\u0410nne"],  # a Cyrillic А (docs/rules.md R28, look-alikes)
            "« Anne » et « \u0410nne » se ressemblent trop pour être deux joueurs de la même "
            "table (U+0410 CYRILLIC CAPITAL LETTER A) : écrivez-les autrement.",
        ),
    ],
)
def test_a_new_partie_refuses_bad_tables(client, joueurs, message) -> None:
    client.force_login(make_user("alice"))
    response = client.post(reverse("partie_new"), partie_form(joueurs=joueurs))
    assert response.status_code == 200
    assert message in response.context["form"].non_field_errors()
    assert not Partie.objects.exists()


def test_a_partie_name_with_a_control_character_is_refused_next_to_it(client) -> None:
    client.force_login(make_user("alice"))
    response = client.post(reverse("partie_new"), partie_form(name="Mardi\u202e"))
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "Le nom de la partie contient un caractère invisible ou de contrôle : retirez-le."
    ]
    assert not Partie.objects.exists()


def test_the_home_shows_the_latest_five_and_the_list_twenty_a_page(client, alice) -> None:
    for number in range(1, 23):
        make_partie(alice, name=f"Partie {number:02d}")
    client.force_login(alice)
    home = client.get(reverse("home")).content.decode()
    assert home.count("partie-link") == 5
    assert "Partie 22" in home and "Partie 18" in home and "Partie 17" not in home
    assert 'id="all-parties" href="/parties/"' in home
    first = client.get(reverse("partie_list")).content.decode()
    assert first.count("partie-link") == 20
    assert "Partie 22" in first and "Partie 03" in first and "Partie 02" not in first
    assert "Page 1 sur 2" in first
    second = client.get(reverse("partie_list") + "?page=2").content.decode()
    assert second.count("partie-link") == 2 and "Partie 01" in second


def test_the_home_of_a_few_parties_has_no_link_to_all_of_them(client, alice) -> None:
    for number in range(5):
        make_partie(alice, name=f"Partie {number}")
    client.force_login(alice)
    home = client.get(reverse("home")).content.decode()
    assert home.count("partie-link") == 5 and "all-parties" not in home


@pytest.mark.parametrize("parties", [2, 30])
def test_the_home_page_costs_the_same_queries_for_2_or_30_parties(
    client, alice, parties, django_assert_num_queries
) -> None:
    for _ in range(parties):
        play(make_partie(alice), "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    client.force_login(alice)
    client.get(reverse("home"))
    # session, user, the latest parties (one more than shown) with their stored results, their
    # players: no count, whatever the account holds.
    with django_assert_num_queries(4):
        assert client.get(reverse("home")).status_code == 200


@pytest.mark.parametrize("parties", [2, 30])
def test_the_list_of_parties_costs_the_same_queries_for_2_or_30_parties(
    client, alice, parties, django_assert_num_queries
) -> None:
    for _ in range(parties):
        play(make_partie(alice), "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    client.force_login(alice)
    client.get(reverse("partie_list"))
    # session, user, count, the page of parties with their stored results, their players.
    with django_assert_num_queries(5):
        assert client.get(reverse("partie_list")).status_code == 200


# -- the note: its token is the note it was built on ----------------------------------------


def test_a_note_written_meanwhile_on_another_phone_is_not_overwritten(alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    url = reverse("partie_note", args=[partie.pk])
    page = reverse("partie_detail", args=[partie.pk])
    token = first.get(page).context["note_token"]
    assert second.get(page).context["note_token"] == token
    assert second.post(url, {"note": "Chez Bruno.", "note_token": token}).status_code == 302
    # The first phone, on the page as it was: refused, the current note shown above what it
    # typed, which is still in the box with a fresh token.
    response = first.post(url, {"note": "Chez Anne.", "note_token": token})
    assert response.status_code == 409
    body = html.unescape(response.content.decode())
    assert '<p class="partie-note small mb-1" id="note-text">Chez Bruno.</p>' in body
    assert "La partie a changé ailleurs (un autre téléphone, un autre onglet)" in body
    assert ">Chez Anne.</textarea>" in body
    partie.refresh_from_db()
    assert partie.note == "Chez Bruno."
    fresh = response.context["note_token"]
    assert first.post(url, {"note": "Chez Anne.", "note_token": fresh}).status_code == 302
    partie.refresh_from_db()
    assert partie.note == "Chez Anne."
    # A post without the token (an empty one) is stale too.
    assert first.post(url, {"note": "Ailleurs.", "note_token": ""}).status_code == 409
    assert first.post(url, {"note": "Ailleurs."}).status_code == 409
    partie.refresh_from_db()
    assert partie.note == "Chez Anne."


def test_a_donne_recorded_meanwhile_leaves_the_note_form_fresh(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    client.force_login(alice)
    token = client.get(reverse("partie_detail", args=[partie.pk])).context["note_token"]
    play(partie, "Anne", "rami", Bruno=hand("K"))
    url = reverse("partie_note", args=[partie.pk])
    assert client.post(url, {"note": "Chez Anne.", "note_token": token}).status_code == 302

"""The partie pages through the test client. Cast: alice owns the partie, bob is another
account, and an anonymous visitor has no account."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from games import services
from games.models import Donne, Partie
from games.selectors import partie_replay
from tests.factories import decide, hand, make_partie, play, revision_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def partie(alice) -> Partie:
    return make_partie(
        alice, joueurs=["Anne", "Bruno", "Chloé", "David"], rachat_price=Decimal("2.00")
    )


def ids(partie: Partie) -> dict[str, int]:
    return {j.name: j.pk for j in partie.joueurs.all()}


def donne_data(partie: Partie, winner: str, win: str = "rami", **fields: str) -> dict[str, str]:
    pk = ids(partie)
    data = {"winner": str(pk[winner]), "win": win}
    for key, value in fields.items():
        kind, name = key.split("_", 1)
        data[f"{kind}_{pk[name]}"] = value
    return data


def urls(partie: Partie) -> list[tuple[str, str]]:
    bruno = partie.joueurs.get(name="Bruno").pk
    return [
        ("get", reverse("partie_detail", args=[partie.pk])),
        ("post", reverse("donne_create", args=[partie.pk])),
        ("post", reverse("donne_preview", args=[partie.pk])),
        ("get", reverse("donne_edit", args=[partie.pk, 1])),
        ("get", reverse("donne_delete", args=[partie.pk, 1])),
        ("post", reverse("rachat_decide", args=[partie.pk, bruno])),
        ("post", reverse("partie_close", args=[partie.pk])),
        ("post", reverse("partie_reopen", args=[partie.pk])),
    ]


def test_anonymous_visitors_are_sent_to_the_login_page(client, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    for method, url in urls(partie):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/comptes/connexion/?next="), url


def test_another_account_gets_a_404_on_every_page(client, partie, bob) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    client.force_login(bob)
    for method, url in urls(partie):
        assert getattr(client, method)(url).status_code == 404, url
    assert Donne.objects.count() == 1


def test_the_partie_page_shows_the_scoreboard_and_the_form(client, alice, partie) -> None:
    client.force_login(alice)
    response = client.get(reverse("partie_detail", args=[partie.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" in body and 'id="scoreboard"' in body and "Donne 1" in body


def test_recording_a_donne_without_htmx_redirects(client, alice, partie) -> None:
    client.force_login(alice)
    data = donne_data(
        partie, "Anne", points_Bruno="25", cards_Chloé="R D 2", jokers_Chloé="1", points_David="12"
    )
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 302
    _data, result = partie_replay(partie)
    # Chloé: (10 + 10 + 2 + joker 10) × 2 = 64 (docs/rules.md §3.2).
    assert result.states[-1].totals == {"Anne": -10, "Bruno": 25, "Chloé": 64, "David": 12}


def test_the_message_after_a_redirect_is_shown_once(client, alice, partie) -> None:
    client.force_login(alice)
    data = donne_data(
        partie, "Anne", points_Bruno="25", cards_Chloé="R D 2", jokers_Chloé="1", points_David="12"
    )
    response = client.post(reverse("donne_create", args=[partie.pk]), data, follow=True)
    assert response.content.decode().count("Donne 1 notée.") == 1


def test_recording_a_donne_with_htmx_returns_the_partie_body(client, alice, partie) -> None:
    client.force_login(alice)
    data = donne_data(
        partie,
        "Bruno",
        "rami_de_la_main",
        points_Anne="10",
        points_Chloé="5",
        points_David="0",
        jokers_David="2",
    )
    response = client.post(reverse("donne_create", args=[partie.pk]), data, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and body.lstrip().startswith('<div id="partie-body"')
    # David: two jokers alone, (10 + 10) × 4 = 80; Anne 10 × 2; Chloé 5 × 2; Bruno −20.
    assert 'data-total="80"' in body and 'data-total="-20"' in body


def test_a_missing_hand_is_an_error_next_to_the_field(client, alice, partie) -> None:
    client.force_login(alice)
    data = donne_data(partie, "Anne", points_Bruno="25", points_Chloé="3")
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 422
    form = response.context["form"]
    assert form.errors[f"points_{ids(partie)['David']}"] == [
        "Il manque les points de David : tapez-les, ou touchez ses cartes."
    ]
    assert not Donne.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"cards_Bruno": "K K K K K K K K K"},
            "La main de Bruno a 9 cartes « R » ; ce jeu n'en a que 8.",
        ),
        ({"cards_Bruno": "Z 3"}, "La carte « Z » n'existe pas (A R D V 10 9 … 2, ou A K Q J …)."),
        ({"points_Bruno": "-4"}, "Assurez-vous que cette valeur est supérieure ou égale à 0."),
        (
            {"points_Bruno": "99999"},
            "Assurez-vous que cette valeur est inférieure ou égale à 5000.",
        ),
        ({"points_Bruno": "douze"}, "Saisissez un nombre entier."),
        ({"points_Bruno": "3", "jokers_Bruno": "5"}, "Ce jeu n'a que 4 jokers."),
    ],
)
def test_bad_hands_are_refused_in_french_next_to_the_field(
    client, alice, partie, fields, message
) -> None:
    client.force_login(alice)
    data = donne_data(partie, "Anne", points_Chloé="3", points_David="4", **fields)
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 422
    errors = [e for errs in response.context["form"].errors.values() for e in errs]
    assert message in errors
    assert not Donne.objects.exists()


def test_an_eliminated_player_cannot_win(client, alice) -> None:
    partie = make_partie(alice)
    play(partie, "Alice", "rami", Bruno=hand(points=120), Chloé=hand("2"))
    decide(partie, "Bruno", False)
    client.force_login(alice)
    pk = ids(partie)
    data = {
        "winner": str(pk["Bruno"]),
        "win": "rami",
        f"points_{pk['Alice']}": "3",
        f"points_{pk['Chloé']}": "4",
    }
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 422
    assert "winner" in response.context["form"].errors
    assert Donne.objects.count() == 1


def test_the_preview_explains_each_count(client, alice, partie) -> None:
    client.force_login(alice)
    data = donne_data(partie, "Anne", cards_Chloé="D 2", jokers_Chloé="1", points_Bruno="7")
    response = client.post(reverse("donne_preview", args=[partie.pk]), data, **HTMX)
    body = response.content.decode()
    assert "(10 + 10 + 2) × 2 = 44 — un joker en main" in body  # the seed's own example
    assert f'id="apercu-{ids(partie)["Bruno"]}"' in body
    # On Chloé's row, the count alone: one short line that never grows.
    chloe = ids(partie)["Chloé"]
    row = f'<output id="apercu-{chloe}" class="apercu small" hx-swap-oob="true">= 44</output>'
    assert row in body


def test_rachat_decision_through_the_page(client, alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand(points=95), Chloé=hand("5"), David=hand("K"))
    client.force_login(alice)
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    # Bruno 95 + 10? No: 95 points in hand → 95 < 100, no crossing yet.
    assert "se racheter" not in page
    play(partie, "Anne", "rami", Bruno=hand("5"), Chloé=hand("5"), David=hand("K"))
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    # Bruno 100 crosses (docs/rules.md R4); reference = David's 20; first rachat costs 2,00 €.
    assert "atteint <strong>100</strong>" in page
    assert "1er rachat, 2,00\u00a0€" in page
    bruno = ids(partie)["Bruno"]
    url = reverse("rachat_decide", args=[partie.pk, bruno])
    response = client.post(url, {"decision": "racheter"}, **HTMX)
    body = response.content.decode()
    assert 'data-total="20"' in body
    # Buying back is said as plainly as abandoning: which rachat, its price, the restart.
    assert "Bruno se rachète (1er rachat, 2,00\u00a0€) et repart à 20." in body


def test_a_partie_the_table_ended_says_so_once(client, alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    services.partie_close(partie=partie)
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Partie terminée par la table : Anne gagne." in body
    assert "(partie terminée par la table)" not in body


def test_editing_an_earlier_donne_says_which_totals_changed(client, alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    play(partie, "Bruno", "rami", Anne=hand("4"), Chloé=hand("2"), David=hand("3"))
    client.force_login(alice)
    data = donne_data(partie, "Anne", points_Bruno="30", points_Chloé="2", points_David="3")
    data["revision"] = revision_of(partie)
    response = client.post(reverse("donne_edit", args=[partie.pk, 1]), data, follow=True)
    body = response.content.decode()
    assert "Donne 1 modifiée." in body
    assert "Totaux modifiés : Bruno 0 → 20." in body


def test_the_edit_form_starts_from_what_was_recorded(client, alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K Q"), Chloé=hand(points=7, jokers=1), David=hand("3"))
    client.force_login(alice)
    response = client.get(reverse("donne_edit", args=[partie.pk, 1]))
    form = response.context["form"]
    pk = ids(partie)
    # Stored as the engine writes them (K Q), shown as a French table reads them.
    assert form[f"cards_{pk['Bruno']}"].value() == "R D"
    assert form[f"points_{pk['Chloé']}"].value() == "7"
    assert form[f"jokers_{pk['Chloé']}"].value() == "1"


def test_the_partie_page_runs_the_same_queries_for_5_and_200_donnes(
    client, alice, django_assert_num_queries
) -> None:
    client.force_login(alice)
    counts = []
    for n in (5, 200):
        partie = make_partie(alice, joueurs=["Anne", "Bruno"], name=f"{n} donnes")
        for i in range(n):
            winner, loser = ("Anne", "Bruno") if i % 2 else ("Bruno", "Anne")
            play(partie, winner, "rami", **{loser: hand("2")})
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("partie_detail", args=[partie.pk])).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_a_talon_epuise_donne_in_rami52_7_counts_everyone(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Paul", "Rose"], preset="rami52_7")
    client.force_login(alice)
    pk = ids(partie)
    data = {
        "winner": "talon_epuise",
        f"cards_{pk['Paul']}": "9 9",
        f"cards_{pk['Rose']}": "R R R",
        f"jokers_{pk['Rose']}": "1",
    }
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 302
    _data, result = partie_replay(partie)
    # docs/rules.md §4: plain sums, joker 20 in hand: Paul 18, Rose 30 + 20 = 50.
    assert result.states[-1].totals == {"Paul": 18, "Rose": 50}


def test_talon_epuise_is_not_offered_in_classique(client, alice, partie) -> None:
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "talon épuisé" not in body
    data = donne_data(partie, "Anne", points_Bruno="1", points_Chloé="1", points_David="1")
    data["winner"] = "talon_epuise"
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 422
    assert "winner" in response.context["form"].errors


def test_a_fourth_crossing_is_shown_as_an_exclusion_not_asked(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Alice", "Bruno"])
    # examples.json E3: B crosses at 320 each time and restarts at −20, −40, −60.
    for _ in range(3):
        play(partie, "Alice", "rami_de_la_main", Bruno=hand("K K K K Q Q Q Q", jokers=2))
        decide(partie, "Bruno", True)
    play(partie, "Alice", "rami_de_la_main", Bruno=hand("K K K K Q Q Q Q", jokers=2))
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "rachat-card" not in body
    assert "exclu" in body and "Alice gagne la partie" in body


def test_an_edit_that_blocks_later_donnes_keeps_them_on_the_page_and_undo_targets_the_last(
    client, alice
) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bea", "Cyril"])
    play(partie, "Anne", "rami", Bea=hand(points=50), Cyril=hand("5"))
    play(partie, "Anne", "rami", Bea=hand(points=40), Cyril=hand(points=30))
    play(partie, "Cyril", "rami", Anne=hand("5"), Bea=hand("5"))
    client.force_login(alice)
    data = {
        **donne_data(partie, "Anne", points_Bea="60", points_Cyril="5"),
        "revision": revision_of(partie),
    }
    response = client.post(reverse("donne_edit", args=[partie.pk, 1]), data, follow=True)
    body = response.content.decode()
    # Bea: 60 + 40 = 100 at donne 2 (docs/rules.md R4): donne 3 waits for her decision.
    assert "Nouveau franchissement à la donne 2 : Bea doit décider de son rachat." in body
    assert "Totaux modifiés" not in body
    assert "La donne 3 attend cette décision" in body
    assert "en attente d'une décision de rachat" in body
    assert "3 donnes" in body
    assert f'action="{reverse("donne_delete", args=[partie.pk, 3])}"' in body


def test_a_stale_form_keeps_what_was_typed_on_the_fresh_state(client, alice, partie) -> None:
    client.force_login(alice)
    page = client.get(reverse("partie_detail", args=[partie.pk]))
    old_etat = page.context["form"]["revision"].value()
    # Meanwhile another phone records donne 1.
    play(partie, "Bruno", "rami", Anne=hand("5"), Chloé=hand("5"), David=hand("5"))
    data = {
        **donne_data(partie, "Anne", points_Bruno="7", points_Chloé="8", points_David="9"),
        "revision": old_etat,
    }
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 409
    form = response.context["form"]
    assert form.non_field_errors()[0].startswith("La partie a changé ailleurs")
    assert form[f"points_{ids(partie)['Bruno']}"].value() == "7"
    assert form["revision"].value() != old_etat
    assert Donne.objects.count() == 1
    # A second look, and the same form goes through on the fresh state.
    retry = {**data, "revision": form["revision"].value()}
    assert client.post(reverse("donne_create", args=[partie.pk]), retry).status_code == 302
    assert Donne.objects.count() == 2


def test_a_stale_edit_stays_on_the_edit_form_with_the_typed_values(client, alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    client.force_login(alice)
    old_etat = (
        client.get(reverse("donne_edit", args=[partie.pk, 1])).context["form"]["revision"].value()
    )
    play(partie, "Bruno", "rami", Anne=hand("5"), Chloé=hand("5"), David=hand("5"))
    data = {
        **donne_data(partie, "Anne", points_Bruno="30", points_Chloé="2", points_David="3"),
        "revision": old_etat,
    }
    response = client.post(reverse("donne_edit", args=[partie.pk, 1]), data)
    assert response.status_code == 409
    assert response.context["form"][f"points_{ids(partie)['Bruno']}"].value() == "30"
    _data, result = partie_replay(partie)
    assert result.states[0].totals["Bruno"] == 10  # unchanged until confirmed


def test_owner_pages_are_not_kept_by_the_browser(client, alice, partie) -> None:
    # The back button must not show totals from before the last donne.
    client.force_login(alice)
    for url in (reverse("home"), reverse("partie_detail", args=[partie.pk])):
        assert "no-store" in client.get(url)["Cache-Control"]


def test_too_many_jokers_across_the_table_is_a_warning_the_table_can_override(
    client, alice, partie
) -> None:
    client.force_login(alice)
    # 4 + 2 jokers kept in hand: the classique deck has 4 (docs/rules.md §8, R22).
    data = donne_data(
        partie,
        "Anne",
        points_Bruno="5",
        jokers_Bruno="4",
        points_Chloé="3",
        jokers_Chloé="2",
        points_David="2",
    )
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == [
        "À la table, 6 jokers en main : ce jeu n'en a que 4. Vérifiez les mains."
    ]
    assert 'name="force"' in response.content.decode()
    assert not Donne.objects.exists()
    response = client.post(reverse("donne_create", args=[partie.pk]), {**data, "force": "on"})
    assert response.status_code == 302
    assert Donne.objects.count() == 1


def test_too_many_kings_across_the_table_is_named_in_french_letters(client, alice, partie):
    client.force_login(alice)
    data = donne_data(
        partie, "Anne", cards_Bruno="R R R R R", cards_Chloé="R R R R R", points_David="2"
    )
    response = client.post(reverse("donne_create", args=[partie.pk]), data)
    assert response.context["form"].non_field_errors() == [
        "À la table, 10 cartes « R » en main : ce jeu n'en a que 8. Vérifiez les mains."
    ]


def test_a_long_partie_shows_its_latest_donnes_and_the_rest_on_demand(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    for i in range(35):
        winner, loser = ("Anne", "Bruno") if i % 2 else ("Bruno", "Anne")
        play(partie, winner, "rami", **{loser: hand("2")})
    client.force_login(alice)
    url = reverse("partie_detail", args=[partie.pk])
    body = client.get(url).content.decode()
    assert "5 donnes plus anciennes : tout afficher" in body
    assert f'href="{url}donnes/6/"' in body and f'href="{url}donnes/5/"' not in body
    everything = client.get(url + "?tout").content.decode()
    assert "plus anciennes" not in everything and f'href="{url}donnes/1/"' in everything


def test_an_edit_or_a_delete_without_a_state_is_stale_and_changes_nothing(
    client, alice, partie
) -> None:
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"), David=hand("3"))
    client.force_login(alice)
    data = donne_data(partie, "Anne", points_Bruno="30", points_Chloé="2", points_David="3")
    for posted in ({**data, "revision": ""}, data):
        response = client.post(reverse("donne_edit", args=[partie.pk, 1]), posted)
        assert response.status_code == 409
        assert response.context["form"]["revision"].value() == revision_of(partie)
        assert response.context["form"][f"points_{ids(partie)['Bruno']}"].value() == "30"
    _data, result = partie_replay(partie)
    assert result.states[0].totals["Bruno"] == 10
    for posted in ({"revision": ""}, {}):
        response = client.post(reverse("donne_delete", args=[partie.pk, 1]), posted, follow=True)
        assert "La partie a changé ailleurs" in response.content.decode()
    assert Donne.objects.filter(partie=partie).count() == 1


def marque_rows(body: str, url: str) -> list[int]:
    """The donnes the marque table lists, in its order, each as often as it is shown."""
    link = rf'<a class="donne-link" href="{re.escape(url)}donnes/(\d+)/"'
    return [int(n) for n in re.findall(link, body)]


# A short partie shows every donne; a long one its latest 30 (RECENT_DONNES) and a link.
@pytest.mark.parametrize(
    ("before", "shown", "older"),
    [(2, [1, 2, 3], ""), (30, list(range(2, 32)), "1 donne plus ancienne")],
)
def test_the_answer_to_a_donne_shows_the_rows_the_page_shows(
    client, alice, before: int, shown: list[int], older: str
) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    for i in range(before):
        winner, loser = ("Anne", "Bruno") if i % 2 else ("Bruno", "Anne")
        play(partie, winner, "rami", **{loser: hand("2")})
    client.force_login(alice)
    url = reverse("partie_detail", args=[partie.pk])
    data = donne_data(partie, "Anne", points_Bruno="2")
    answer = client.post(reverse("donne_create", args=[partie.pk]), data, **HTMX)
    body = answer.content.decode()
    assert f"Donne {before + 1} notée" in body
    assert marque_rows(body, url) == shown
    assert (older in body) if older else ("plus ancienne" not in body)
    page = client.get(url).content.decode()
    assert marque_rows(page, url) == shown


def test_the_answer_to_a_rachat_decision_shows_every_donne_of_a_short_partie(
    client, alice, partie
) -> None:
    for _ in range(3):
        play(partie, "Anne", "rami", Bruno=hand("2"), Chloé=hand("3"), David=hand("4"))
    # Donne 1 edited: Bruno crosses there, and donnes 2 and 3 wait for his decision. The page
    # reads one state (donne 1 applied); the decision applies all three.
    joueurs = {j.name: j for j in partie.joueurs.all()}
    services.donne_update(
        donne=partie.donnes.get(number=1),
        winner=joueurs["Anne"],
        win="rami",
        hands={
            joueurs["Bruno"]: hand(points=120),
            joueurs["Chloé"]: hand("3"),
            joueurs["David"]: hand("4"),
        },
    )
    client.force_login(alice)
    url = reverse("partie_detail", args=[partie.pk])
    decide_url = reverse("rachat_decide", args=[partie.pk, ids(partie)["Bruno"]])
    answer = client.post(decide_url, {"decision": "racheter"}, **HTMX)
    body = answer.content.decode()
    assert marque_rows(body, url) == [1, 2, 3] and "plus ancienne" not in body
    assert "Bruno se rachète" in body
    assert marque_rows(client.get(url).content.decode(), url) == [1, 2, 3]

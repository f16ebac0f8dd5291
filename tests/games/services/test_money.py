"""Money on the partie page and across parties: stakes, rachats owed, cagnotte, settlement.

Cast: alice owns the parties, bob is another account, anonymous is not logged in."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.centimes import from_centimes
from games.display.cagnotte import build_cagnotte
from games.display.evenings import build_evenings
from games.models import Joueur, Partie, Rachat
from games.scoring import RamiError, settle
from games.scoring.players import person_key
from games.selectors import parties_money, parties_of
from tests.factories import decide, hand, make_partie, partie_p1, play, revision_of
from tests.games.scoring.conftest import load_examples

pytestmark = pytest.mark.django_db

EXAMPLES = load_examples()["partie_cases"]


@pytest.fixture
def p1(alice) -> Partie:
    """P1 up to Bruno's rachat at donne 3."""
    return partie_p1(alice, donnes=3)


def cagnotte(partie: Partie):
    stored = selectors.partie_state(Partie.objects.get(pk=partie.pk))
    return build_cagnotte(stored, selectors.bought_back(stored))


def owed(partie: Partie) -> dict[str, Decimal]:
    return {c.joueur.name: c.owed for c in cagnotte(partie).players}


def joueur(partie: Partie, name: str) -> Joueur:
    return partie.joueurs.get(name=name)


# -- services ----------------------------------------------------------------------------------


def test_stakes_and_rachats_are_owed_until_marked_paid(p1) -> None:
    c = cagnotte(p1)
    assert [(due.label, due.amount) for due in c.dues] == [
        ("Mise d’Alice", Decimal("1.00")),
        ("Mise de Bruno", Decimal("1.00")),
        ("Mise de Chloé", Decimal("1.00")),
        ("Bruno, 1er rachat, donne 3", Decimal("2.00")),
    ]
    assert c.pot == Decimal("5.00")
    assert owed(p1) == {
        "Alice": Decimal("1.00"),
        "Bruno": Decimal("3.00"),
        "Chloé": Decimal("1.00"),
    }
    services.mise_mark_paid(joueur=joueur(p1, "Bruno"), paid=True)
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    c = cagnotte(p1)
    bruno = next(x for x in c.players if x.joueur.name == "Bruno")
    assert (bruno.paid, bruno.owed) == (Decimal("3.00"), Decimal("0.00"))
    assert c.on_table == Decimal("3.00")
    services.mise_mark_paid(joueur=joueur(p1, "Bruno"), paid=False)
    assert owed(p1)["Bruno"] == Decimal("1.00")


def test_a_declined_rachat_has_nothing_to_pay(alice) -> None:
    partie = make_partie(alice, rachat_price=Decimal("2.00"))
    play(partie, "Alice", "rami", Bruno=hand(points=120), Chloé=hand("2"))
    decide(partie, "Bruno", False)
    with pytest.raises(RamiError) as err:
        services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    assert err.value.code == "rachat_refuse"
    assert cagnotte(partie).dues == []


def test_a_partie_without_stake_refuses_to_mark_one_paid(alice) -> None:
    partie = make_partie(alice)
    with pytest.raises(RamiError) as err:
        services.mise_mark_paid(joueur=joueur(partie, "Alice"), paid=True)
    assert err.value.code == "pas_de_mise"
    assert not Joueur.objects.filter(mise_paid=True).exists()


def test_changing_the_prices_recomputes_what_is_owed(p1) -> None:
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    repriced = services.partie_update_money(
        partie=p1,
        mise_initiale=Decimal("0.50"),
        rachat_price=Decimal("3.10"),
        point_value=Decimal("0.05"),
        settlement="gagnant",
    )
    assert owed(p1) == {
        "Alice": Decimal("0.50"),
        "Bruno": Decimal("0.50"),
        "Chloé": Decimal("0.50"),
    }
    c = cagnotte(p1)
    assert c.pot == Decimal("4.60")
    assert c.dues[-1].amount == Decimal("3.10")
    assert [(r.name, r.donne, r.old, r.new) for r in repriced] == [
        ("Bruno", 3, Decimal("2.00"), Decimal("3.10"))
    ]


def test_editing_away_a_paid_rachat_says_to_give_it_back(p1) -> None:
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    joueurs = {j.name: j for j in p1.joueurs.all()}
    change = services.donne_update(
        donne=p1.donnes.get(number=3),
        winner=joueurs["Chloé"],
        win="rami",
        hands={joueurs["Alice"]: hand("5 2"), joueurs["Bruno"]: hand("Q J 9")},
    )
    assert change.refunds == [(3, "Bruno", Decimal("2.00"))]
    assert [due.label for due in cagnotte(p1).dues if "rachat" in due.label] == []


def test_deleting_the_donne_of_a_paid_rachat_says_to_give_it_back(p1) -> None:
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    change = services.donne_delete(donne=p1.donnes.get(number=3))
    assert change.refunds == [(3, "Bruno", Decimal("2.00"))]


def test_an_unpaid_rachat_removed_needs_no_refund(p1) -> None:
    change = services.donne_delete(donne=p1.donnes.get(number=3))
    assert change.refunds == []


# -- examples.json through the services ----------------------------------------------------------


def build_case(owner, case: dict) -> Partie:
    config = case["config"]
    prix = config.get("prix_rachat", 0)
    partie = services.partie_create(
        owner=owner,
        name=case["id"],
        preset=case["preset"],
        joueurs=case["players"],
        mise_initiale=from_centimes(config.get("mise_initiale", 0)),
        rachat_price=from_centimes(prix if isinstance(prix, int) else prix[0]),
        point_value=from_centimes(config.get("valeur_point", 0)),
        settlement=config.get("reglement", "gagnant"),
        fixed_manches=config.get("fixed_manches"),
    )
    for donne in case["donnes"]:
        given = donne["input"]
        play(partie, given["winner"], given["win"], **given["hands"])
        for name, accepted in given.get("rachat", {}).items():
            decide(partie, name, accepted)
    return partie


@pytest.mark.parametrize("case", EXAMPLES, ids=[c["id"] for c in EXAMPLES])
def test_examples_settle_through_the_services(alice, client, case) -> None:
    partie = build_case(alice, case)
    c = cagnotte(partie)
    expected = case["expected_final"]
    assert c.over
    assert c.pot == from_centimes(expected["pot"])
    assert dict(c.settlement.nets) == {n: from_centimes(v) for n, v in expected["net"].items()}
    assert sum(amount for _n, amount in c.settlement.nets) == Decimal("0.00")
    assert [(v.payer, v.payee, v.amount) for v in c.settlement.transfers] == [
        (a, b, from_centimes(x)) for a, b, x in settle(expected["net"])
    ]
    client.force_login(alice)
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Règlement final" in page
    for payer, payee, amount in settle(expected["net"]):
        text = f"<strong>{payer}</strong> donne {from_centimes(amount):.2f}".replace(".", ",")
        assert text in page, (payer, payee)


def test_p1_with_everything_paid_gives_the_pot_to_alice(alice) -> None:
    [case] = [c for c in EXAMPLES if c["id"] == "P1"]
    partie = build_case(alice, case)
    for j in partie.joueurs.all():
        services.mise_mark_paid(joueur=j, paid=True)
    for rachat in Rachat.objects.filter(accepted=True):
        services.rachat_mark_paid(rachat=rachat, paid=True)
    c = cagnotte(partie)
    assert [(v.from_pot, v.payee, v.amount) for v in c.settlement.transfers] == [
        (True, "Alice", Decimal("5.00"))
    ]


# -- views -----------------------------------------------------------------------------------


def test_the_partie_page_shows_the_cagnotte(client, alice, p1) -> None:
    client.force_login(alice)
    response = client.get(reverse("partie_detail", args=[p1.pk]))
    page = response.content.decode()
    assert 'id="cagnotte-panel"' in page
    assert "Mise de Bruno" in page
    assert "Bruno, 1er rachat, donne 3" in page
    assert "Règlement provisoire" in page
    assert response.context["cagnotte"].players[1].owed == Decimal("3.00")


def test_a_toggle_with_htmx_returns_the_panel_alone(client, alice, p1) -> None:
    client.force_login(alice)
    url = reverse("mise_paid", args=[p1.pk, joueur(p1, "Bruno").pk])
    response = client.post(url, {"paid": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith("<section") and "<html" not in page
    assert Joueur.objects.get(name="Bruno").mise_paid is True
    assert response.context["cagnotte"].players[1].owed == Decimal("2.00")


def test_a_refused_toggle_with_htmx_says_why_in_the_panel(client, alice) -> None:
    partie = make_partie(alice)  # no stake
    client.force_login(alice)
    url = reverse("mise_paid", args=[partie.pk, joueur(partie, "Bruno").pk])
    response = client.post(url, {"paid": "1"}, headers={"HX-Request": "true"})
    assert "Cette partie se joue sans mise" in response.content.decode()


def test_a_toggle_without_javascript_redirects_to_the_panel(client, alice, p1) -> None:
    client.force_login(alice)
    url = reverse("rachat_paid", args=[p1.pk, Rachat.objects.get().pk])
    response = client.post(url, {"paid": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("partie_detail", args=[p1.pk]) + "#cagnotte-panel"
    assert Rachat.objects.get().paid is True


def test_the_money_form_recomputes_and_says_so(client, alice, p1) -> None:
    client.force_login(alice)
    data = {
        "mise_initiale": "2",
        "rachat_price": "2,50",  # a French keyboard's decimal comma
        "point_value": "0",
        "settlement": "gagnant",
        "revision": revision_of(p1),
    }
    response = client.post(reverse("partie_money", args=[p1.pk]), data, follow=True)
    assert "Ce que chacun doit a été recalculé." in response.content.decode()
    assert Partie.objects.get().mise_initiale == Decimal("2.00")
    assert Partie.objects.get().rachat_price == Decimal("2.50")
    assert owed(p1)["Bruno"] == Decimal("4.50")


def test_the_money_form_refuses_a_negative_price(client, alice, p1) -> None:
    client.force_login(alice)
    data = {"mise_initiale": "-1", "rachat_price": "2", "point_value": "0", "settlement": "gagnant"}
    response = client.post(reverse("partie_money", args=[p1.pk]), data)
    assert response.status_code == 422
    assert Partie.objects.get().mise_initiale == Decimal("1.00")


def test_editing_away_a_paid_rachat_warns_on_the_page(client, alice, p1) -> None:
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    client.force_login(alice)
    ids = {j.name: j.pk for j in p1.joueurs.all()}
    data = {"winner": ids["Chloé"], "win": "rami", "revision": revision_of(p1)}
    data[f"cards_{ids['Alice']}"] = "5 2"
    data[f"cards_{ids['Bruno']}"] = "Q J 9"
    data[f"jokers_{ids['Alice']}"] = data[f"jokers_{ids['Bruno']}"] = "0"
    response = client.post(reverse("donne_edit", args=[p1.pk, 3]), data, follow=True)
    assert (
        "Le rachat de Bruno (donne 3) était marqué payé : rendez-lui 2,00\u00a0€."
        in response.content.decode()
    )


# -- across parties --------------------------------------------------------------------------


def test_person_key_ignores_case_accents_and_spaces() -> None:
    assert person_key("Chloé") == person_key(" CHLOE ") == person_key("chloe\u0301") == "chloe"
    assert person_key("Anne  Marie") == "anne marie"


def test_evenings_sum_unpaid_and_nets_by_evening(client, alice, bob) -> None:
    [case] = [c for c in EXAMPLES if c["id"] == "P1"]
    first = build_case(alice, case)
    second = make_partie(alice, joueurs=["alice", "BRUNO", "Chloe"], mise_initiale=Decimal("0.30"))
    play(second, "BRUNO", "rami", alice=hand("K"), Chloe=hand("2"))
    services.partie_close(partie=second)
    services.mise_mark_paid(joueur=joueur(first, "Chloé"), paid=True)
    make_partie(bob, mise_initiale=Decimal("9.00"))  # bob's: never in alice's accounts
    comptes = build_evenings(parties_money(parties_of(alice)))
    # Both parties are over: what is not paid yet is in the transfers, not in a second list.
    assert comptes.to_pot == []
    [evening] = comptes.evenings
    assert [(s.name, s.on_table) for s in evening.shares] == [
        ("Alice", Decimal("0.00")),
        ("Bruno", Decimal("0.00")),
        ("Chloé", Decimal("1.00")),
    ]
    # P1: Alice +4,00, Bruno −3,00, Chloé −1,00; second: Bruno +0,60, the others −0,30.
    assert dict(evening.nets) == {
        "Alice": Decimal("3.70"),
        "Bruno": Decimal("-2.40"),
        "Chloé": Decimal("-1.30"),
    }
    # Chloé's paid 1,00 € is in the pot, which pays it out.
    assert [(v.payer, v.payee, v.amount) for v in evening.transfers] == [
        ("", "Alice", Decimal("1.00")),
        ("Bruno", "Alice", Decimal("2.40")),
        ("Chloé", "Alice", Decimal("0.30")),
    ]
    client.force_login(alice)
    page = client.get(reverse("evenings_money")).content.decode()
    assert "<strong>Bruno</strong> donne 2,40\u00a0€ à <strong>Alice</strong>" in page


def test_parties_of_another_day_are_another_evening(alice) -> None:
    make_partie(alice, mise_initiale=Decimal("1.00"))
    old = make_partie(alice, mise_initiale=Decimal("1.00"))
    Partie.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=2))
    comptes = build_evenings(parties_money(parties_of(alice)))
    assert len(comptes.evenings) == 2
    assert all(s.in_progress and not s.finished for s in comptes.evenings)


@pytest.mark.parametrize("count", [1, 4])
def test_evenings_take_a_fixed_number_of_queries(alice, django_assert_num_queries, count) -> None:
    [case] = [c for c in EXAMPLES if c["id"] == "P1"]
    for _ in range(count):
        build_case(alice, case)
    # The parties with their stored results, their players, and the rachats of the account.
    with django_assert_num_queries(3):
        comptes = build_evenings(parties_money(parties_of(alice)))
    assert len(comptes.evenings[0].finished) == count


def test_the_partie_page_money_takes_one_query(alice, p1, django_assert_num_queries) -> None:
    stored = selectors.partie_state(Partie.objects.get(pk=p1.pk))
    # The rachats bought back (their payment ticks), whatever the number of donnes.
    with django_assert_num_queries(1):
        build_cagnotte(stored, selectors.bought_back(stored))


# -- access: each new URL × {anonymous, another account, owner} ---------------------------------


def _urls(p1) -> list[tuple[str, str, dict]]:
    return [
        ("post", reverse("mise_paid", args=[p1.pk, joueur(p1, "Bruno").pk]), {"paid": "1"}),
        ("post", reverse("rachat_paid", args=[p1.pk, Rachat.objects.get().pk]), {"paid": "1"}),
        (
            "post",
            reverse("partie_money", args=[p1.pk]),
            {
                "mise_initiale": "1",
                "rachat_price": "2",
                "point_value": "0",
                "settlement": "gagnant",
                "revision": revision_of(p1),
            },
        ),
    ]


def test_anonymous_visitors_are_sent_to_login(client, p1) -> None:
    for method, url, data in [*_urls(p1), ("get", reverse("evenings_money"), {})]:
        response = getattr(client, method)(url, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login")), url


def test_another_account_gets_404(client, bob, p1) -> None:
    client.force_login(bob)
    for method, url, data in _urls(p1):
        assert getattr(client, method)(url, data).status_code == 404, url
    assert not Joueur.objects.filter(mise_paid=True).exists()
    assert not Rachat.objects.filter(paid=True).exists()
    # bob's own Comptes page is his, and empty of alice's players.
    response = client.get(reverse("evenings_money"))
    assert response.status_code == 200
    assert "Bruno" not in response.content.decode()


def test_the_owner_gets_through(client, alice, p1) -> None:
    client.force_login(alice)
    # A tick swaps the cagnotte panel under htmx; the money form always redirects to it.
    for (method, url, data), htmx_status in zip(_urls(p1), (200, 200, 302), strict=True):
        assert getattr(client, method)(url, data).status_code == 302, url
        hx = getattr(client, method)(url, data, headers={"HX-Request": "true"})
        assert hx.status_code == htmx_status, url
    assert client.get(reverse("evenings_money")).status_code == 200


def test_a_rachat_price_changed_on_another_phone_is_not_silently_undone(alice, p1) -> None:
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    page = reverse("partie_detail", args=[p1.pk])
    url = reverse("partie_money", args=[p1.pk])
    token = first.get(page).context["money_form"]["revision"].value()
    money = {"mise_initiale": "1", "rachat_price": "2", "point_value": "0", "settlement": "gagnant"}
    assert second.post(url, {**money, "rachat_price": "3", "revision": token}).status_code == 302
    # The first phone raises the stake on the page as it was, with the old price of 2.
    response = first.post(url, {**money, "mise_initiale": "2", "revision": token})
    assert response.status_code == 409
    form = response.context["money_form"]
    assert form.non_field_errors() == [
        "La partie a changé ailleurs (un autre téléphone, un autre onglet) pendant que vous "
        "saisissiez : voici la marque à jour. Vérifiez, puis validez à nouveau si c'est "
        "toujours juste."
    ]
    # The current values, with the token they go with.
    assert (form["mise_initiale"].value(), form["rachat_price"].value()) == (
        Decimal("1.00"),
        Decimal("3.00"),
    )
    assert form["revision"].value() == revision_of(p1)
    p1.refresh_from_db()
    assert (p1.mise_initiale, p1.rachat_price) == (Decimal("1.00"), Decimal("3.00"))
    # Without a token at all: stale too.
    assert first.post(url, {**money, "mise_initiale": "2", "revision": ""}).status_code == 409
    assert first.post(url, {**money, "mise_initiale": "2"}).status_code == 409
    assert Partie.objects.get().mise_initiale == Decimal("1.00")

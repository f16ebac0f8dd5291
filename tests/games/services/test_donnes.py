from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from games import services
from games.errors import translated
from games.models import Donne, Hand, Partie, Rachat
from games.scoring import RamiError
from games.selectors import partie_replay
from tests.factories import decide, hand, make_partie, partie_p1, play

pytestmark = pytest.mark.django_db


def totals(partie: Partie) -> dict[str, int]:
    _data, result = partie_replay(partie)
    return result.states[-1].totals


@pytest.fixture
def p1(alice) -> Partie:
    """P1 up to Bruno's crossing at donne 3, before his decision."""
    return partie_p1(alice, donnes=3, decided=False)


def test_it_records_donnes_and_replays_the_totals(p1) -> None:
    assert Donne.objects.filter(partie=p1).count() == 3
    # Bruno: 25 + 34 + (10+10+9+10)×2 = 137, waiting for his decision (docs/rules.md R5).
    assert totals(p1) == {"Alice": -23, "Bruno": 137, "Chloé": 27}
    _data, result = partie_replay(p1)
    [pending] = result.pending
    assert (pending.player, pending.total, pending.number, pending.restart, pending.price) == (
        "Bruno",
        137,
        1,
        27,
        200,
    )


def test_it_refuses_a_new_donne_while_a_decision_is_pending(p1) -> None:
    with pytest.raises(RamiError) as err:
        play(p1, "Alice", "rami", Bruno=hand("2"), Chloé=hand("3"))
    assert err.value.code == "decision_en_attente"
    assert Donne.objects.filter(partie=p1).count() == 3


def test_a_rachat_restarts_at_the_reference_score(p1) -> None:
    decide(p1, "Bruno", True)
    assert totals(p1) == {"Alice": -23, "Bruno": 27, "Chloé": 27}
    assert Rachat.objects.get().accepted is True


def test_declining_eliminates_and_the_last_standing_wins(p1) -> None:
    decide(p1, "Bruno", True)
    play(p1, "Bruno", "rami", Alice=hand("K Q J"), Chloé=hand("A A K K"))
    play(p1, "Alice", "rami", Bruno=hand("8 8 8"), Chloé=hand("K Q J 3"))
    decide(p1, "Chloé", False)
    play(p1, "Bruno", "rami_de_la_main", Alice=hand("9", jokers=1))
    play(p1, "Alice", "rami", Bruno=hand("K Q J 10", jokers=1))
    decide(p1, "Bruno", False)
    _data, result = partie_replay(p1)
    assert result.over and result.end_reason == "last_standing"
    assert result.final.to_dict()["net"] == {"Alice": 400, "Bruno": -300, "Chloé": -100}


def test_a_wrong_hand_saves_nothing_and_names_the_player(p1) -> None:
    decide(p1, "Bruno", True)
    with pytest.raises(RamiError) as err:
        play(p1, "Alice", "rami", Bruno=hand("K", jokers=5), Chloé=hand("2"))
    assert err.value.code == "trop_de_jokers"
    assert err.value.player == "Bruno"
    assert "Donne 4" in translated(err.value)
    assert Donne.objects.filter(partie=p1).count() == 3
    assert Hand.objects.filter(donne__partie=p1).count() == 6


def test_editing_an_old_donne_replays_and_drops_decisions_that_no_longer_apply(p1) -> None:
    decide(p1, "Bruno", True)
    donne3 = p1.donnes.get(number=3)
    joueurs = {j.name: j for j in p1.joueurs.all()}
    change = services.donne_update(
        donne=donne3,
        winner=joueurs["Chloé"],
        win="rami",
        hands={joueurs["Alice"]: hand("5 2"), joueurs["Bruno"]: hand("Q J 9")},
    )
    # Without the joker Bruno scores 29: 59 + 29 = 88, no crossing, so no rachat.
    assert change.removed_decisions == [(3, "Bruno")]
    assert change.totals == {"Bruno": (27, 88)}
    assert totals(p1) == {"Alice": -23, "Bruno": 88, "Chloé": 27}
    assert not Rachat.objects.exists()


def test_an_edit_that_makes_a_new_crossing_asks_for_it(p1) -> None:
    decide(p1, "Bruno", True)
    play(p1, "Bruno", "rami", Alice=hand("K Q J"), Chloé=hand("A A K K"))
    donne1 = p1.donnes.get(number=1)
    joueurs = {j.name: j for j in p1.joueurs.all()}
    change = services.donne_update(
        donne=donne1,
        winner=joueurs["Alice"],
        win="rami",
        hands={joueurs["Bruno"]: hand("K Q 5"), joueurs["Chloé"]: hand(points=80)},
    )
    # Chloé: 80 + 20 = 100 at donne 2 (docs/rules.md R4: exactly 100 crosses).
    assert change.pending == [(2, "Chloé")]
    # The replay now stops at donne 2: no "totals changed" compared across different donnes.
    assert change.totals == {}


def test_deleting_a_donne_renumbers_the_later_ones(p1) -> None:
    decide(p1, "Bruno", True)
    services.donne_delete(donne=p1.donnes.get(number=1))
    assert list(p1.donnes.values_list("number", flat=True)) == [1, 2]
    # Bruno: 34 + 78 = 112 crosses again at donne 2; his decision still applies and he
    # restarts at Chloé's 20 − 10 = 10 (docs/rules.md R6).
    assert totals(p1) == {"Alice": -13, "Bruno": 10, "Chloé": 10}


def test_undoing_the_last_donne(p1) -> None:
    services.donne_delete(donne=p1.donnes.get(number=3))
    assert totals(p1) == {"Alice": -30, "Bruno": 59, "Chloé": 37}


def test_a_partie_can_be_ended_by_hand_and_reopened(alice) -> None:
    partie = make_partie(alice)
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    partie = services.partie_close(partie=partie)
    _data, result = partie_replay(partie)
    assert result.over and result.end_reason == "manual"
    assert result.final.to_dict()["winner"] == "Alice"
    with pytest.raises(RamiError):
        play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    partie = services.partie_reopen(partie=partie)
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    assert totals(partie) == {"Alice": -20, "Bruno": 20, "Chloé": 4}


def test_partie_create_refuses_too_many_players(alice) -> None:
    with pytest.raises(RamiError) as err:
        make_partie(alice, joueurs=["A", "B", "C", "D", "E", "F", "G"])
    assert err.value.code == "nombre_de_joueurs"
    assert not Partie.objects.exists()


def alice_wins(partie: Partie) -> dict:
    """A donne Alice wins with a rami, Bruno holding a king and Chloé a two."""
    joueurs = {j.name: j for j in partie.joueurs.all()}
    return {
        "winner": joueurs["Alice"],
        "win": "rami",
        "hands": {joueurs["Bruno"]: hand("K"), joueurs["Chloé"]: hand("2")},
    }


def test_the_same_form_key_records_the_donne_once(alice) -> None:
    partie = make_partie(alice)
    key = uuid.uuid4()
    args = alice_wins(partie)
    first = services.donne_create(partie=partie, idempotency_key=key, **args)
    again = services.donne_create(partie=partie, idempotency_key=key, **args)
    assert again.donne.pk == first.donne.pk and again.repeated and not first.repeated
    assert Donne.objects.count() == 1


def test_the_key_of_a_deleted_donne_stays_used(alice) -> None:
    partie = make_partie(alice)
    key = uuid.uuid4()
    args = alice_wins(partie)
    first = services.donne_create(partie=partie, idempotency_key=key, **args)
    services.donne_delete(donne=first.donne)
    with pytest.raises(RamiError) as err:
        services.donne_create(partie=partie, idempotency_key=key, **args)
    assert (err.value.code, translated(err.value)) == (
        "donne_supprimee",
        "Cette donne a été supprimée.",
    )
    assert Donne.objects.count() == 0
    # Another form (a new key) records the donne again, as number 1.
    again = services.donne_create(partie=partie, idempotency_key=uuid.uuid4(), **args)
    assert again.donne.number == 1


def test_a_form_built_on_an_older_state_is_refused(alice) -> None:
    partie = make_partie(alice)
    etat = str(Partie.objects.get(pk=partie.pk).revision)
    play(partie, "Alice", "rami", Bruno=hand("K"), Chloé=hand("2"))
    joueurs = {j.name: j for j in partie.joueurs.all()}
    with pytest.raises(RamiError) as err:
        services.donne_create(
            partie=partie,
            winner=joueurs["Bruno"],
            win="rami",
            revision=etat,
            hands={joueurs["Alice"]: hand("K"), joueurs["Chloé"]: hand("2")},
        )
    assert err.value.code == "etat_perime"
    assert translated(err.value).startswith("La partie a changé ailleurs")
    assert Donne.objects.count() == 1


def test_the_same_rachat_answer_twice_changes_nothing(p1) -> None:
    decide(p1, "Bruno", True)
    decide(p1, "Bruno", True)
    assert Rachat.objects.count() == 1
    with pytest.raises(RamiError) as err:
        decide(p1, "Bruno", False)
    assert err.value.code == "pas_de_decision"


def test_ticking_a_payment_does_not_make_the_donne_form_stale(alice) -> None:
    partie = make_partie(alice, mise_initiale=Decimal("1.00"))
    etat = str(Partie.objects.get(pk=partie.pk).revision)
    services.mise_mark_paid(joueur=partie.joueurs.get(name="Bruno"), paid=True)
    joueurs = {j.name: j for j in partie.joueurs.all()}
    services.donne_create(
        partie=partie,
        winner=joueurs["Alice"],
        win="rami",
        revision=etat,
        hands={joueurs["Bruno"]: hand("K"), joueurs["Chloé"]: hand("2")},
    )
    assert Donne.objects.count() == 1


def test_an_edit_refuses_a_dealer_who_was_out_of_that_donne(alice) -> None:
    # docs/rules.md "Le donneur": the dealer is one of those dealt to, in an edit as well.
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("2"), Chloé=hand(points=120))
    decide(partie, "Chloé", False)  # she leaves: donne 2 is dealt to Anne and Bruno
    play(partie, "Anne", "rami", Bruno=hand("2"))
    joueurs = {j.name: j for j in partie.joueurs.all()}
    with pytest.raises(RamiError) as refused:
        services.donne_update(
            donne=Donne.objects.get(partie=partie, number=2),
            winner=joueurs["Anne"],
            win="rami",
            hands={joueurs["Bruno"]: hand("2")},
            dealer=joueurs["Chloé"],
        )
    assert refused.value.code == "donneur_invalide"
    assert Donne.objects.get(partie=partie, number=2).dealer != joueurs["Chloé"]

"""The Comptes page: one list per evening of who gives what to whom, counting the
money already on the table; an unpaid stake of a finished partie is never asked twice.

Cast: alice owns the parties."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.display.evenings import build_evenings
from games.models import Partie, Rachat
from games.selectors import parties_money, parties_of
from tests.factories import decide, hand, make_partie, play

pytestmark = pytest.mark.django_db

EURO = "\u00a0€"


def gerard_wins(owner, *, paid: tuple[str, ...], name: str = "Jeudi") -> Partie:
    """Gérard, Anne and Bruno at 12,00 € each; Gérard wins the only donne, then the partie
    is ended (docs/rules.md R21): the pot of 36,00 € is his, a net of +24,00 €."""
    partie = make_partie(owner, joueurs=["Gérard", "Anne", "Bruno"], mise_initiale=Decimal("12.00"))
    partie.name = name
    partie.save(update_fields=["name"])
    for joueur in partie.joueurs.filter(name__in=paid):
        services.mise_mark_paid(joueur=joueur, paid=True)
    play(partie, "Gérard", "rami", Anne=hand("K 5"), Bruno=hand("9"))
    services.partie_close(partie=partie)
    return partie


def transfers(evening) -> list[tuple[str, str, Decimal]]:
    return [(t.payer, t.payee, t.amount) for t in evening.transfers]


def page(client, owner) -> str:
    client.force_login(owner)
    return client.get(reverse("evenings_money")).content.decode()


def test_the_winner_s_unpaid_stake_is_not_asked_twice(client, alice) -> None:
    # The bug: "Encore à payer à la cagnotte : Gérard 12,00 €" beside "La cagnotte va à
    # Gérard", so Gérard would put 12,00 € in a pot that goes straight back to him.
    gerard_wins(alice, paid=("Anne", "Bruno"))
    accounts = build_evenings(parties_money(parties_of(alice)))
    [evening] = accounts.evenings
    assert accounts.to_pot == [] and evening.to_pot == []
    # Anne's and Bruno's 24,00 € are on the table; it is all Gérard's, and that settles it.
    assert transfers(evening) == [("", "Gérard", Decimal("24.00"))]
    assert [(s.name, s.on_table, s.net) for s in evening.shares] == [
        ("Gérard", Decimal("0.00"), Decimal("24.00")),
        ("Anne", Decimal("12.00"), Decimal("-12.00")),
        ("Bruno", Decimal("12.00"), Decimal("-12.00")),
    ]
    body = page(client, alice)
    assert f"La cagnotte va à <strong>Gérard</strong> : 24,00{EURO}" in body
    assert body.count('class="virement') == 1
    assert "Encore à" not in body and "impaye" not in body
    assert f'<td class="text-end sur-la-table">24,00{EURO}</td>' in body


def test_an_unpaid_loser_pays_the_winner_once(client, alice) -> None:
    gerard_wins(alice, paid=("Gérard", "Bruno"))
    [evening] = build_evenings(parties_money(parties_of(alice))).evenings
    # Anne's 12,00 € never went in the pot: she hands it to Gérard, who takes the 24,00 €
    # on the table (his own 12,00 € back and Bruno's).
    assert transfers(evening) == [
        ("", "Gérard", Decimal("24.00")),
        ("Anne", "Gérard", Decimal("12.00")),
    ]
    body = page(client, alice)
    assert body.count("<strong>Anne</strong> donne") == 1
    assert f"<strong>Anne</strong> donne 12,00{EURO} à <strong>Gérard</strong>" in body
    assert "Encore à" not in body


def test_nothing_paid_means_players_pay_each_other(alice) -> None:
    gerard_wins(alice, paid=())
    [evening] = build_evenings(parties_money(parties_of(alice))).evenings
    assert transfers(evening) == [
        ("Anne", "Gérard", Decimal("12.00")),
        ("Bruno", "Gérard", Decimal("12.00")),
    ]
    assert evening.on_table == Decimal("0.00")


def test_paid_rachats_are_on_the_table_too(alice) -> None:
    # Anne crosses 100 at the first donne and buys back (2,00 €, docs/rules.md R11); the
    # partie ends there, Gérard first: the pot of 3 × 1,00 € + 2,00 € is his, a net of
    # +4,00 €; Anne −3,00 €, Bruno −1,00 €. Anne has paid her stake and her rachat.
    partie = make_partie(
        alice,
        joueurs=["Gérard", "Anne", "Bruno"],
        mise_initiale=Decimal("1.00"),
        rachat_price=Decimal("2.00"),
    )
    play(partie, "Gérard", "rami", Anne=hand(points=120), Bruno=hand("9"))
    decide(partie, "Anne", True)
    services.partie_close(partie=partie)
    services.mise_mark_paid(joueur=partie.joueurs.get(name="Anne"), paid=True)
    services.rachat_mark_paid(rachat=Rachat.objects.get(), paid=True)
    [evening] = build_evenings(parties_money(parties_of(alice))).evenings
    assert [(s.name, s.on_table, s.net) for s in evening.shares] == [
        ("Gérard", Decimal("0.00"), Decimal("4.00")),
        ("Anne", Decimal("3.00"), Decimal("-3.00")),
        ("Bruno", Decimal("0.00"), Decimal("-1.00")),
    ]
    assert transfers(evening) == [
        ("", "Gérard", Decimal("3.00")),
        ("Bruno", "Gérard", Decimal("1.00")),
    ]


def test_two_parties_of_one_evening_settle_in_one_list(client, alice) -> None:
    # Thursday: Gérard takes 24,00 € (Anne and Bruno paid); then Anne wins the second
    # partie, where nobody has paid: +24,00 € for her. Over the evening Gérard and Anne are
    # +12,00 € each, Bruno −24,00 €, and 24,00 € are on the table (Anne's and Bruno's).
    gerard_wins(alice, paid=("Anne", "Bruno"))
    second = make_partie(alice, joueurs=["gerard", "ANNE", "Bruno"], mise_initiale=Decimal("12.00"))
    play(second, "ANNE", "rami", gerard=hand("K 5"), Bruno=hand("9"))
    services.partie_close(partie=second)
    [evening] = build_evenings(parties_money(parties_of(alice))).evenings
    assert [(s.name, s.on_table, s.net) for s in evening.shares] == [
        ("Gérard", Decimal("0.00"), Decimal("12.00")),
        ("Anne", Decimal("12.00"), Decimal("12.00")),
        ("Bruno", Decimal("12.00"), Decimal("-24.00")),
    ]
    # Anne takes the table's 24,00 € (her 12,00 € back and her 12,00 € net); Bruno, who
    # has put in 12,00 € of his 24,00 €, hands Gérard the other 12,00 €. Two transfers.
    assert transfers(evening) == [
        ("", "Anne", Decimal("24.00")),
        ("Bruno", "Gérard", Decimal("12.00")),
    ]
    body = page(client, alice)
    assert f"La cagnotte va à <strong>Anne</strong> : 24,00{EURO}" in body
    assert f"<strong>Bruno</strong> donne 12,00{EURO} à <strong>Gérard</strong>" in body


def test_a_partie_in_progress_lists_what_is_still_to_put_in(client, alice) -> None:
    gerard_wins(alice, paid=("Anne", "Bruno"))
    running = make_partie(alice, joueurs=["Gérard", "Chloé"], mise_initiale=Decimal("2.50"))
    running.name = "Revanche"
    running.save(update_fields=["name"])
    services.mise_mark_paid(joueur=running.joueurs.get(name="Chloé"), paid=True)
    old = make_partie(alice, joueurs=["Anne", "Bruno"], mise_initiale=Decimal("5.00"))
    Partie.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))
    accounts = build_evenings(parties_money(parties_of(alice)))
    today, before = accounts.evenings
    # Today's settlement is Thursday's alone; the Revanche is running: Gérard still owes
    # its cagnotte 2,50 € (Chloé paid hers), which the settlement does not count.
    assert transfers(today) == [("", "Gérard", Decimal("24.00"))]
    assert [(p.name, p.total) for p in today.to_pot] == [("Gérard", Decimal("2.50"))]
    assert [(p.name, p.total) for p in before.to_pot] == [
        ("Anne", Decimal("5.00")),
        ("Bruno", Decimal("5.00")),
    ]
    assert before.transfers == [] and before.shares == []
    body = page(client, alice)
    assert "Encore à mettre dans la cagnotte des parties en cours" in body
    assert f'Revanche · Mise de Gérard</a><span class="text-nowrap">2,50{EURO}' in body


def test_the_partie_page_says_the_transfers_settle_what_is_still_owed(client, alice) -> None:
    partie = gerard_wins(alice, paid=("Gérard", "Bruno"))
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert 'id="doit-encore-note"' in body
    assert "Ce qui reste dû est compté dans les virements ci-dessous" in body
    assert f"<strong>Anne</strong> donne 12,00{EURO} à <strong>Gérard</strong>" in body
    # While the partie runs, what is owed is still to put in the cagnotte: no such note.
    running = make_partie(alice, joueurs=["Gérard", "Anne"], mise_initiale=Decimal("1.00"))
    body = client.get(reverse("partie_detail", args=[running.pk])).content.decode()
    assert 'id="doit-encore-note"' not in body

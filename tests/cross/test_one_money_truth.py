"""One money truth: a partie's transfers link to its evening on the Comptes page, which names
the parties it adds up; both say that they are one payment, not two. Cast: alice owns the
parties."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from tests.factories import hand, make_partie, play
from tests.games.display.test_evenings import gerard_wins

pytestmark = pytest.mark.django_db


def test_the_partie_page_s_transfers_link_to_the_evening_that_counts_them(client, alice) -> None:
    partie = gerard_wins(alice, paid=(), name="Jeudi")
    day = timezone.localdate(partie.created_at)
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    anchor = f"soiree-{day.isoformat()}-EUR"
    link = f'<a href="/argent/#{anchor}">Comptes du '
    assert link in body
    assert (
        "comptent déjà ces virements avec ceux des autres parties de la soirée : payez l'un ou "
        "l'autre, jamais les deux."
    ) in body.replace("&#x27;", "'")
    comptes = client.get(reverse("evenings_money")).content.decode()
    assert f'id="{anchor}"' in comptes
    assert f'Parties comptées : <a href="/parties/{partie.pk}/#reglement">Jeudi</a>.' in comptes
    assert "Les mêmes virements que sur la page de la partie : à payer une seule fois." in comptes


def test_the_comptes_name_every_partie_of_the_evening_counted_or_not(client, alice) -> None:
    first = gerard_wins(alice, paid=(), name="Jeudi")
    second = gerard_wins(alice, paid=("Anne",), name="Revanche")
    running = make_partie(alice, name="Belote ?", mise_initiale=Decimal("1"))
    client.force_login(alice)
    comptes = client.get(reverse("evenings_money")).content.decode()
    assert (
        f'Parties comptées : <a href="/parties/{first.pk}/#reglement">Jeudi</a>, '
        f'<a href="/parties/{second.pk}/#reglement">Revanche</a>.'
    ) in comptes
    assert (
        f'Pas encore comptées (en cours) : <a href="/parties/{running.pk}/">Belote ?</a>.'
    ) in comptes
    assert "à la place des virements de chaque partie : payez ceci, ou chaque partie" in comptes


def test_a_partie_in_progress_says_it_will_be_counted_once_over(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"], mise_initiale=Decimal("2"))
    services.partie_update_money(
        partie=partie,
        mise_initiale=Decimal("2"),
        rachat_price=Decimal("0"),
        point_value=Decimal("0.10"),
        settlement="gagnant",
    )
    play(partie, "Anne", "rami", Bruno=hand("K 5"))
    client.force_login(alice)
    body = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Règlement provisoire" in body
    assert "Rien à payer avant la fin. Une fois terminée, cette partie sera comptée dans" in body

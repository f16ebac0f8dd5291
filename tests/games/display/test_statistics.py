"""The Statistiques page: three known parties worked out by hand, the filters, and
a fixed number of queries at 3 and at 300 parties. Cast: alice owns the parties, bob is
another account; Anne, Bruno and Chloé are alice's regular table."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.display.statistics import Filters, build_statistics
from games.files import Uploaded
from games.models import Partie
from games.selectors import statistics_parties
from games.services.imports import parties_import
from tests.factories import decide, hand, make_partie, play

pytestmark = pytest.mark.django_db
TABLE = ["Anne", "Bruno", "Chloé"]


def statistics(owner, filters: Filters):
    """The page's statistics as its view builds them: read, then arranged."""
    parties = statistics_parties(owner, preset=filters.preset, since=filters.since())
    return build_statistics(filters, *parties)


def three_parties(owner) -> list[Partie]:
    """Worked out by hand (classique: rami −10, rami de la main −20 and losers ×2, seuil 100,
    restart at the highest total under it, docs/rules.md §3 and R6):

    Lundi (mise 1 €, rachat 2 €): Anne rami (A −10, B 30, C 20); Bruno rami (A 30, B 20,
    C 110: Chloé buys back at 30); Anne rami de la main (A 10, B 40, C 40); ended. Anne 1st,
    Bruno and Chloé 2nd. Cagnotte 5 € to Anne: nets A +4, B −1, C −3.
    Mardi (mise 1 €, rachat 2 €): Bruno rami (A 50, B −10, C 60); Chloé rami (A 105, B 0,
    C 50: Anne declines); Bruno rami (B −10, C 58); ended. Bruno 1st, Chloé 2nd, Anne 3rd
    (eliminated). Cagnotte 3 € to Bruno: nets A −1, B +2, C −1.
    Mercredi (point 0,10 €, the losers pay the winner): Chloé rami (A 20, B 35, C −10);
    Chloé rami (A 32, B 42, C −20); ended. Anne pays 52 × 0,10 = 5,20 €, Bruno 62 × 0,10 =
    6,20 €: nets A −5,20, B −6,20, C +11,40."""
    money = {"mise_initiale": Decimal("1.00"), "rachat_price": Decimal("2.00")}
    lundi = make_partie(owner, joueurs=TABLE, name="Lundi", **money)
    play(lundi, "Anne", "rami", Bruno=hand(points=30), Chloé=hand(points=20))
    play(lundi, "Bruno", "rami", Anne=hand(points=40), Chloé=hand(points=90))
    decide(lundi, "Chloé", True)
    play(lundi, "Anne", "rami_de_la_main", Bruno=hand(points=10), Chloé=hand(points=5))
    services.partie_close(partie=lundi)
    mardi = make_partie(owner, joueurs=TABLE, name="Mardi", **money)
    play(mardi, "Bruno", "rami", Anne=hand(points=50), Chloé=hand(points=60))
    play(mardi, "Chloé", "rami", Anne=hand(points=55), Bruno=hand(points=10))
    decide(mardi, "Anne", False)
    play(mardi, "Bruno", "rami", Chloé=hand(points=8))
    services.partie_close(partie=mardi)
    mercredi = make_partie(owner, joueurs=TABLE, name="Mercredi", point_value=Decimal("0.10"))
    play(mercredi, "Chloé", "rami", Anne=hand(points=20), Bruno=hand(points=35))
    play(mercredi, "Chloé", "rami", Anne=hand(points=12), Bruno=hand(points=7))
    services.partie_close(partie=mercredi)
    return [lundi, mardi, mercredi]


def line(stats, name: str):
    return next(p for p in stats.players if p.name == name)


def test_three_known_parties(alice, bob) -> None:
    three_parties(alice)
    make_partie(alice, joueurs=TABLE, name="Jeudi, pas finie")
    make_partie(bob, joueurs=TABLE, name="Chez Bob")
    stats = statistics(alice, Filters())
    assert (stats.finished, stats.in_progress) == (3, 1)
    assert [p.name for p in stats.players] == TABLE
    assert stats.win_labels == ["Rami", "Rami de la main"]
    anne, bruno, chloe = (line(stats, n) for n in TABLE)
    assert (anne.played, anne.won, anne.win_rate) == (3, 1, 33)
    assert (bruno.played, bruno.won, chloe.won) == (3, 1, 1)
    assert [p.average_total for p in (anne, bruno, chloe)] == [
        Decimal("49.0"),  # (10 + 105 + 32) / 3
        Decimal("24.0"),  # (40 − 10 + 42) / 3
        Decimal("26.0"),  # (40 + 58 − 20) / 3
    ]
    assert [
        (p.rachats, p.declined, p.eliminations, p.exclusions) for p in (anne, bruno, chloe)
    ] == [
        (0, 1, 1, 0),
        (0, 0, 0, 0),
        (1, 0, 0, 0),
    ]
    assert [p.wins_in_labels for p in (anne, bruno, chloe)] == [
        [("Rami", 1), ("Rami de la main", 1)],
        [("Rami", 3), ("Rami de la main", 0)],
        [("Rami", 3), ("Rami de la main", 0)],
    ]
    heaviest = [
        (p.heaviest.points, p.heaviest.partie.name, p.heaviest.donne) for p in (anne, bruno, chloe)
    ]
    assert heaviest == [(55, "Mardi", 2), (35, "Mercredi", 1), (90, "Lundi", 2)]
    money = [(m.won_amount, m.lost_amount, m.net) for p in (anne, bruno, chloe) for m in p.moneys]
    assert money == [
        (Decimal("4.00"), Decimal("-6.20"), Decimal("-2.20")),
        (Decimal("2.00"), Decimal("-7.20"), Decimal("-5.20")),
        (Decimal("11.40"), Decimal("-4.00"), Decimal("7.40")),
    ]
    # Who finished ahead of whom: Lundi A > B = C, Mardi B > C > A, Mercredi C > A > B.
    table = [
        [(c.ahead, c.together) if c else None for c in cells] for _row, cells in stats.head_to_head
    ]
    assert table == [
        [None, (2, 3), (1, 3)],
        [(1, 3), None, (1, 3)],
        [(2, 3), (1, 3), None],
    ]


def test_the_money_chart_adds_up_each_party(alice) -> None:
    three_parties(alice)
    stats = statistics(alice, Filters())
    [(currency, svg)] = stats.charts
    assert currency == "EUR"
    # After Lundi, Mardi, Mercredi: Anne 0 → 4 → 3 → −2,20 €; the zero line is drawn.
    assert svg.count('class="money-line"') == 3
    assert 'data-player="Anne"' in svg and 'class="zero"' in svg


def test_the_filters_by_preset_and_period(alice) -> None:
    lundi, _mardi, _mercredi = three_parties(alice)
    Partie.objects.filter(pk=lundi.pk).update(created_at=timezone.now() - dt.timedelta(days=40))
    assert statistics(alice, Filters(period="30j")).finished == 2
    assert statistics(alice, Filters(period="tout")).finished == 3
    assert statistics(alice, Filters(preset="rami40")).finished == 0
    assert Filters.from_query({"variante": "poker", "periode": "jamais"}) == Filters()


def test_the_page_shows_the_numbers_in_french(client, alice) -> None:
    three_parties(alice)
    client.force_login(alice)
    page = client.get(reverse("statistics")).content.decode()
    assert "3 parties terminées." in page
    anne = page.split('data-habitue="Anne"')[1].split("</section>")[0]
    assert '<dd data-stat="played">3</dd>' in anne
    assert '<dd data-stat="average">49,0</dd>' in anne
    assert '<dd data-stat="money-net">−2,20\xa0€</dd>' in anne
    assert "1 sur 3 · 33 %" in anne
    assert 'id="head-to-head"' in page and "2/3" in page


def _records(count: int) -> list[Uploaded]:
    record = {
        "preset": "classique",
        "players": TABLE,
        "config": {"mise_initiale": 100},
        "donnes": [
            {
                "winner": "Anne",
                "win": "rami",
                "hands": {"Bruno": {"points": 30}, "Chloé": {"points": 20}},
            },
            {
                "winner": "Chloé",
                "win": "rami",
                "hands": {"Anne": {"points": 5}, "Bruno": {"points": 9}},
            },
        ],
        "ended": True,
    }
    return [Uploaded(record=record, name=f"Soirée {n}") for n in range(count)]


@pytest.mark.parametrize("count", [3, 300])
def test_the_page_costs_the_same_queries_at_3_and_300_parties(
    alice, count, django_assert_num_queries
) -> None:
    parties_import(owner=alice, records=_records(count))
    client = Client()
    client.force_login(alice)
    # session, user, the parties with their results, their players, the states of the
    # finished ones, the habitués.
    with django_assert_num_queries(6):
        response = client.get(reverse("statistics"))
    assert f"{count} parties terminées." in response.content.decode()


def test_the_last_twelve_months_on_29_february() -> None:
    leap = timezone.make_aware(dt.datetime(2028, 2, 29, 21, 30))
    since = Filters(period="12m").since(leap)
    assert (since.year, since.month, since.day, since.hour) == (2027, 3, 1, 0)


def test_final_totals_are_averaged_per_preset(client, alice) -> None:
    three_parties(alice)  # classique: Anne 10, 105, 32
    jeudi = make_partie(alice, joueurs=TABLE, name="Jeudi", preset="rami51")
    # docs/rules.md R17: a rami sec gives each loser a flat 200.
    play(jeudi, "Bruno", "rami_sec")
    services.partie_close(partie=jeudi)
    anne = line(statistics(alice, Filters()), "Anne")
    assert anne.averages == [("Rami classique", Decimal("49.0")), ("Rami 51", Decimal("200.0"))]
    assert anne.average_total is None
    client.force_login(alice)
    page = client.get(reverse("statistics")).content.decode()
    card = page.split('data-habitue="Anne"')[1].split("</section>")[0]
    assert 'Total final moyen · Rami classique</dt><dd data-stat="average">49,0</dd>' in card
    assert 'Total final moyen · Rami 51</dt><dd data-stat="average">200,0</dd>' in card


def test_equal_money_lines_are_drawn_apart() -> None:
    from games.display.money_chart import Series, _spread, money_chart

    three = [
        Series(name, [0, -100, -200], colour) for name, colour in (("A", 0), ("B", 1), ("C", 1))
    ]
    series = [Series("Léa", [0, 300, 600], 2), *three]
    assert _spread(series) == [
        [-4.5, 0.0, 0.0],
        [-1.5, -3.0, -3.0],
        [1.5, 0.0, 0.0],
        [4.5, 3.0, 3.0],
    ]
    svg = money_chart(series, "EUR")
    # Four lines in four colours (C's own colour is B's: he takes the first free one).
    for colour in ("#009E73", "#0072B2", "#D55E00", "#CC79A7"):
        assert f'stroke="{colour}"' in svg

"""The money of a partie: pot shares, nets and who pays whom (docs/rules.md §2, R11, R12, R16)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scoring import POT, Config, refund_due, replay, settle
from games.scoring.config import filled_prices
from games.scoring.final import _greedy, compute_final

from .conftest import load_examples

NAMES = ["Anne", "Bruno", "Chloé", "Denis", "Emma", "Fanny", "Gilles"]


def _balances_after(net: dict[str, int], payments: list[tuple[str, str, int]]) -> dict[str, int]:
    balance = dict(net)
    for payer, payee, amount in payments:
        assert amount > 0
        assert payer != payee
        balance[payer] += amount
        balance[payee] -= amount
    return balance


def test_settle_finds_the_pair_that_greedy_misses() -> None:
    net = {"Anne": 500, "Bruno": 600, "Chloé": -600, "Denis": -700, "Emma": 200}
    # Largest debtor to largest creditor takes 4 payments; Chloé paying Bruno alone makes 3.
    assert len(_greedy(list(net.items()))) == 4
    payments = settle(net)
    assert ("Chloé", "Bruno", 600) in payments
    assert len(payments) == 3
    assert set(_balances_after(net, payments).values()) == {0}


def test_settle_of_examples_p1_is_two_payments_to_the_winner() -> None:
    assert settle({"Alice": 400, "Bruno": -300, "Chloé": -100}) == [
        ("Bruno", "Alice", 300),
        ("Chloé", "Alice", 100),
    ]


def test_settle_leaves_out_everyone_at_zero() -> None:
    assert settle({"Anne": 0, "Bruno": 0}) == []
    assert settle({"Anne": 150, "Bruno": 0, "Chloé": -150}) == [("Chloé", "Anne", 150)]


def test_transfers_with_money_on_the_table_make_the_pot_pay_it_out() -> None:
    # examples.json P1: stakes 1,00 € each, Bruno's rachat 2,00 €; Alice wins the 5,00 € pot.
    [p1] = [c for c in load_examples()["partie_cases"] if c["id"] == "P1"]
    donnes = [d["input"] for d in p1["donnes"]]
    final = replay(p1["preset"], p1["players"], donnes, p1["config"]).final
    assert final.net == {"Alice": 400, "Bruno": -300, "Chloé": -100}
    assert final.into_pot == {"Alice": 100, "Bruno": 300, "Chloé": 100}
    # Everything already in the pot: it goes to Alice, and nobody owes anybody else.
    assert final.transfers({"Alice": 100, "Bruno": 300, "Chloé": 100}) == [(POT, "Alice", 500)]
    # Bruno has not paid his rachat yet: he gives it to Alice directly.
    assert sorted(final.transfers({"Alice": 100, "Bruno": 100, "Chloé": 100})) == [
        (POT, "Alice", 300),
        ("Bruno", "Alice", 200),
    ]


def test_a_shared_win_splits_the_pot_remainder_to_the_earliest_seat() -> None:
    config = Config(mise_initiale=101, point_value=3)
    players = ["Anne", "Bruno", "Chloé"]
    totals = {"Anne": 40, "Bruno": 10, "Chloé": 10}
    final = compute_final(config, players, totals, players, {}, dict.fromkeys(players, 0), False)
    assert final.winner == ["Bruno", "Chloé"]
    # docs/rules.md R16: 303 split in two, the odd centime to Bruno (earlier seat); Anne's due of
    # 30 × 3 = 90 split in two as well.
    assert final.shares == {"Anne": 0, "Bruno": 152, "Chloé": 151}
    assert final.points_settlement == {"Anne": -90, "Bruno": 45, "Chloé": 45}
    assert final.net == {"Anne": -191, "Bruno": 96, "Chloé": 95}


def _check_settlement(net: dict[str, int], in_pot: dict[str, int] | None, final) -> None:
    assert sum(net.values()) == 0
    payments = final.transfers(in_pot)
    nonzero = [n for n in net.values() if n]
    if not in_pot:
        assert set(_balances_after(net, payments).values()) <= {0}
        assert len(payments) <= max(0, len(nonzero) - 1)
        return
    positions = {**{p: n + in_pot.get(p, 0) for p, n in net.items()}, POT: -sum(in_pot.values())}
    assert set(_balances_after(positions, payments).values()) <= {0}
    # The pot only gives out, and gives out exactly what it holds.
    assert all(payee != POT for _payer, payee, _amount in payments)
    assert sum(a for payer, _p, a in payments if payer == POT) == sum(in_pot.values())


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=7),
    totals=st.lists(st.integers(min_value=-60, max_value=160), min_size=7, max_size=7),
    eliminated=st.lists(st.integers(min_value=0, max_value=3), min_size=7, max_size=7),
    paid=st.lists(st.integers(min_value=0, max_value=999), min_size=7, max_size=7),
    mise=st.integers(min_value=0, max_value=999),
    valeur=st.integers(min_value=0, max_value=37),
    reglement=st.sampled_from(["gagnant", "croise"]),
    in_pot_mask=st.lists(st.booleans(), min_size=7, max_size=7),
)
def test_nets_sum_to_zero_and_transfers_settle_them(
    count, totals, eliminated, paid, mise, valeur, reglement, in_pot_mask
) -> None:
    players = NAMES[:count]
    # Small totals with few values make ties for the win (R16) frequent.
    totals_by = {p: totals[i] // 20 * 20 for i, p in enumerate(players)}
    out = {p: eliminated[i] for i, p in enumerate(players) if eliminated[i]}
    in_race = [p for p in players if p not in out] or players[:1]
    out = {p: n for p, n in out.items() if p not in in_race}
    paid_by = {p: paid[i] for i, p in enumerate(players)}
    config = Config(mise_initiale=mise, point_value=valeur, settlement=reglement)
    final = compute_final(config, players, totals_by, in_race, out, paid_by, False)
    assert sum(final.shares.values()) == final.pot
    _check_settlement(final.net, None, final)
    in_pot = {p: mise + paid_by[p] for i, p in enumerate(players) if in_pot_mask[i]}
    _check_settlement(final.net, in_pot, final)


@st.composite
def parties(draw):
    """A random classique partie played through the engine, deciding every rachat."""
    count = draw(st.integers(min_value=2, max_value=5))
    players = NAMES[:count]
    config = {
        "mise_initiale": draw(st.integers(min_value=0, max_value=333)),
        "prix_rachat": draw(st.lists(st.integers(0, 777), min_size=3, max_size=3)),
        "valeur_point": draw(st.integers(min_value=0, max_value=13)),
        "reglement": draw(st.sampled_from(["gagnant", "croise"])),
    }
    donnes: list[dict] = []
    for _ in range(draw(st.integers(min_value=0, max_value=12))):
        result = replay("classique", players, donnes, config, lenient=True)
        if result.over:
            break
        in_race = result.states[-1].in_race if result.states else players
        winner = draw(st.sampled_from(in_race))
        hands = {
            p: {"points": draw(st.integers(min_value=1, max_value=60)), "jokers": 0}
            for p in in_race
            if p != winner
        }
        donnes.append({"winner": winner, "win": "rami", "hands": hands, "rachat": {}})
        result = replay("classique", players, donnes, config, lenient=True)
        for pending in result.pending:
            donnes[-1]["rachat"][pending.player] = draw(st.booleans())
    ended = draw(st.booleans())
    return players, donnes, config, ended


@settings(max_examples=150, deadline=None)
@given(partie=parties())
def test_a_replayed_partie_always_settles_exactly(partie) -> None:
    players, donnes, config, ended = partie
    result = replay("classique", players, donnes, config, ended=ended and bool(donnes))
    final = result.final
    assert sum(final.net.values()) == 0
    assert final.pot == config["mise_initiale"] * len(players) + sum(final.paid.values())
    assert final.pot == sum(final.into_pot.values())
    _check_settlement(final.net, None, final)
    in_pot = {p: config["mise_initiale"] + final.paid[p] for p in players[::2]}
    _check_settlement(final.net, in_pot, final)


@pytest.mark.parametrize(
    "net",
    [
        {"A": 700, "B": -1000, "C": 200, "D": -400, "E": 300, "F": -1000, "G": 1200},
        {"A": 900, "B": 800, "C": 900, "D": -800, "E": -300, "F": -1500},
    ],
)
def test_settle_beats_greedy_on_known_cases(net) -> None:
    assert len(settle(net)) == len(_greedy(list(net.items()))) - 1


@pytest.mark.parametrize(
    ("accepted", "paid", "price", "due"),
    [(True, True, 200, 200), (True, False, 200, 0), (False, True, 200, 0), (True, True, 0, 0)],
)
def test_a_rachat_gives_back_what_was_paid_for_it(accepted, paid, price, due) -> None:
    # docs/rules.md R11: only a rachat bought and paid has money to give back, its price.
    assert refund_due(accepted=accepted, paid=paid, price=price) == due


def test_an_empty_later_rachat_price_repeats_the_one_before() -> None:
    # docs/rules.md R11.
    assert filled_prices(200, [None, None]) == 200
    assert filled_prices(200, [300, None]) == [200, 300, 300]
    assert filled_prices(200, [None, 500]) == [200, 200, 500]

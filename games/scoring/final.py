"""Final ranking and money of a partie: docs/rules.md §2 "Final ranking" and "Money", R12,
R16, R19."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .config import Config

Ranking = list[tuple[int, str, int]]


@dataclass
class Final:
    winner: str | list[str]
    ranking: Ranking
    pot: int
    paid: dict[str, int]
    points_settlement: dict[str, int]
    net: dict[str, int]
    provisional: bool = False
    # The pot's share of each player (0 for non-winners): docs/rules.md §2 "Money", R16.
    shares: dict[str, int] = field(default_factory=dict)
    # What each player puts into the pot, stake plus rachats (docs/rules.md R11).
    into_pot: dict[str, int] = field(default_factory=dict)

    @property
    def winners(self) -> list[str]:
        return list(self.winner) if isinstance(self.winner, list) else [self.winner]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "ranking": [[rank, name, total] for rank, name, total in self.ranking],
            "pot": self.pot,
            "paid": dict(self.paid),
            "points_settlement": dict(self.points_settlement),
            "net": dict(self.net),
        }

    def transfers(self, in_pot: dict[str, int] | None = None) -> list[tuple[str, str, int]]:
        """Who pays whom to settle every net. ``in_pot``: what each player has already put
        on the table (stakes and rachats marked paid); the pot then appears as the payer
        ``POT`` of what it holds. Without it, the pot is only a number and players pay
        each other directly."""
        if not in_pot:
            return settle(self.net)
        return settle(positions_with_pot(self.net, in_pot))


def rank_players(
    players: list[str],
    totals: dict[str, int],
    in_race: list[str],
    eliminated_at: dict[str, int],
) -> Ranking:
    """Competition ranking: en course by total, then the latest eliminated first (R19)."""

    def key(player: str) -> tuple[int, int, int]:
        if player in eliminated_at:
            # docs/rules.md R19: the later the elimination the better, then the lower total.
            return (1, -eliminated_at[player], totals[player])
        return (0, 0, totals[player])

    # sorted() is stable, so inside a tie the seat order is kept (§2 "Final ranking").
    ordered = sorted(players, key=key)
    ranking: Ranking = []
    for index, player in enumerate(ordered):
        tied = index > 0 and key(player) == key(ordered[index - 1])
        rank = ranking[-1][0] if tied else index + 1
        ranking.append((rank, player, totals[player]))
    return ranking


def _split(amount: int, winners: list[str]) -> dict[str, int]:
    # docs/rules.md R16: equal shares, the remainder to the earliest seat.
    share, remainder = divmod(amount, len(winners))
    shares = dict.fromkeys(winners, share)
    shares[winners[0]] += remainder
    return shares


def points_settlement(
    config: Config, players: list[str], totals: dict[str, int], winners: list[str]
) -> dict[str, int]:
    settlement = dict.fromkeys(players, 0)
    value = config.point_value
    if value == 0:
        return settlement
    if config.settlement == "croise":
        # docs/rules.md R12 "croise": every pair settles its difference.
        return {p: sum(totals[o] - totals[p] for o in players) * value for p in players}
    # docs/rules.md R12 "gagnant": each loser pays his difference to the winner, never a
    # negative due;
    # R16: against a shared win the due is computed on the common total and split.
    winning_total = totals[winners[0]]
    for player in players:
        if player in winners:
            continue
        due = max(0, totals[player] - winning_total) * value
        settlement[player] -= due
        for winner, share in _split(due, winners).items():
            settlement[winner] += share
    return settlement


def compute_final(
    config: Config,
    players: list[str],
    totals: dict[str, int],
    in_race: list[str],
    eliminated_at: dict[str, int],
    paid: dict[str, int],
    provisional: bool,
) -> Final:
    ranking = rank_players(players, totals, in_race, eliminated_at)
    winners = [name for rank, name, _ in ranking if rank == 1]
    # docs/rules.md R11: stakes and every rachat go into the pot, which goes to the winner(s).
    pot = config.mise_initiale * len(players) + sum(paid.values())
    shares = _split(pot, winners)
    settlement = points_settlement(config, players, totals, winners)
    net = {p: -config.mise_initiale - paid[p] + shares.get(p, 0) + settlement[p] for p in players}
    return Final(
        winner=winners[0] if len(winners) == 1 else winners,
        ranking=ranking,
        pot=pot,
        paid=dict(paid),
        points_settlement=settlement,
        net=net,
        provisional=provisional,
        shares={p: shares.get(p, 0) for p in players},
        into_pot={p: config.mise_initiale + paid[p] for p in players},
    )


# The pot as a party to the transfers: no player can be named "" (check_players refuses it).
POT = ""
# Exact search over subsets is 2**n; beyond this many people owing or owed, stay greedy.
EXACT_LIMIT = 12


def positions_with_pot(net: dict[str, int], in_pot: dict[str, int]) -> dict[str, int]:
    """The nets once the money already on the table is counted: a player who has put
    ``in_pot[p]`` in the pot has that much less to pay, and the pot must give it all out."""
    positions = {p: n + in_pot.get(p, 0) for p, n in net.items()}
    positions[POT] = -sum(in_pot.get(p, 0) for p in net)
    return positions


def _greedy(people: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor: at most len(people) - 1 payments."""
    debts = {p: -n for p, n in people if n < 0}
    credits = {p: n for p, n in people if n > 0}
    payments: list[tuple[str, str, int]] = []
    while debts and credits:
        payer = max(debts, key=lambda p: debts[p])
        payee = max(credits, key=lambda p: credits[p])
        amount = min(debts[payer], credits[payee])
        payments.append((payer, payee, amount))
        for book, who in ((debts, payer), (credits, payee)):
            book[who] -= amount
            if book[who] == 0:
                del book[who]
    return payments


def _zero_sum_groups(people: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split into the most groups that each sum to zero (each settles on its own, in
    len(group) - 1 payments, so more groups means fewer payments). Subset DP: best[mask]
    is the most zero-sum groups a mask splits into, growing it one person at a time."""
    n = len(people)
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + people[low][1]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        best[mask] += sums[mask] == 0
    # Walk back from everyone, peeling one person at a time along an optimal path; the
    # reversed order cuts into groups wherever its running sum returns to zero.
    order: list[int] = []
    mask = (1 << n) - 1
    while mask:
        target = best[mask] - (sums[mask] == 0)
        i = next(i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] == target)
        order.append(i)
        mask ^= 1 << i
    groups: list[list[tuple[str, int]]] = [[]]
    running = 0
    for i in reversed(order):
        groups[-1].append(people[i])
        running += people[i][1]
        if running == 0:
            groups.append([])
    return [g for g in groups if g]


def settle(net: dict[str, int]) -> list[tuple[str, str, int]]:
    """Who pays whom, in the fewest payments: (payer, payee, amount) in centimes.

    Largest-debtor-pays-largest-creditor alone is not minimal: {A: 5, B: 6, C: -6, D: -7,
    E: 2} takes it 4 payments where 3 do (C pays B). So first split everyone into the most
    zero-sum groups, then settle each group greedily."""
    people = [(p, n) for p, n in net.items() if n != 0]
    if len(people) > EXACT_LIMIT:
        return _greedy(people)
    payments: list[tuple[str, str, int]] = []
    for group in _zero_sum_groups(people):
        payments.extend(_greedy(group))
    return payments


def refund_due(*, accepted: bool, paid: bool, price: int) -> int:
    """docs/rules.md R11: what a rachat marked paid gives back when its line goes away (an
    edit took the crossing away, the donne was deleted, the answer became an abandon): its
    price as the engine applied it, in centimes; nothing if it was not bought or not paid."""
    return price if accepted and paid and price else 0

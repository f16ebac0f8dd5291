"""What every write shares: the partie loaded under a lock, what the engine made of it, and
what a change did to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from games.centimes import from_centimes
from games.errors import PartieError
from games.models import Partie, Rachat
from games.scoring import Replay
from games.selectors import PartieData, partie_load


@dataclass(frozen=True)
class Replayed:
    """A partie as a write left it: loaded once and replayed once, for the page to show."""

    data: PartieData
    replay: Replay


@dataclass
class Change:
    """What an edit did to the partie, for the page to say."""

    totals: dict[str, tuple[int, int]] = field(default_factory=dict)  # name: (before, after)
    removed_decisions: list[tuple[int, str]] = field(default_factory=list)  # (donne, name)
    pending: list[tuple[int, str]] = field(default_factory=list)  # (donne, name), new ones
    # Rachats marked paid whose line went away: (donne, name, amount to give back).
    refunds: list[tuple[int, str, Decimal]] = field(default_factory=list)


def locked(partie: Partie, etat: str | None = None) -> PartieData:
    """The partie, locked until the transaction ends. Two phones writing at once queue here
    (PostgreSQL row lock; SQLite's IMMEDIATE transactions already serialise writers)."""
    data = partie_load(Partie.objects.select_for_update().get(pk=partie.pk))
    ensure_fresh(data, etat)
    return data


def ensure_fresh(data: PartieData, etat: str | None) -> None:
    """A form built on an older state is refused rather than silently overwriting."""
    if etat is not None and etat != data.etat:
        raise PartieError("etat_perime")


def change(
    before: Replay,
    after: Replay,
    removed: list[tuple[int, str]],
    refunds: list[tuple[int, str, Decimal]],
) -> Change:
    old = before.states[-1].totals if before.states else {}
    new = after.states[-1].totals if after.states else {}
    totals = {
        name: (old.get(name, 0), new.get(name, 0))
        for name in {**old, **new}
        if old.get(name, 0) != new.get(name, 0)
    }
    if len(before.states) != len(after.states):
        # One replay stops at a pending decision and the other does not: their last totals
        # are not after the same donne, so comparing them would mislead.
        totals = {}
    already = {(p.donne, p.player) for p in before.pending}
    return Change(
        totals=totals,
        removed_decisions=removed,
        pending=[(p.donne, p.player) for p in after.pending if (p.donne, p.player) not in already],
        refunds=refunds,
    )


def rachat_prices(data: PartieData, result: Replay) -> dict[tuple[int, str], int]:
    """The price of every rachat the replay applied, by (donne pk, name), in centimes."""
    return {
        (donne.pk, name): info.price
        for state, donne in zip(result.states, data.donnes, strict=False)
        for name, info in state.rachats.items()
    }


def refund(
    rachat: Rachat, number: int, prices: dict[tuple[int, str], int]
) -> tuple[int, str, Decimal] | None:
    price = prices.get((rachat.donne_id, rachat.joueur.name), 0)
    if rachat.paid and rachat.accepted and price:
        return (number, rachat.joueur.name, from_centimes(price))
    return None


def drop_stale_decisions(
    data: PartieData, result: Replay, prices: dict[tuple[int, str], int]
) -> tuple[list[tuple[int, str]], list[tuple[int, str, Decimal]]]:
    """docs/rules.md R5: a decision only exists for a crossing; an edit can take the crossing
    away. A rachat already marked paid then has money to give back (R11)."""
    removed, refunds = [], []
    for number, name in result.stale_decisions:
        donne = data.donnes[number - 1]
        for rachat in data.rachats_of(donne):
            if rachat.joueur.name == name and (amount := refund(rachat, number, prices)):
                refunds.append(amount)
        Rachat.objects.filter(donne=donne, joueur=data.by_name(name)).delete()
        removed.append((number, name))
    return removed, refunds

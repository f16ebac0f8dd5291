"""What every write shares: the partie locked, its stored replay, the replay of the donnes
loaded again (games/selectors/ ``tail``) stored, and what a change did to the partie."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db import router
from django.db.models.signals import post_save
from django.utils import timezone

from games import replays
from games.centimes import from_centimes
from games.errors import PartieError
from games.models import Partie, Rachat
from games.scoring import DonneState, Replay, refund_due
from games.selectors import PartieState, Summary


@dataclass
class Change:
    """What an edit did to the partie, for the page to say."""

    totals: dict[str, tuple[int, int]] = field(default_factory=dict)  # name: (before, after)
    removed_decisions: list[tuple[int, str]] = field(default_factory=list)  # (donne, name)
    pending: list[tuple[int, str]] = field(default_factory=list)  # (donne, name), new ones
    # Rachats marked paid whose line went away: (donne, name, amount to give back).
    refunds: list[tuple[int, str, Decimal]] = field(default_factory=list)


def locked(partie: Partie, revision: str | None = None) -> tuple[Partie, Summary]:
    """The partie, locked until the transaction ends, with its stored replay (rebuilt first
    if its tag moved). Two phones writing at once queue here (PostgreSQL row lock; SQLite's
    IMMEDIATE transactions already serialise writers)."""
    partie = (
        Partie.objects.select_for_update(of=("self",)).select_related("result").get(pk=partie.pk)
    )
    ensure_fresh(partie, revision)
    return partie, replays.fresh_summary(partie)


def claim(state: PartieState) -> bool:
    """Lock the partie read before the write, in one statement, if it is still as read: the
    row moves its revision whenever anything a replay reads changes, and every service write
    saves its updated_at (the share link, the note, a payment tick: what the page shows
    beside the marque), so an update that finds both as read also finds everything
    read after them unchanged, and holds the row's lock (PostgreSQL; SQLite's IMMEDIATE
    transactions already serialise writers) until the transaction ends. The answer is drawn
    from the partie as read, and kept under its new updated_at for the page's next visit
    (games/views/fragments.py): a link revoked since the read must not be drawn there.
    False: something changed, or the summary read was stale; the write then locks and reads
    again."""
    if state.stale:
        return False
    partie = state.partie
    now = timezone.now()
    claimed = Partie.objects.filter(
        pk=partie.pk, revision=partie.revision, updated_at=partie.updated_at
    ).update(updated_at=now)
    if claimed:
        partie.updated_at = now
        # What a save of the row tells (games/follow.py, games/tasks.py): an update does not.
        post_save.send(
            sender=Partie,
            instance=partie,
            created=False,
            update_fields=frozenset({"updated_at"}),
            raw=False,
            using=router.db_for_write(Partie),
        )
    return bool(claimed)


def ensure_fresh(partie: Partie, revision: str | None) -> None:
    """A form built on an older state is refused rather than silently overwriting."""
    if revision is not None and revision != str(partie.revision):
        raise PartieError("etat_perime")


def store_from(later: PartieState, result: Replay, *, recorded: int) -> Summary:
    """The replay of a write from donne ``later.first`` stored (selectors.tail, tail_from:
    the states before it are stored already and unchanged)."""
    return replays.store(
        later.partie, result, recorded=recorded, first=later.first, earlier=later.summary
    )


def change(tail: PartieState, after: Replay, summary_after: Summary, removed, refunds) -> Change:
    before_last = tail.before[-1] if tail.before else tail.after
    after_last = after.states[-1] if after.states else tail.after
    old = before_last.totals if before_last else {}
    new = after_last.totals if after_last else {}
    totals = {
        name: (old.get(name, 0), new.get(name, 0))
        for name in {**old, **new}
        if old.get(name, 0) != new.get(name, 0)
    }
    if (
        tail.summary.applied - tail.summary.recorded
        != summary_after.applied - summary_after.recorded
    ):
        # One replay stops at a pending decision and the other does not: their last totals
        # are not after the same donne, so comparing them would mislead.
        totals = {}
    already = {(p.donne, p.player) for p in tail.summary.pending}
    return Change(
        totals=totals,
        removed_decisions=removed,
        pending=[(p.donne, p.player) for p in after.pending if (p.donne, p.player) not in already],
        refunds=refunds,
    )


def rachat_prices(states: list[DonneState]) -> dict[tuple[int, str], int]:
    """The price of every rachat applied in these states, by (donne number, name)."""
    return {
        (state.number, name): info.price for state in states for name, info in state.rachats.items()
    }


def refund(
    rachat: Rachat, number: int, prices: dict[tuple[int, str], int]
) -> tuple[int, str, Decimal] | None:
    price = prices.get((number, rachat.joueur.name), 0)
    due = refund_due(accepted=rachat.accepted, paid=rachat.paid, price=price)
    return (number, rachat.joueur.name, from_centimes(due)) if due else None


def drop_stale_decisions(
    data: PartieState, result: Replay, prices: dict[tuple[int, str], int]
) -> tuple[list[tuple[int, str]], list[tuple[int, str, Decimal]]]:
    """docs/rules.md R5: a decision only exists for a crossing; an edit can take the crossing
    away. A rachat already marked paid then has money to give back (R11)."""
    removed, refunds = [], []
    for number, name in result.stale_decisions:
        donne = data.donne(number)
        for rachat in data.rachats_of(donne):
            if rachat.joueur.name == name and (amount := refund(rachat, number, prices)):
                refunds.append(amount)
        Rachat.objects.filter(donne=donne, joueur=data.by_name(name)).delete()
        removed.append((number, name))
    return removed, refunds

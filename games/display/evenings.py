"""The Comptes page (/argent/): the money of each evening in one list, settled in the fewest
transfers, counting what is already on the table (an unpaid stake of a finished partie is in
that list, never suggested a second time as "to pay to the cagnotte"); and, for the parties
still being played, what is still to put in their cagnotte."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.utils import timezone

from games.centimes import from_centimes
from games.display.cagnotte import ZERO, Due, Transfer, build_cagnotte
from games.models import Partie
from games.scoring import POT, positions_with_pot, settle
from games.scoring.players import person_key
from games.selectors import PartieState


@dataclass
class Unpaid:
    partie: Partie
    due: Due


@dataclass
class Person:
    """One person across the account's parties, matched by name_key."""

    name: str
    currency: str
    unpaid: list[Unpaid] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum((i.due.amount for i in self.unpaid), ZERO)


@dataclass
class Share:
    """One person in the evening's settlement: what he already put on the table (paid
    stakes and rachats of the finished parties) and his net over those parties."""

    name: str
    on_table: Decimal
    net: Decimal


def evening_anchor(day: date, currency: str) -> str:
    """The id of an evening on the Comptes page: a partie's page links to its evening."""
    return f"soiree-{day.isoformat()}-{currency}"


def evening_of(partie: Partie) -> str:
    """The anchor of the evening a partie is counted in (the local day it was created)."""
    return evening_anchor(timezone.localdate(partie.created_at), partie.currency)


@dataclass
class Evening:
    """The parties of one local day in one currency (docs/decisions.md "Accounts")."""

    day: date
    currency: str
    finished: list[Partie] = field(default_factory=list)
    in_progress: list[Partie] = field(default_factory=list)
    shares: list[Share] = field(default_factory=list)
    # The one list of who gives what to whom; the cagnotte (payer POT) gives out what is
    # already on the table.
    transfers: list[Transfer] = field(default_factory=list)
    # Parties still being played: what each person still has to put in their cagnotte.
    to_pot: list[Person] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return evening_anchor(self.day, self.currency)

    @property
    def nets(self) -> list[tuple[str, Decimal]]:
        return [(s.name, s.net) for s in self.shares]

    @property
    def on_table(self) -> Decimal:
        return sum((s.on_table for s in self.shares), ZERO)


@dataclass
class Evenings:
    evenings: list[Evening]

    @property
    def to_pot(self) -> list[Person]:
        """Everyone's stakes and rachats still to put in a cagnotte, over every evening."""
        return [person for evening in self.evenings for person in evening.to_pot]


def build_evenings(parties: Iterable[PartieState]) -> Evenings:
    """From the stored replays of the parties and their rachats bought back
    (selectors.parties_money): nothing read here."""
    by_day: dict[tuple[date, str], _Day] = {}
    spelled: dict[str, str] = {}  # name_key: the first spelling met
    for stored in sorted(parties, key=lambda s: s.partie.created_at):
        partie = stored.partie
        cagnotte = build_cagnotte(stored, stored.accepted)
        for due in cagnotte.dues:
            spelled.setdefault(person_key(due.joueur.name), due.joueur.name)
        day = timezone.localdate(partie.created_at)
        evening = by_day.setdefault((day, partie.currency), _Day(Evening(day, partie.currency)))
        if not cagnotte.over:
            # A partie still being played has no settlement yet: it is listed, not counted,
            # and what is not paid yet is still to put in its cagnotte.
            evening.evening.in_progress.append(partie)
            for due in cagnotte.dues:
                if not due.paid:
                    evening.owes(spelled[person_key(due.joueur.name)], partie, due)
            continue
        # A finished partie: its unpaid stakes and rachats are settled in the evening's
        # transfers (its net counts every stake and rachat as paid, docs/rules.md §2
        # "Money"); only the money ticked as paid is on the table.
        evening.evening.finished.append(partie)
        for name, amount in cagnotte.net.items():
            key = person_key(name)
            spelled.setdefault(key, name)
            # The evening's net is the sum of each finished partie's net from the engine.
            evening.net[key] = evening.net.get(key, 0) + amount
            evening.in_pot[key] = evening.in_pot.get(key, 0) + cagnotte.in_pot.get(name, 0)
    evenings = [day.settled(spelled) for day in by_day.values()]
    evenings.sort(key=lambda s: (s.day, s.currency), reverse=True)
    return Evenings(evenings=evenings)


@dataclass
class _Day:
    """An evening being added up, in centimes by name_key."""

    evening: Evening
    net: dict[str, int] = field(default_factory=dict)
    in_pot: dict[str, int] = field(default_factory=dict)
    people: dict[str, Person] = field(default_factory=dict)

    def owes(self, name: str, partie: Partie, due: Due) -> None:
        person = self.people.setdefault(person_key(name), Person(name, partie.currency))
        person.unpaid.append(Unpaid(partie, due))

    def settled(self, spelled: dict[str, str]) -> Evening:
        evening = self.evening
        evening.shares = [
            Share(spelled[k], from_centimes(self.in_pot.get(k, 0)), from_centimes(v))
            for k, v in self.net.items()
        ]
        positions = (
            positions_with_pot(self.net, self.in_pot) if any(self.in_pot.values()) else self.net
        )
        transfers = [
            Transfer(spelled.get(payer, payer), spelled.get(payee, payee), from_centimes(amount))
            for payer, payee, amount in settle(positions)
        ]
        # One list, read by the person who pays: the cagnotte first, then by name.
        evening.transfers = sorted(transfers, key=lambda t: (t.payer != POT, person_key(t.payer)))
        evening.to_pot = sorted(self.people.values(), key=lambda p: person_key(p.name))
        return evening

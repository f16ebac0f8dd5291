"""The Accounts page: what each person still owes across the account's parties, and the
money of each evening settled in the fewest transfers."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.utils import timezone

from games import replays
from games.centimes import from_centimes
from games.display.cagnotte import ZERO, Due, Transfer, build_cagnotte
from games.models import Partie, Rachat
from games.scoring import positions_with_pot, settle


def name_key(name: str) -> str:
    """The same player across parties: "Chloé", "chloe " and "CHLOÉ" are one person."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


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
class Evening:
    """The parties of one local day in one currency (docs/decisions.md "Accounts")."""

    day: date
    currency: str
    finished: list[Partie] = field(default_factory=list)
    in_progress: list[Partie] = field(default_factory=list)
    nets: list[tuple[str, Decimal]] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)


@dataclass
class Accounts:
    people: list[Person]
    evenings: list[Evening]


def build_accounts(parties: Iterable[Partie]) -> Accounts:
    """From the stored replays of the parties (selectors.parties_of) and their rachats: a
    fixed number of queries however many donnes they have."""
    parties = list(parties)
    rachats: dict[int, list[Rachat]] = {}
    owners = {p.owner_id for p in parties}
    accepted = Rachat.objects.filter(donne__partie__owner__in=owners, accepted=True)
    for rachat in accepted.select_related("donne"):
        rachats.setdefault(rachat.donne.partie_id, []).append(rachat)
    people: dict[tuple[str, str], Person] = {}
    by_day: dict[tuple[date, str], tuple[Evening, dict[str, int], dict[str, int]]] = {}
    spelled: dict[str, str] = {}  # name_key: the first spelling met
    for partie in sorted(parties, key=lambda p: p.created_at):
        cagnotte = build_cagnotte(replays.listed(partie), rachats.get(partie.pk, []))
        for due in cagnotte.dues:
            key = name_key(due.joueur.name)
            spelled.setdefault(key, due.joueur.name)
            if due.paid:
                continue
            person = people.setdefault(
                (key, partie.currency), Person(spelled[key], partie.currency)
            )
            person.unpaid.append(Unpaid(partie, due))
        day = timezone.localdate(partie.created_at)
        evening, net, in_pot = by_day.setdefault(
            (day, partie.currency), (Evening(day, partie.currency), {}, {})
        )
        if not cagnotte.over:
            # A partie still being played has no settlement yet: it is listed, not counted.
            evening.in_progress.append(partie)
            continue
        evening.finished.append(partie)
        for name, amount in cagnotte.net.items():
            key = name_key(name)
            spelled.setdefault(key, name)
            # The evening's net is the sum of each finished partie's net from the engine.
            net[key] = net.get(key, 0) + amount
            in_pot[key] = in_pot.get(key, 0) + cagnotte.in_pot.get(name, 0)
    evenings = []
    for evening, net, in_pot in by_day.values():
        evening.nets = [(spelled[k], from_centimes(v)) for k, v in net.items()]
        positions = positions_with_pot(net, in_pot) if any(in_pot.values()) else net
        evening.transfers = [
            Transfer(spelled.get(payer, payer), spelled.get(payee, payee), from_centimes(amount))
            for payer, payee, amount in settle(positions)
        ]
        evenings.append(evening)
    evenings.sort(key=lambda s: (s.day, s.currency), reverse=True)
    ordered = sorted(people.values(), key=lambda j: (name_key(j.name), j.currency))
    return Accounts(people=ordered, evenings=evenings)

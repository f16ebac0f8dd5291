"""The money as the pages show it: the cagnotte of a partie (stakes and rachats, paid or
owed), its settlement, and the accounts of an evening across parties. Every amount comes from
games.scoring in centimes; here it is only arranged and converted to Decimal."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.formats import ordinal
from games.models import Joueur, Partie, Rachat
from games.money import from_centimes, to_centimes
from games.scoring import POT, Replay, positions_with_pot, settle
from games.selectors import PartieData, partie_load

ZERO = Decimal("0.00")


def name_key(name: str) -> str:
    """The same player across parties: "Chloé", "chloe " and "CHLOÉ" are one person."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _nth(number: int) -> str:
    return _("%(nth)s rachat") % {"nth": ordinal(number)}


@dataclass
class Ligne:
    """One amount due to the cagnotte: a stake, or the price of a rachat (RULES.md R11)."""

    joueur: Joueur
    label: str
    amount: Decimal
    paid: bool
    rachat: Rachat | None = None

    @property
    def toggle_url(self) -> str:
        if self.rachat is not None:
            return reverse("rachat_paid", args=[self.joueur.partie_id, self.rachat.pk])
        return reverse("mise_paid", args=[self.joueur.partie_id, self.joueur.pk])

    @property
    def key(self) -> str:
        return f"rachat-{self.rachat.pk}" if self.rachat else f"mise-{self.joueur.pk}"


@dataclass
class Compte:
    joueur: Joueur
    paid: Decimal
    owed: Decimal


@dataclass
class Virement:
    payer: str  # "" is the cagnotte itself (games.scoring.POT)
    payee: str
    amount: Decimal

    @property
    def from_pot(self) -> bool:
        return self.payer == POT


@dataclass
class Reglement:
    """The end of the partie in money: who takes the pot, the points, the nets, who pays whom."""

    provisional: bool
    winners: list[str]
    shares: list[tuple[str, Decimal]]
    points: list[tuple[str, Decimal]]  # empty without a points settlement (RULES.md R12)
    nets: list[tuple[str, Decimal]]
    virements: list[Virement]


@dataclass
class Cagnotte:
    partie: Partie
    lignes: list[Ligne]
    comptes: list[Compte]
    pot: Decimal
    on_table: Decimal
    reglement: Reglement | None
    in_pot: dict[str, int] = field(default_factory=dict)  # centimes, by name
    net: dict[str, int] = field(default_factory=dict)  # centimes, by name
    over: bool = False


def de(name: str) -> str:
    """French elision: "de Bruno", "d'Anne"; other languages get the bare name, which their
    translation of "Mise %(de_name)s" places ("%(de_name)s's stake")."""
    if not (get_language() or "fr").startswith("fr"):
        return name
    return f"d’{name}" if name[:1].lower() in "aeiouyàâéèêëîïôœùûüh" else f"de {name}"


def _lignes(data: PartieData, result: Replay) -> list[Ligne]:
    partie = data.partie
    lignes = []
    if partie.mise_initiale:
        mise = from_centimes(to_centimes(partie.mise_initiale))
        lignes += [
            Ligne(j, _("Mise %(de_name)s") % {"de_name": de(j.name)}, mise, j.mise_payee)
            for j in data.joueurs
        ]
    # The price of each rachat is the one the engine applied (RULES.md R11: the price of
    # the k-th rachat), so a change of price or an edited donne shows here at once.
    for state, donne in zip(result.states, data.donnes, strict=False):
        rows = {r.joueur.name: r for r in data.rachats_of(donne)}
        for joueur in data.joueurs:
            info = state.rachats.get(joueur.name)
            if info is None or not info.price or joueur.name not in rows:
                continue
            label = _("%(name)s, %(nth)s, donne %(donne)s") % {
                "name": joueur.name,
                "nth": _nth(info.number),
                "donne": state.number,
            }
            row = rows[joueur.name]
            lignes.append(Ligne(joueur, label, from_centimes(info.price), row.paid, row))
    return lignes


def build_cagnotte(data: PartieData, result: Replay) -> Cagnotte:
    lignes = _lignes(data, result)
    comptes = []
    in_pot: dict[str, int] = {}
    for joueur in data.joueurs:
        mine = [ligne for ligne in lignes if ligne.joueur.pk == joueur.pk]
        paid = sum((ligne.amount for ligne in mine if ligne.paid), ZERO)
        owed = sum((ligne.amount for ligne in mine if not ligne.paid), ZERO)
        comptes.append(Compte(joueur, paid, owed))
        in_pot[joueur.name] = to_centimes(paid)
    final = result.final
    reglement = None
    if result.states or result.over:
        virements = [
            Virement(payer, payee, from_centimes(amount))
            for payer, payee, amount in final.transfers(in_pot)
        ]
        names = data.names
        reglement = Reglement(
            provisional=not result.over,
            winners=final.winners,
            shares=[(n, from_centimes(final.shares[n])) for n in names if final.shares.get(n)],
            points=(
                [(n, from_centimes(final.points_settlement[n])) for n in names]
                if data.partie.valeur_point
                else []
            ),
            nets=[(n, from_centimes(final.net[n])) for n in names],
            virements=virements,
        )
    return Cagnotte(
        partie=data.partie,
        lignes=lignes,
        comptes=comptes,
        pot=from_centimes(final.pot),
        on_table=sum((c.paid for c in comptes), ZERO),
        reglement=reglement,
        in_pot=in_pot,
        net=dict(final.net),
        over=result.over,
    )


# -- across parties --------------------------------------------------------------------------


@dataclass
class Impaye:
    partie: Partie
    ligne: Ligne


@dataclass
class Joueuse:
    """One person across the account's parties, matched by name_key."""

    name: str
    currency: str
    impayes: list[Impaye] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum((i.ligne.amount for i in self.impayes), ZERO)


@dataclass
class Soiree:
    """The parties of one local day in one currency (docs/decisions.md "Comptes")."""

    day: date
    currency: str
    finished: list[Partie] = field(default_factory=list)
    in_progress: list[Partie] = field(default_factory=list)
    nets: list[tuple[str, Decimal]] = field(default_factory=list)
    virements: list[Virement] = field(default_factory=list)


@dataclass
class Comptes:
    joueurs: list[Joueuse]
    soirees: list[Soiree]


def build_comptes(parties: Iterable[Partie]) -> Comptes:
    """Everything from parties loaded by selectors.parties_with_donnes: no further query."""
    people: dict[tuple[str, str], Joueuse] = {}
    evenings: dict[tuple[date, str], tuple[Soiree, dict[str, int], dict[str, int]]] = {}
    spelled: dict[str, str] = {}  # name_key: the first spelling met
    for partie in sorted(parties, key=lambda p: p.created_at):
        data = partie_load(partie)
        cagnotte = build_cagnotte(data, data.replay())
        for ligne in cagnotte.lignes:
            key = name_key(ligne.joueur.name)
            spelled.setdefault(key, ligne.joueur.name)
            if ligne.paid:
                continue
            person = people.setdefault(
                (key, partie.currency), Joueuse(spelled[key], partie.currency)
            )
            person.impayes.append(Impaye(partie, ligne))
        day = timezone.localdate(partie.created_at)
        soiree, net, in_pot = evenings.setdefault(
            (day, partie.currency), (Soiree(day, partie.currency), {}, {})
        )
        if not cagnotte.over:
            # A partie still being played has no settlement yet: it is listed, not counted.
            soiree.in_progress.append(partie)
            continue
        soiree.finished.append(partie)
        for name, amount in cagnotte.net.items():
            key = name_key(name)
            spelled.setdefault(key, name)
            # The evening's net is the sum of each finished partie's net from the engine.
            net[key] = net.get(key, 0) + amount
            in_pot[key] = in_pot.get(key, 0) + cagnotte.in_pot.get(name, 0)
    soirees = []
    for soiree, net, in_pot in evenings.values():
        soiree.nets = [(spelled[k], from_centimes(v)) for k, v in net.items()]
        positions = positions_with_pot(net, in_pot) if any(in_pot.values()) else net
        soiree.virements = [
            Virement(spelled.get(payer, payer), spelled.get(payee, payee), from_centimes(amount))
            for payer, payee, amount in settle(positions)
        ]
        soirees.append(soiree)
    soirees.sort(key=lambda s: (s.day, s.currency), reverse=True)
    joueurs = sorted(people.values(), key=lambda j: (name_key(j.name), j.currency))
    return Comptes(joueurs=joueurs, soirees=soirees)

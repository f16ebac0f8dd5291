"""The money as the pages show it: the cagnotte of a partie (stakes and rachats, paid or
owed) and its settlement. Every amount comes from
games.scoring in centimes; here it is only arranged and converted to Decimal."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.centimes import from_centimes, to_centimes
from games.display.numbers import ordinal
from games.models import Joueur, Partie, Rachat
from games.scoring import POT, Final
from games.selectors import PartieState

ZERO = Decimal("0.00")


def _nth(number: int) -> str:
    return _("%(nth)s rachat") % {"nth": ordinal(number)}


@dataclass
class Due:
    """One amount due to the cagnotte: a stake, or the price of a rachat (docs/rules.md R11)."""

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
class PlayerMoney:
    joueur: Joueur
    paid: Decimal
    owed: Decimal


@dataclass
class Transfer:
    payer: str  # "" is the cagnotte itself (games.scoring.POT)
    payee: str
    amount: Decimal

    @property
    def from_pot(self) -> bool:
        return self.payer == POT


@dataclass
class Settlement:
    """The end of the partie in money: who takes the pot, the points, the nets, who pays whom."""

    provisional: bool
    winners: list[str]
    shares: list[tuple[str, Decimal]]
    points: list[tuple[str, Decimal]]  # empty without a points settlement (docs/rules.md R12)
    nets: list[tuple[str, Decimal]]
    transfers: list[Transfer]


@dataclass
class Cagnotte:
    partie: Partie
    dues: list[Due]
    players: list[PlayerMoney]
    pot: Decimal
    on_table: Decimal
    settlement: Settlement | None
    in_pot: dict[str, int] = field(default_factory=dict)  # centimes, by name
    net: dict[str, int] = field(default_factory=dict)  # centimes, by name
    over: bool = False

    @property
    def owed(self) -> Decimal:
        """What is not ticked as paid yet; once the partie is over, the transfers count it."""
        return sum((p.owed for p in self.players), ZERO)


def elided_de(name: str) -> str:
    """French elision: "de Bruno", "d'Anne"; other languages get the bare name, which their
    translation of "Mise %(de_name)s" places ("%(de_name)s's stake")."""
    if not (get_language() or "fr").startswith("fr"):
        return name
    return f"d’{name}" if name[:1].lower() in "aeiouyàâéèêëîïôœùûüh" else f"de {name}"


def _dues(stored: PartieState, rachats: list[Rachat]) -> list[Due]:
    partie = stored.partie
    dues = []
    if partie.mise_initiale:
        mise = from_centimes(to_centimes(partie.mise_initiale))
        dues += [
            Due(j, _("Mise %(de_name)s") % {"de_name": elided_de(j.name)}, mise, j.mise_paid)
            for j in stored.joueurs
        ]
    # The price of each rachat is the one the engine applied (docs/rules.md R11: the price of
    # the k-th rachat), so a change of price or an edited donne shows here at once.
    by_id = {j.pk: j for j in stored.joueurs}
    rows = {(r.donne.number, by_id[r.joueur_id].name): r for r in rachats}
    for line in stored.summary.rachats:
        row = rows.get((line.donne, line.player))
        if not line.price or row is None:
            continue
        row.joueur = by_id[row.joueur_id]
        label = _("%(name)s, %(nth)s, donne %(donne)s") % {
            "name": line.player,
            "nth": _nth(line.number),
            "donne": line.donne,
        }
        dues.append(Due(row.joueur, label, from_centimes(line.price), row.paid, row))
    # In seat order, then by donne, as a player reads his own lines.
    seats = {j.pk: j.seat for j in stored.joueurs}
    return sorted(
        dues, key=lambda due: (due.rachat is not None, _donne_of(due), seats[due.joueur.pk])
    )


def _donne_of(due: Due) -> int:
    return due.rachat.donne.number if due.rachat else 0


def _players(stored: PartieState, dues: list[Due]) -> list[PlayerMoney]:
    players = []
    for joueur in stored.joueurs:
        mine = [due for due in dues if due.joueur.pk == joueur.pk]
        paid = sum((due.amount for due in mine if due.paid), ZERO)
        owed = sum((due.amount for due in mine if not due.paid), ZERO)
        players.append(PlayerMoney(joueur, paid, owed))
    return players


def transfers(stored: PartieState, rachats: list[Rachat]) -> list[Transfer]:
    """Who pays whom, counting the money already ticked as on the table (the pot pays out
    what it holds): the printed sheet and the panel give the same list (docs/rules.md §2).
    ``rachats``: those bought back (selectors.bought_back)."""
    players = _players(stored, _dues(stored, rachats))
    return _transfers(stored.summary.final, {p.joueur.name: to_centimes(p.paid) for p in players})


def _transfers(final: Final, in_pot: dict[str, int]) -> list[Transfer]:
    return [
        Transfer(payer, payee, from_centimes(amount))
        for payer, payee, amount in final.transfers(in_pot)
    ]


def build_cagnotte(stored: PartieState, rachats: list[Rachat]) -> Cagnotte:
    """The cagnotte of ``stored`` with ``rachats``, those bought back (selectors.bought_back:
    their payment ticks)."""
    dues = _dues(stored, rachats)
    players = _players(stored, dues)
    in_pot = {p.joueur.name: to_centimes(p.paid) for p in players}
    summary = stored.summary
    final = summary.final
    settlement = None
    if summary.applied or summary.over:
        names = stored.names
        settlement = Settlement(
            provisional=not summary.over,
            winners=final.winners,
            shares=[(n, from_centimes(final.shares[n])) for n in names if final.shares.get(n)],
            points=(
                [(n, from_centimes(final.points_settlement[n])) for n in names]
                if stored.config.point_value
                else []
            ),
            nets=[(n, from_centimes(final.net[n])) for n in names],
            transfers=_transfers(final, in_pot),
        )
    return Cagnotte(
        partie=stored.partie,
        dues=dues,
        players=players,
        pot=from_centimes(final.pot),
        on_table=sum((c.paid for c in players), ZERO),
        settlement=settlement,
        in_pot=in_pot,
        net=dict(final.net),
        over=summary.over,
    )

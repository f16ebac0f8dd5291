"""The Statistiques page: each habitué of an account across its finished parties, from their
stored replays, read by games/selectors/ in a fixed number of queries whatever the number
of parties.

Nothing here counts a point: the ranking, the totals, the rachats, the exits and the money
are the engine's, as the stored replay holds them; this only adds them up per habitué."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from games.centimes import from_centimes
from games.display.money_chart import money_chart, money_series
from games.models import Habitue, Partie
from games.scoring import DEFINITIVE_EXCLUSION, PRESETS, gave_up, get_preset
from games.selectors import PartieState

PERIODS = {
    "tout": gettext_lazy("Depuis toujours"),
    "30j": gettext_lazy("30 derniers jours"),
    "mois": gettext_lazy("Ce mois-ci"),
    "annee": gettext_lazy("Cette année"),
    "12m": gettext_lazy("12 derniers mois"),
}


@dataclass(frozen=True)
class Filters:
    preset: str = ""  # "" for every preset
    period: str = "tout"

    @classmethod
    def from_query(cls, query) -> Filters:
        preset = query.get("variante", "")
        period = query.get("periode", "tout")
        return cls(
            preset=preset if preset in PRESETS else "",
            period=period if period in PERIODS else "tout",
        )

    def since(self, now: dt.datetime | None = None) -> dt.datetime | None:
        """The first moment of the period, in the server's time zone; None for all time."""
        now = timezone.localtime(now)
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        if self.period == "30j":
            return midnight - dt.timedelta(days=30)
        if self.period == "mois":
            return midnight.replace(day=1)
        if self.period == "annee":
            return midnight.replace(month=1, day=1)
        if self.period == "12m":
            try:
                year_ago = midnight.replace(year=midnight.year - 1)
            except ValueError:  # 29 February: the year before has none
                year_ago = midnight.replace(year=midnight.year - 1, day=28)
            return year_ago + dt.timedelta(days=1)
        return None


@dataclass
class Heaviest:
    points: int
    partie: Partie
    donne: int


@dataclass
class Money:
    currency: str
    won: int = 0  # centimes, the sum of the parties the habitué came out ahead
    lost: int = 0  # centimes, as a positive number

    @property
    def won_amount(self) -> Decimal:
        return from_centimes(self.won)

    @property
    def lost_amount(self) -> Decimal:
        return from_centimes(-self.lost)

    @property
    def net(self) -> Decimal:
        return from_centimes(self.won - self.lost)


@dataclass
class PlayerStats:
    habitue: Habitue
    played: int = 0
    won: int = 0
    # Final totals by preset: a Rami 51 total (to 1000) and a classique one (to 100) do not
    # average together.
    totals: dict[str, list[int]] = field(default_factory=dict)
    rachats: int = 0  # bought back
    declined: int = 0  # a rachat declined: he left the partie (docs/rules.md R5)
    exclusions: int = 0  # excluded for good past the last rachat (docs/rules.md R8)
    wins: dict[str, int] = field(default_factory=dict)  # win type label: donnes won so
    heaviest: Heaviest | None = None
    money: dict[str, Money] = field(default_factory=dict)  # by currency
    wins_in_labels: list[tuple[str, int]] = field(default_factory=list)  # for the page

    @property
    def name(self) -> str:
        return self.habitue.name

    @property
    def eliminations(self) -> int:
        """Parties he did not finish en course: a rachat declined or an exclusion."""
        return self.declined + self.exclusions

    @property
    def win_rate(self) -> int:
        """Parties won out of those played, in whole percent (rounded half up)."""
        return (200 * self.won + self.played) // (2 * self.played) if self.played else 0

    @property
    def averages(self) -> list[tuple[str, Decimal]]:
        """The average final total in each preset he played (their label), in preset order."""
        return [
            (
                get_preset(key).label,
                (Decimal(sum(values)) / len(values)).quantize(Decimal("0.1")),
            )
            for key in PRESETS
            if (values := self.totals.get(key))
        ]

    @property
    def average_total(self) -> Decimal | None:
        """The average final total when he played one preset only (else see ``averages``)."""
        averages = self.averages
        return averages[0][1] if len(averages) == 1 else None

    def wins_in(self, labels: list[str]) -> list[int]:
        return [self.wins.get(label, 0) for label in labels]

    @property
    def moneys(self) -> list[Money]:
        return [m for m in self.money.values() if m.won or m.lost]


@dataclass
class HeadToHead:
    """How often ``row`` finished ahead of ``column`` in the parties they both played."""

    ahead: int
    together: int


@dataclass
class Statistics:
    filters: Filters
    players: list[PlayerStats]
    finished: int  # parties counted
    in_progress: int  # parties left out: not over yet
    win_labels: list[str]
    head_to_head: list[tuple[PlayerStats, list[HeadToHead | None]]]
    currencies: list[str]
    charts: list[tuple[str, SafeString]]  # (currency, the money chart's SVG)

    @property
    def empty(self) -> bool:
        return not self.finished


def _player_of(stored: PartieState) -> dict[str, Habitue]:
    return {j.name: j.habitue for j in stored.joueurs if j.habitue is not None}


def _win_labels(parties: Iterable[PartieState], preset: str) -> list[str]:
    keys = (
        [preset] if preset else sorted({s.partie.preset for s in parties}, key=list(PRESETS).index)
    )
    labels: list[str] = []
    for key in keys:
        for label in get_preset(key).win_types.values():
            text = gettext(label)
            if text not in labels:
                labels.append(text)
    return labels


def build_statistics(
    filters: Filters, everything: list[PartieState], in_progress: int
) -> Statistics:
    """Every habitué across the finished parties in ``filters``: ``everything`` holds them
    with every state and their players' habitués, ``in_progress`` counts those left out
    (selectors.statistics_parties)."""
    finished = [s.partie for s in everything]
    stats: dict[int, PlayerStats] = {}
    pairs: dict[tuple[int, int], HeadToHead] = {}
    for stored in everything:
        _count(stored, stats, pairs)
    players = sorted(stats.values(), key=lambda s: (-s.played, s.habitue.key))
    head = [
        (
            row,
            [
                None if row is col else pairs.get((row.habitue.pk, col.habitue.pk))
                for col in players
            ],
        )
        for row in players
    ]
    currencies = sorted({p.currency for p in finished})
    labels = _win_labels(everything, filters.preset)
    for line in players:
        line.wins_in_labels = list(zip(labels, line.wins_in(labels), strict=True))
    charts = [(c, money_chart(money_series(everything, c), c)) for c in currencies]
    return Statistics(
        filters=filters,
        players=players,
        finished=len(finished),
        in_progress=in_progress,
        win_labels=labels,
        head_to_head=head,
        currencies=currencies,
        charts=[(c, svg) for c, svg in charts if svg],
    )


def _count(
    stored: PartieState, stats: dict[int, PlayerStats], pairs: dict[tuple[int, int], HeadToHead]
) -> None:
    """One finished partie added to its habitués' statistics."""
    partie = stored.partie
    summary = stored.summary
    final = summary.final
    who = _player_of(stored)
    labels = get_preset(partie.preset).all_win_types()
    last = stored.last
    ranks = {name: rank for rank, name, _total in final.ranking}
    for rank, name, total in final.ranking:
        habitue = who.get(name)
        if habitue is None:
            continue
        line = stats.setdefault(habitue.pk, PlayerStats(habitue))
        line.played += 1
        line.won += rank == 1
        line.totals.setdefault(partie.preset, []).append(total)
        left = last.left.get(name) if last else None
        line.declined += gave_up(left or "")
        line.exclusions += left == DEFINITIVE_EXCLUSION
        money = line.money.setdefault(partie.currency, Money(partie.currency))
        net = final.net.get(name, 0)
        money.won += max(net, 0)
        money.lost += max(-net, 0)
        for other, other_rank in ranks.items():
            mate = who.get(other)
            if mate is None or mate.pk == habitue.pk:
                continue
            pair = pairs.setdefault((habitue.pk, mate.pk), HeadToHead(0, 0))
            pair.together += 1
            pair.ahead += rank < other_rank
    for line in summary.rachats:
        habitue = who.get(line.player)
        if habitue is not None:
            stats[habitue.pk].rachats += 1
    for state in stored.states:
        if state.winner and (habitue := who.get(state.winner)):
            label = gettext(labels.get(state.win, state.win))
            wins = stats[habitue.pk].wins
            wins[label] = wins.get(label, 0) + 1
        for name, points in state.points.items():
            habitue = who.get(name)
            if habitue is None or name == state.winner:
                continue
            line = stats[habitue.pk]
            if line.heaviest is None or points > line.heaviest.points:
                line.heaviest = Heaviest(points, partie, state.number)

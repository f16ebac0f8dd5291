"""The marque as the pages show it: rows, cells and the scoreboard, built from the engine's
replay. Nothing here computes a total; it only arranges what games.scoring returned."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.centimes import from_centimes
from games.models import Donne, Joueur
from games.scoring import Config, DonneState, Replay, get_preset
from games.selectors import PartieData

# Marked for makemessages; translated when shown (status_label).
STATUS_LABELS = {
    "en_course": gettext_lazy("en course"),
    "declined": gettext_lazy("éliminé"),
    "definitive_exclusion": gettext_lazy("exclu"),
}


@dataclass
class Cell:
    points: int | None = None  # None: the player was out of the donne
    total: int | None = None
    framed: bool = False  # docs/rules.md §1: totals at or over the seuil are framed
    crossed_at: int | None = None
    rachat_number: int | None = None
    restart: int | None = None
    eliminated: str = ""  # declined | definitive_exclusion
    winner: bool = False


@dataclass
class Row:
    number: int
    donne: Donne
    winner: str
    win_label: str
    cells: list[Cell]
    pending: bool = False


@dataclass
class PlayerLine:
    joueur: Joueur
    total: int
    rachats_used: int
    max_rachats: int
    status: str  # en_course | declined | definitive_exclusion
    leader: bool = False
    pending: bool = False

    @property
    def dots(self) -> str:
        # ●●○: rachats used out of those allowed (docs/rules.md §3.5).
        return "●" * self.rachats_used + "○" * max(0, self.max_rachats - self.rachats_used)

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])


@dataclass
class PendingCard:
    joueur: Joueur
    donne: int
    total: int
    number: int
    restart: int
    price: Decimal


@dataclass
class Marque:
    data: PartieData
    result: Replay
    rows: list[Row]
    players: list[PlayerLine]
    rules: Config
    pending: list[PendingCard] = field(default_factory=list)

    @property
    def partie(self):
        return self.data.partie

    @property
    def has_eliminated(self) -> bool:
        # docs/rules.md R19: the ranking puts them after the players en course, latest first.
        return any(line.status != "en_course" for line in self.players)

    @property
    def recorded(self) -> int:
        """How many donnes are stored (the replay may stop earlier, at a pending decision)."""
        return len(self.data.donnes)

    @property
    def blocked(self) -> list[Donne]:
        """Donnes stored after a pending decision: the engine replays them once it is taken."""
        return self.data.donnes[len(self.result.states) :]

    @property
    def manche(self) -> str:
        """ "3 / 4" for presets played in a fixed number of manches (docs/rules.md §4)."""
        if not self.rules.fixed_manches:
            return ""
        return f"{self.recorded + 1} / {self.rules.fixed_manches}"

    @property
    def over(self) -> bool:
        return self.result.over

    @property
    def can_record(self) -> bool:
        return not self.result.over and not self.result.pending

    @property
    def pot(self) -> Decimal:
        return from_centimes(self.result.final.pot)

    @property
    def in_race(self) -> list[Joueur]:
        """The players the next donne is dealt to."""
        return self.in_race_before(len(self.result.states) + 1)

    def in_race_before(self, number: int) -> list[Joueur]:
        """The players en course when donne ``number`` was dealt (docs/rules.md §2)."""
        names = set(self.result.in_race_before(number))
        return [j for j in self.data.joueurs if j.name in names]

    @property
    def winners(self) -> list[str]:
        return [name for rank, name, _total in self.result.final.ranking if rank == 1]

    @property
    def ranking(self) -> list[tuple[int, str, int]]:
        return list(self.result.final.ranking)

    @property
    def net(self) -> dict[str, Decimal]:
        return {name: from_centimes(v) for name, v in self.result.final.net.items()}


def cells_of(state: DonneState, names: list[str]) -> list[Cell]:
    """One donne of the marque, in seat order: the same cells on the page and on the sheet."""
    cells = []
    for name in names:
        if name not in state.points:
            cells.append(Cell())
            continue
        info = state.rachats.get(name)
        cells.append(
            Cell(
                points=state.points[name],
                total=state.totals[name],
                framed=name in state.crossings,
                crossed_at=state.totals_before_rachat[name] if info else None,
                rachat_number=info.number if info else None,
                restart=info.restart if info else None,
                eliminated=state.eliminated.get(name, ""),
                winner=state.winner == name,
            )
        )
    return cells


def build_marque(data: PartieData, result: Replay) -> Marque:
    preset = get_preset(data.partie.preset)
    labels = preset.all_win_types()
    config = data.config
    rows = []
    out: dict[str, str] = {}  # name: reason, as the donnes eliminate players
    for state, donne in zip(result.states, data.donnes, strict=False):
        out.update(state.eliminated)
        cells = cells_of(state, data.names)
        rows.append(
            Row(
                number=state.number,
                donne=donne,
                winner=state.winner or "",
                win_label=_(labels.get(state.win, state.win)),
                cells=cells,
                pending=any(p.donne == state.number for p in result.pending),
            )
        )
    last = result.states[-1] if result.states else None
    leaders = (
        set()
        if not result.states
        else {name for rank, name, _total in result.final.ranking if rank == 1}
    )
    pending_names = {p.player for p in result.pending}
    players = []
    for j in data.joueurs:
        players.append(
            PlayerLine(
                joueur=j,
                total=last.totals[j.name] if last else 0,
                rachats_used=last.rachats_used.get(j.name, 0) if last else 0,
                max_rachats=config.rachats_offered,
                status=out.get(j.name, "en_course"),
                leader=j.name in leaders,
                pending=j.name in pending_names,
            )
        )
    pending = [
        PendingCard(
            joueur=data.by_name(p.player),
            donne=p.donne,
            total=p.total,
            number=p.number,
            restart=p.restart,
            price=from_centimes(p.price),
        )
        for p in result.pending
    ]
    return Marque(
        data=data, result=result, rows=rows, players=players, rules=config, pending=pending
    )

"""The marque as the pages show it: rows, cells and the scoreboard, built from the stored
replay (games/replays.py). Nothing here computes a total; it only arranges what
games.scoring returned."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.centimes import from_centimes
from games.display.colours import glyph, player_colours
from games.display.names import short_labels
from games.models import Joueur, Partie
from games.scoring import (
    DECLINED,
    DEFINITIVE_EXCLUSION,
    IN_RACE,
    Config,
    DonneState,
    get_preset,
    is_out,
    next_number,
)
from games.selectors import PartieState, Summary, state_at

# Marked for makemessages; translated when shown (status_label).
STATUS_LABELS = {
    IN_RACE: gettext_lazy("en course"),
    DECLINED: gettext_lazy("éliminé"),
    DEFINITIVE_EXCLUSION: gettext_lazy("exclu"),
}


@dataclass(frozen=True)  # hashable: a row's cells are the key of its drawn HTML
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
    status: str  # in_race | declined | definitive_exclusion
    leader: bool = False
    pending: bool = False
    label: str = ""  # the name where seven share a phone's width (games/display/names.py)
    colour: int = 0  # the player's colour and marker (games/display/colours.py)

    @property
    def glyph(self) -> str:
        """His marker, next to his colour: never the colour alone (colour-blind readers)."""
        return glyph(self.colour)

    @property
    def shortened(self) -> bool:
        return self.label != self.joueur.name

    @property
    def dots(self) -> str:
        # ●●○: rachats used out of those allowed (docs/rules.md §3.5).
        return "●" * self.rachats_used + "○" * max(0, self.max_rachats - self.rachats_used)

    @property
    def out(self) -> bool:
        """Out of the partie (the engine says what his status means)."""
        return is_out(self.status)

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
    stored: PartieState
    rows: list[Row]
    players: list[PlayerLine]
    pending: list[PendingCard] = field(default_factory=list)

    @property
    def partie(self) -> Partie:
        return self.stored.partie

    @property
    def rules(self) -> Config:
        return self.stored.config

    @property
    def summary(self) -> Summary:
        return self.stored.summary

    @property
    def revision(self) -> str:
        return self.stored.revision

    @property
    def states(self) -> list[DonneState]:
        """The states loaded: the latest ones, or all of them."""
        return self.stored.states

    @property
    def legend(self) -> list[PlayerLine]:
        """The players written short on the scoreboard and the marque's header."""
        return [line for line in self.players if line.shortened]

    @property
    def has_eliminated(self) -> bool:
        # docs/rules.md R19: the ranking puts them after the players en course, latest first.
        return any(line.out for line in self.players)

    @property
    def recorded(self) -> int:
        """How many donnes are stored (the replay may stop earlier, at a pending decision)."""
        return self.summary.recorded

    @property
    def next_number(self) -> int:
        """The number the next donne is recorded under (the engine numbers them)."""
        return next_number(self.recorded)

    @property
    def blocked(self) -> list[int]:
        """Donnes stored after a pending decision: the engine replays them once it is taken."""
        return list(range(self.summary.applied + 1, self.summary.recorded + 1))

    @property
    def manche(self) -> str:
        """ "3 / 4" for presets played in a fixed number of manches (docs/rules.md §4)."""
        if not self.rules.fixed_manches:
            return ""
        return f"{self.next_number} / {self.rules.fixed_manches}"

    @property
    def over(self) -> bool:
        return self.summary.over

    @property
    def can_record(self) -> bool:
        return not self.summary.over and not self.summary.pending

    @property
    def pot(self) -> Decimal:
        return from_centimes(self.summary.final.pot)

    @property
    def in_race(self) -> list[Joueur]:
        """The players the next donne is dealt to."""
        last = self.stored.last
        return self._seated(last.in_race if last else None)

    def in_race_before(self, number: int) -> list[Joueur]:
        """The players en course when donne ``number`` was dealt (docs/rules.md §2)."""
        if number <= 1:
            return self._seated(None)
        state = next((s for s in self.states if s.number == number - 1), None)
        if state is None:
            state = state_at(self.partie, min(number - 1, self.summary.applied))
        return self._seated(state.in_race if state else None)

    def _seated(self, names: list[str] | None) -> list[Joueur]:
        return [j for j in self.stored.joueurs if names is None or j.name in names]

    @property
    def winners(self) -> list[str]:
        return [name for rank, name, _total in self.summary.final.ranking if rank == 1]

    @property
    def ranking(self) -> list[tuple[int, str, int]]:
        return [tuple(row) for row in self.summary.final.ranking]


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


def build_marque(stored: PartieState) -> Marque:
    preset = get_preset(stored.partie.preset)
    labels = preset.all_win_types()
    summary = stored.summary
    pending_donnes = {p.donne for p in summary.pending}
    rows = [
        Row(
            number=state.number,
            winner=state.winner or "",
            win_label=_(labels.get(state.win, state.win)),
            cells=cells_of(state, stored.names),
            pending=state.number in pending_donnes,
        )
        for state in stored.states
    ]
    last = stored.last
    leaders = {name for rank, name, _total in summary.final.ranking if rank == 1} if last else set()
    pending_names = {p.player for p in summary.pending}
    labels = short_labels([j.name for j in stored.joueurs])
    colours = player_colours(stored.joueurs)
    players = [
        PlayerLine(
            joueur=j,
            total=last.totals[j.name] if last else 0,
            rachats_used=last.rachats_used.get(j.name, 0) if last else 0,
            max_rachats=stored.config.rachats_offered,
            status=last.left.get(j.name, IN_RACE) if last else IN_RACE,
            leader=j.name in leaders,
            pending=j.name in pending_names,
            label=labels[j.name],
            colour=colours[j.pk],
        )
        for j in stored.joueurs
    ]
    by_name = {j.name: j for j in stored.joueurs}
    pending = [
        PendingCard(
            joueur=by_name[p.player],
            donne=p.donne,
            total=p.total,
            number=p.number,
            restart=p.restart,
            price=from_centimes(p.price),
        )
        for p in summary.pending
    ]
    return Marque(stored=stored, rows=rows, players=players, pending=pending)

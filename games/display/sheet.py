"""The printable marque (screen print and PDF share it): header, rows with observations, the
ranking and the money, all arranged from the engine's replay. Nothing here computes a total."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cached_property

from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.centimes import from_centimes
from games.display.cagnotte import transfers as money_transfers
from games.display.chart import score_chart
from games.display.marque import Cell, cells_of
from games.display.numbers import format_money, number, signed
from games.display.observations import observations
from games.models import Rachat
from games.scoring import Config, Preset, gave_up, get_preset, is_out
from games.selectors import PartieState

BLANK_ROWS = 25
# The printed pages, counted here so that each can say "page 2 / 5" in its own content: every
# engine prints that, where only WeasyPrint and Chromium print @page margin boxes. In lines of
# the marque on A4 landscape (192 mm high inside the margins, less the table's header and the
# page number: a line about 4.1 mm at 8pt, 3.7 mm at the 7pt of seven players and more), on the
# safe side: a page a little emptier than it could be, never a page that spills onto the next.
LINES_PER_PAGE = {False: 40, True: 45}  # by "seven players or more"
TITLE_LINES = 6  # the first page's title, date, rules and money lines
LINES_OF_THE_END = 28  # the ranking, the money and the chart, kept together
PAGE_WIDTH_MM = 279
# What an observation holds on one line, per millimetre of its column (DejaVu Sans at 7-8pt).
CHARACTERS_PER_MM = 0.6
# As wide as a digit (U+2007 FIGURE SPACE; DejaVu Sans's digits all have that width): totals
# padded with it line up on the right, though they sit on a tab stop that aligns their start.
FIGURE_SPACE = "\u2007"
SETTLEMENTS = {
    "gagnant": gettext_lazy("les perdants paient l'écart au gagnant"),
    "croise": gettext_lazy("chaque paire règle son écart"),
}


@dataclass
class Figures:
    """A player's points and total on a row of the printed marque, as they are written."""

    points: str = ""  # "+5", "0", "−10"; empty when the player was out of the donne
    pad: str = ""  # figure spaces before the total: all the totals end on one line
    total: str = ""  # after a rachat, the total that crossed (framed), the restart in ``rachat``
    framed: bool = False  # docs/rules.md §1: totals at or over the seuil are framed
    rachat: str = ""  # "R1→27": the rachat's number and the total the player restarts at
    eliminated: str = ""  # declined | definitive_exclusion

    @property
    def plain(self) -> bool:
        return not (self.framed or self.rachat or self.eliminated)

    @property
    def exit_word(self) -> str:
        return exit_word(self.eliminated)


def exit_word(status: str) -> str:
    """The word the printed marque writes under a player who left: "abandon" when he declined
    his rachat, "exclu" when the rules put him out, nothing en course (the engine says which)."""
    if gave_up(status):
        return gettext("abandon")
    return gettext("exclu") if is_out(status) else ""


def figures_of(cell: Cell) -> Figures:
    if cell.points is None:
        return Figures()
    if cell.rachat_number:
        return Figures(
            points=signed(cell.points),
            total=number(cell.crossed_at),
            framed=True,
            rachat=f"R{cell.rachat_number}→{number(cell.restart)}",
        )
    return Figures(
        points=signed(cell.points),
        total=number(cell.total),
        framed=cell.framed,
        eliminated=cell.eliminated,
    )


@dataclass
class SheetRow:
    number: int | None
    figures: list[Figures]
    observation: str = ""
    winner: str = ""
    dealer: str = ""  # docs/rules.md "Le donneur"; empty when it was not recorded
    # The players' figures as one line of text, points and totals on tab stops (sheet.css):
    # WeasyPrint's time goes to each cell and each piece of text, so a plain row is one cell
    # for all the players. None when a total is framed or has a word under it: one cell each.
    line: str | None = None
    pad: str = ""  # figure spaces before the number: the donne numbers end on one line

    @property
    def note(self) -> str:
        """The observations cell: who dealt, then what happened."""
        if not self.dealer:
            return self.observation
        dealt = gettext("donneur : %(name)s") % {"name": self.dealer}
        return f"{dealt} · {self.observation}" if self.observation else dealt


def line_up(rows: list[SheetRow]) -> list[SheetRow]:
    """Pad the totals to the sheet's widest and write each plain row as one line."""
    width = max((len(f.total) for row in rows for f in row.figures), default=0)
    numbers = max((len(str(row.number)) for row in rows if row.number), default=0)
    for row in rows:
        if row.number:
            row.pad = FIGURE_SPACE * (numbers - len(str(row.number)))
        for f in row.figures:
            if f.total:
                f.pad = FIGURE_SPACE * (width - len(f.total))
        if all(f.plain for f in row.figures):
            row.line = "\t".join(f"{f.points}\t{f.pad}{f.total}" for f in row.figures)
    return rows


def row_lines(row: SheetRow, players: int) -> int:
    """How many lines a row takes: two with a rachat or an exit under a total, more when its
    observation wraps."""
    under = any(f.rachat or f.eliminated for f in row.figures)
    width = PAGE_WIDTH_MM - 10.5 - 21 * players
    per_line = max(10, int(width * CHARACTERS_PER_MM))
    return max(1 + under, -(-len(row.note) // per_line))


@dataclass
class SheetPage:
    number: int
    rows: list[SheetRow]


def paginate(rows: list[SheetRow], players: int, *, header_lines: int = 0) -> tuple[list, bool]:
    """The rows cut into printed pages, and whether the end (ranking, money, chart) needs a
    page of its own."""
    per_page = LINES_PER_PAGE[players >= 7]
    pages: list[list[SheetRow]] = [[]]
    room = per_page - TITLE_LINES - header_lines
    for row in rows:
        lines = row_lines(row, players)
        if lines > room and pages[-1]:
            pages.append([])
            room = per_page
        pages[-1].append(row)
        room -= lines
    return [SheetPage(n, page) for n, page in enumerate(pages, start=1)], room < LINES_OF_THE_END


@dataclass
class MoneyLine:
    name: str
    paid: Decimal  # initial stake plus rachats, into the cagnotte
    points: Decimal  # points settlement (docs/rules.md R12)
    net: Decimal


@dataclass
class Sheet:
    title: str
    date: datetime | None
    preset: Preset
    options: str
    money_options: str
    columns: list[str]
    rows: list[SheetRow]
    currency: str = "EUR"
    blank: bool = False
    over: bool = False
    end_note: str = ""
    ranking: list[tuple[int, str, int]] = field(default_factory=list)
    pot: Decimal = Decimal("0.00")
    money: list[MoneyLine] = field(default_factory=list)
    transfers: list[tuple[str, str, Decimal]] = field(default_factory=list)
    chart: SafeString = field(default_factory=SafeString)
    has_money: bool = False
    has_points_settlement: bool = False
    note: str = ""  # the partie's free note
    # Players out of the race, by name: "abandon" or "exclu" beside them in the ranking, and the
    # sentence that says why they rank after the others (docs/rules.md R19), as on the screen.
    left: dict[str, str] = field(default_factory=dict)

    @property
    def pages(self) -> list[SheetPage]:
        return self._paged[0]

    @property
    def end_alone(self) -> bool:
        """The end starts a page of its own (it would not fit under the last donnes)."""
        return not self.blank and self._paged[1]

    @property
    def page_count(self) -> int:
        return len(self.pages) + self.end_alone

    @cached_property
    def _paged(self) -> tuple[list[SheetPage], bool]:
        # The free note may take lines under the title.
        return paginate(
            self.rows, len(self.columns), header_lines=self.note.count("\n") + len(self.note) // 150
        )

    @property
    def ranked(self) -> list[tuple[int, str, int, str]]:
        """The ranking with the word for each player's exit ("" en course, ``exit_word``)."""
        return [
            (rank, name, total, exit_word(self.left.get(name, "")))
            for rank, name, total in self.ranking
        ]


def _fmt(amount: int, currency: str) -> str:
    return format_money(from_centimes(amount), currency)


def rule_options(preset: Preset, config: Config) -> str:
    """The preset's rules in one line: "éliminé dès 100 · 3 rachats au plus · 4 manches"."""
    parts = []
    if config.seuil is not None:
        # docs/rules.md R4: inclusive (≥) for 100, strict (>) for Rami 40's 150.
        if config.seuil_inclusive:
            parts.append(gettext("éliminé dès %(seuil)s") % {"seuil": config.seuil})
        else:
            parts.append(gettext("éliminé au-dessus de %(seuil)s") % {"seuil": config.seuil})
        parts.append(
            ngettext("%(n)s rachat au plus", "%(n)s rachats au plus", config.max_rachats)
            % {"n": config.max_rachats}
        )
    if config.fixed_manches is not None:
        parts.append(
            ngettext("%(n)s manche", "%(n)s manches", config.fixed_manches)
            % {"n": config.fixed_manches}
        )
    if config.target is not None:
        target = f"{config.target:,}".replace(",", "\u202f")
        if config.target_inclusive:
            parts.append(gettext("fin dès %(target)s") % {"target": target})
        else:
            parts.append(gettext("fin au-dessus de %(target)s") % {"target": target})
    return " · ".join(parts)


def money_options(config: Config, currency: str) -> str:
    parts = []
    if config.mise_initiale:
        amount = _fmt(config.mise_initiale, currency)
        parts.append(gettext("mise initiale %(amount)s") % {"amount": amount})
    prices = config.rachat_prices
    if config.has_elimination and any(prices):
        if len(set(prices)) == 1:
            parts.append(gettext("rachat %(amount)s") % {"amount": _fmt(prices[0], currency)})
        else:
            listed = ", ".join(_fmt(p, currency) for p in prices)
            parts.append(gettext("rachats %(amounts)s") % {"amounts": listed})
    if config.point_value:
        rule = SETTLEMENTS[config.settlement]
        amount = _fmt(config.point_value, currency)
        parts.append(gettext("point %(amount)s (%(rule)s)") % {"amount": amount, "rule": rule})
    return " · ".join(parts) or gettext("sans argent")


def build_sheet(
    stored: PartieState,
    dealers: dict[int, str] | None = None,
    rachats: list[Rachat] | None = None,
) -> Sheet:
    """The whole marque: ``stored`` holds every state (partie_state(partie)); ``dealers``
    who dealt each donne, by number; ``rachats`` those bought back, for the transfers once a
    donne is applied (selectors.bought_back)."""
    dealers = dealers or {}
    partie = stored.partie
    preset = get_preset(partie.preset)
    config = stored.config
    names = stored.names
    states = stored.states
    notes = observations(states, names)
    rows = line_up(
        [
            SheetRow(
                number=state.number,
                figures=[figures_of(cell) for cell in cells_of(state, names)],
                observation=note,
                winner=state.winner or "",
                dealer=dealers.get(state.number, ""),
            )
            for state, note in zip(states, notes, strict=True)
        ]
    )
    summary = stored.summary
    final = summary.final
    currency = partie.currency
    money = [
        MoneyLine(
            name=name,
            paid=from_centimes(final.into_pot[name]),
            points=from_centimes(final.points_settlement[name]),
            net=from_centimes(final.net[name]),
        )
        for name in names
    ]
    # Who pays whom, counting the money already ticked as on the table: the same list as the
    # cagnotte panel, so paper and screen never disagree (docs/rules.md §2 "Money").
    pot = gettext("La cagnotte")
    transfers = [
        (pot if v.from_pot else v.payer, v.payee, v.amount)
        for v in (money_transfers(stored, rachats or []) if summary.applied or summary.over else [])
    ]
    if summary.pending:
        end_note = gettext("Classement provisoire : un rachat reste à décider.")
    elif not summary.over:
        end_note = gettext("Partie en cours : classement provisoire.")
    else:
        end_note = ""
    return Sheet(
        title=partie.name,
        date=partie.created_at,
        preset=preset,
        options=rule_options(preset, config),
        money_options=money_options(config, currency),
        columns=names,
        rows=rows,
        currency=currency,
        over=summary.over,
        end_note=end_note,
        ranking=list(final.ranking),
        pot=from_centimes(final.pot),
        money=money,
        transfers=transfers,
        chart=score_chart(names, states, seuil=config.seuil),
        has_money=any(final.net.values()) or final.pot > 0,
        has_points_settlement=any(final.points_settlement.values()),
        note=partie.note,
        left=dict(states[-1].left) if states else {},
    )


def blank_sheet(preset_key: str, players: int, rows: int = BLANK_ROWS) -> Sheet:
    """An empty marque for tables that play on paper: name blanks and empty rows."""
    preset = get_preset(preset_key)
    config = Config.for_preset(preset)
    return Sheet(
        title="",
        date=None,
        preset=preset,
        options=rule_options(preset, config),
        money_options="",
        columns=[""] * players,
        rows=[
            SheetRow(number=None, figures=[Figures() for _ in range(players)]) for _ in range(rows)
        ],
        blank=True,
    )

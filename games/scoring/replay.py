"""Replay of a partie donne by donne: the algorithm of docs/rules.md §2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .config import Config
from .donne import DonneInput, DonneState, PendingRachat, RachatInfo
from .errors import N_, Detail, RamiError
from .final import Final, compute_final
from .hands import _penalty, check_hand, check_win, hands_needed
from .players import check_players, clean_name, name_key
from .presets import TALON_EPUISE, Preset, get_preset

# docs/rules.md R28: a partie holds at most 1000 donnes; the 1001st is refused, with its number.
MAX_DONNES = 1000

# Why no rachat is possible when the partie ends inside the donne, by end reason.
_NO_RACHAT_CODES = {
    "fixed_manches": "pas_de_rachat_apres_la_derniere_manche",
    # docs/rules.md R23: a target ends any preset, and the message says so.
    "target_reached": "pas_de_rachat_objectif_atteint",
    "all_crossed": "pas_de_reference",
}


@dataclass
class Replay:
    states: list[DonneState]
    final: Final | None
    over: bool
    end_reason: str | None
    pending: list[PendingRachat] = field(default_factory=list)
    stale_decisions: list[tuple[int, str]] = field(default_factory=list)
    blocked_after: int = 0  # donnes not applied because of pending decisions (lenient)
    players: list[str] = field(default_factory=list)  # in seat order

    def in_race_before(self, number: int) -> list[str]:
        """The players en course when donne ``number`` was dealt, in seat order: everyone
        before the first donne, then those still in after donne ``number - 1``."""
        if number <= 1 or not self.states:
            return list(self.players)
        return list(self.states[min(number - 1, len(self.states)) - 1].in_race)


class _Partie:
    """The running marque; ``apply`` turns one donne into its DonneState."""

    def __init__(self, preset: Preset, players: list[str], config: Config, lenient: bool) -> None:
        self.preset = preset
        self.players = list(players)
        # docs/rules.md R28: a name inside a donne means the player with the same key.
        self.by_key = {name_key(p): p for p in players}
        self.config = config
        self.lenient = lenient
        self.totals = dict.fromkeys(players, 0)
        self.in_race = list(players)
        self.crossing_counts = dict.fromkeys(players, 0)
        self.rachats_used = dict.fromkeys(players, 0)
        self.paid = dict.fromkeys(players, 0)
        self.eliminated_at: dict[str, int] = {}
        self.left: dict[str, str] = {}  # why each eliminated player left
        self.pot = config.mise_initiale * len(players)
        self.over = False
        self.end_reason: str | None = None
        self.pending: list[PendingRachat] = []
        self.stale: list[tuple[int, str]] = []

    def resume(self, state: DonneState) -> None:
        """Carry on from the marque after ``state``, as if every donne up to it was applied."""
        self.totals = dict(state.totals)
        self.in_race = list(state.in_race)
        self.crossing_counts = dict(state.crossing_counts)
        self.rachats_used = dict(state.rachats_used)
        self.paid = dict(state.paid)
        self.eliminated_at = dict(state.eliminated_at)
        self.left = dict(state.left)
        self.pot = state.pot
        self.over = state.partie_over
        self.end_reason = state.end_reason

    # -- step 1 -----------------------------------------------------------------------------

    def _validate(self, number: int, donne: DonneInput) -> DonneInput:
        """The donne with its names as seated (docs/rules.md R28), once every check of §2
        step 1 has passed."""
        if self.over:
            raise RamiError("partie_terminee")
        check_win(self.preset, donne.win)
        talon = donne.win == TALON_EPUISE
        if talon and donne.winner is not None:
            raise RamiError("gagnant_inattendu", player=donne.winner)
        if not talon and donne.winner is None:
            raise RamiError("gagnant_manquant")
        donne = donne.named(self.by_key)
        if not talon and donne.winner not in self.in_race:
            raise RamiError("gagnant_hors_course", player=donne.winner)
        for player, hand in donne.hands.items():
            if player not in self.in_race:
                raise RamiError("main_en_trop", player=player, reason=N_("éliminé"))
            if player == donne.winner:
                raise RamiError("main_en_trop", player=player, reason=N_("gagnant de la donne"))
            try:
                check_hand(self.preset, hand)
            except RamiError as err:
                if err.code == "valeur_hors_limites":
                    err.extra["field"] = Detail(N_("points de %(player)s"), player=player)
                raise err.at(player=player) from None
        # docs/rules.md R27: a flat win (rami51) needs no hands; a hand given is checked above.
        if hands_needed(self.preset, donne.win):
            for player in self.in_race:
                if player != donne.winner and player not in donne.hands:
                    raise RamiError("mains_incompletes", player=player)
        for player, decision in donne.rachat.items():
            if not isinstance(decision, bool):
                raise RamiError("decision_invalide", player=player)
        return donne

    # -- steps 2 to 4 -------------------------------------------------------------------------

    def _points(self, donne: DonneInput) -> dict[str, int]:
        points = {}
        for player in self.in_race:
            if player == donne.winner:
                points[player] = self.preset.winner_points[donne.win]
            elif donne.win in self.preset.flat_penalties:
                # docs/rules.md R27: the flat penalty, whether a hand was given or not.
                points[player] = self.preset.flat_penalties[donne.win]
            else:
                points[player] = _penalty(self.preset, donne.hands[player], donne.win)
        return points

    def _end_before_rachat(self, number: int, crossers: list[str]) -> str | None:
        config = self.config
        if any(config.reached_target(self.totals[p]) for p in self.in_race):
            # docs/rules.md R18: the partie ends at the end of the donne where a total reaches 1000.
            return "target_reached"
        if config.fixed_manches is not None and number >= config.fixed_manches:
            # docs/rules.md R15: no rachat after the last manche; crossers rank by total.
            return "fixed_manches"
        if crossers and len(crossers) == len(self.in_race):
            # docs/rules.md R10: nobody is left under the seuil, so no reference: lowest total wins.
            return "all_crossed"
        return None

    def _target_reached_by(self, end_reason: str | None) -> list[str]:
        if end_reason != "target_reached":
            return []
        return [p for p in self.in_race if self.config.reached_target(self.totals[p])]

    # -- step 5 to 10 --------------------------------------------------------------------------

    def _crossers(self) -> list[str]:
        return [p for p in self.in_race if self.config.reached_seuil(self.totals[p])]

    def _usable_decisions(
        self, number: int, donne: DonneInput, crossers: list[str], end_reason: str | None
    ) -> dict[str, bool]:
        """Decisions that apply; the others raise (strict) or become stale (lenient)."""
        usable = {}
        for player in self.players:
            if player not in donne.rachat:
                continue
            if player not in crossers:
                code = "pas_de_rachat"
            elif end_reason is not None:
                code = _NO_RACHAT_CODES[end_reason]
            elif self.crossing_counts[player] > self.config.max_rachats:
                code = "rachat_impossible"
            else:
                usable[player] = donne.rachat[player]
                continue
            if not self.lenient:
                raise RamiError(code, player=player, crossing=self.crossing_counts[player])
            self.stale.append((number, player))
        return usable

    def _eliminate(self, player: str, number: int) -> None:
        self.in_race.remove(player)
        self.eliminated_at[player] = number

    def apply(self, number: int, donne: DonneInput, ended: bool) -> DonneState:
        donne = self._validate(number, donne)
        points = self._points(donne)
        for player, value in points.items():
            self.totals[player] += value
        before = {p: self.totals[p] for p in self.in_race}
        crossers = self._crossers()
        for player in crossers:
            self.crossing_counts[player] += 1
        end_reason = self._end_before_rachat(number, crossers)
        decisions = self._usable_decisions(number, donne, crossers, end_reason)
        reference = None
        rachats: dict[str, RachatInfo] = {}
        eliminated: dict[str, str] = {}
        if crossers and end_reason is None:
            # docs/rules.md R6: one reference for every crosser of the donne, taken after the points
            # and before any rachat, among players en course who did not cross; may be negative.
            reference = max(before[p] for p in self.in_race if p not in crossers)
            for player in crossers:
                self._decide(number, player, reference, decisions, rachats, eliminated, ended)
        self.left.update(eliminated)
        if end_reason is None and not self.pending and len(self.in_race) == 1:
            # docs/rules.md R9: the last player en course wins at once, whatever his total.
            end_reason = "last_standing"
        if end_reason is None and ended and not self.pending:
            # docs/rules.md R21: the table ended the partie by hand after this donne.
            end_reason = "manual"
        if end_reason is not None:
            self.over = True
            self.end_reason = end_reason
        return DonneState(
            number=number,
            winner=donne.winner,
            win=donne.win,
            points=points,
            totals_before_rachat=before,
            crossings={p: self.crossing_counts[p] for p in crossers},
            rachats=rachats,
            eliminated=eliminated,
            totals=dict(self.totals),
            in_race=list(self.in_race),
            paid=dict(self.paid),
            partie_over=self.over,
            end_reason=end_reason,
            crossing_counts=dict(self.crossing_counts),
            rachats_used=dict(self.rachats_used),
            pot=self.pot,
            reference=reference,
            hands=dict(donne.hands),
            preset=self.preset,
            eliminated_at=dict(self.eliminated_at),
            left=dict(self.left),
            target_reached_by=self._target_reached_by(end_reason),
        )

    def _decide(
        self,
        number: int,
        player: str,
        reference: int,
        decisions: dict[str, bool],
        rachats: dict[str, RachatInfo],
        eliminated: dict[str, str],
        ended: bool,
    ) -> None:
        crossing = self.crossing_counts[player]
        if crossing > self.config.max_rachats:
            # docs/rules.md R8: beyond max_rachats no choice is offered: exclusion définitive.
            eliminated[player] = "definitive_exclusion"
            self._eliminate(player, number)
            return
        price = self.config.rachat_price(crossing)
        if player not in decisions:
            if ended:
                # Manual end right after this donne: a rachat would buy nothing (as R15).
                return
            if not self.lenient:
                raise RamiError(
                    "decision_manquante",
                    player=player,
                    total=self.totals[player],
                    restart=reference,
                )
            self.pending.append(
                PendingRachat(number, player, self.totals[player], crossing, reference, price)
            )
            return
        if decisions[player]:
            # docs/rules.md R11: the price goes into the pot; §2 step 9: restart at the reference.
            rachats[player] = RachatInfo(number=crossing, restart=reference, price=price)
            self.rachats_used[player] += 1
            self.paid[player] += price
            self.pot += price
            self.totals[player] = reference
        else:
            eliminated[player] = "declined"
            self._eliminate(player, number)

    def final(self) -> Final:
        return compute_final(
            self.config,
            self.players,
            self.totals,
            self.in_race,
            self.eliminated_at,
            self.paid,
            provisional=not self.over,
        )


def check_next_donne(*, over: bool, ended: bool, pending: Sequence[Any]) -> None:
    """Whether the partie takes another donne: not once it is over (docs/rules.md R18, or
    ended by the table), not while a crosser still has to answer (R5: the decisions come
    before the next deal)."""
    if over or ended:
        raise RamiError("partie_terminee")
    if pending:
        raise RamiError("decision_en_attente")


def replay(
    preset: str | Preset,
    players: list[str],
    donnes: list[DonneInput | dict[str, Any]],
    config: dict[str, Any] | Config | None = None,
    *,
    lenient: bool = False,
    ended: bool = False,
    after: DonneState | None = None,
) -> Replay:
    """Apply every donne in order and return the marque, the ranking and the money.

    ``after``: the state of the last donne already applied (stored by the app); ``donnes``
    then are the ones after it, numbered on from it, and ``states`` holds only theirs."""
    preset = get_preset(preset)
    if not isinstance(config, Config):
        config = Config.from_record(preset, config)
    check_players(preset, list(players))
    # docs/rules.md R28: the trimmed name is the player's name, in the output too.
    players = [clean_name(p) for p in players]
    partie = _Partie(preset, players, config, lenient)
    first = 1
    if after is not None:
        partie.resume(after)
        first = after.number + 1
    states: list[DonneState] = []
    blocked_after = 0
    last = first + len(donnes) - 1
    if last > MAX_DONNES:
        raise RamiError(
            "valeur_hors_limites",
            donne=MAX_DONNES + 1,
            field="donnes",
            max=MAX_DONNES,
            detail=Detail(N_("une partie compte au plus %(max)s donnes"), max=MAX_DONNES),
        )
    for number, raw in enumerate(donnes, start=first):
        try:
            donne = DonneInput.from_dict(raw)
            states.append(partie.apply(number, donne, ended and number == last))
        except RamiError as err:
            raise err.at(donne=number) from None
        if partie.pending:
            # Lenient: stop at the first donne whose crossers have not all decided.
            blocked_after = last - number
            break
    if ended and not donnes and after is None:
        partie.over, partie.end_reason = True, "manual"
    return Replay(
        states=states,
        final=partie.final(),
        over=partie.over,
        end_reason=partie.end_reason,
        pending=list(partie.pending),
        stale_decisions=list(partie.stale),
        blocked_after=blocked_after,
        players=players,
    )

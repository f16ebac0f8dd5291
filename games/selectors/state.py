"""The one shape of a read partie (``PartieState``), and the summary it carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.dealing import dealer_after
from games.models import (
    Donne,
    Hand,
    Joueur,
    Partie,
    Rachat,
)
from games.scoring import Config, DonneState, Final, PendingRachat, Replay, replay


@dataclass(frozen=True)
class RachatLine:
    """A rachat the engine applied: who, after which donne, which one, at what price."""

    donne: int
    player: str
    number: int
    price: int  # centimes


@dataclass
class Summary:
    """The partie as a whole, from its stored replay."""

    recorded: int  # donnes stored
    applied: int  # donnes the replay went through (it stops at a decision still to take)
    over: bool
    end_reason: str | None
    pending: list[PendingRachat]
    final: Final
    rachats: list[RachatLine]

    @property
    def blocked(self) -> int:
        """Donnes stored after a decision still to take: replayed once it is taken."""
        return self.recorded - self.applied

    def to_json(self) -> dict[str, Any]:
        final = self.final
        return {
            "recorded": self.recorded,
            "applied": self.applied,
            "over": self.over,
            "end_reason": self.end_reason,
            "pending": [vars(p) for p in self.pending],
            "final": {
                **final.to_dict(),
                "provisional": final.provisional,
                "shares": final.shares,
                "into_pot": final.into_pot,
            },
            "rachats": [vars(r) for r in self.rachats],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        final = dict(data["final"])
        final["ranking"] = [tuple(row) for row in final["ranking"]]
        return cls(
            recorded=data["recorded"],
            applied=data["applied"],
            over=data["over"],
            end_reason=data["end_reason"],
            pending=[PendingRachat(**p) for p in data["pending"]],
            final=Final(**final),
            rachats=[RachatLine(**r) for r in data["rachats"]],
        )


# What a read does not know until asked (a page that never shows the next dealer).
UNKNOWN: Any = object()


@dataclass
class PartieState:
    """A partie as every page and every write reads it: its players, options, summary, and
    the states loaded (the latest ones, or all); with its donnes, hands and decisions only
    when a write replays them or a file exports them (``donnes``). A write service returns
    it as it left the partie, so that its page renders with no second read."""

    partie: Partie
    joueurs: list[Joueur]
    config: Config
    # None: not read (a load of the donnes alone, ``partie_load``: its replay says it).
    summary: Summary | None = None
    # Consecutive, the last one is the latest applied donne. For a write that replays from
    # donne ``first``, they start at the state before it (``after``).
    states: list[DonneState] = field(default_factory=list)
    # Who dealt the latest donne (docs/rules.md "Le donneur"), and its idempotency key.
    last_dealer_id: Any = UNKNOWN
    last_key: Any = UNKNOWN
    # The donne already recorded under the key a write carries, or that key deleted since.
    done_id: int | None = None
    deleted: bool = False
    # The summary's tag no longer matches: computed in memory; a write stores it afresh.
    stale: bool = False
    # The rachats bought back with their donne (the cagnotte's payment ticks), once loaded.
    accepted: list[Rachat] | None = None
    # Whether the latest donne has decisions (False: a write of it reads none).
    last_decided: Any = UNKNOWN
    last_pk: Any = UNKNOWN  # the latest donne's id
    # The donnes loaded (from donne ``first`` on) with their hands and decisions by donne
    # id: what the engine replays. None: not loaded (a page reads the stored states).
    donnes: list[Donne] | None = None
    hands: dict[int, list[Hand]] = field(default_factory=dict)
    rachats: dict[int, list[Rachat]] = field(default_factory=dict)
    first: int = 1  # the number of the first donne loaded (a write replays from it)
    # How many of the latest states the read asked for (None: all); a write keeps as many.
    window: int | None = None

    @property
    def names(self) -> list[str]:
        return [j.name for j in self.joueurs]

    @property
    def last(self) -> DonneState | None:
        return self.states[-1] if self.states else None

    def within_window(self, states: list[DonneState]) -> list[DonneState]:
        """``states``, after a write, cut to the window this state was read with: the page
        it answers shows the latest ``window`` donnes, as a page read afresh does. The latest
        state is always kept: the next write starts from it."""
        return states if self.window is None else states[-max(self.window, 1) :]

    @property
    def revision(self) -> str:
        """The fingerprint a form carries: the partie's revision (a payment tick does not
        move it; a donne, a decision, an option or the end does)."""
        return str(self.partie.revision)

    def read_latest(self) -> None:
        """The latest donne's key and dealer, read together (one query) the first time either
        is asked of a state loaded without them (selectors.partie_state_of ``latest``): a
        queued donne behind another one needs both."""
        row = (
            Donne.objects.filter(partie=self.partie)
            .order_by("-number")
            .values("idempotency_key", "dealer_id")
            .first()
        )
        self.last_key = row["idempotency_key"] if row else None
        self.last_dealer_id = row["dealer_id"] if row else None

    def latest_key(self) -> Any:
        """The latest donne's idempotency key (None: no donne yet)."""
        if self.last_key is UNKNOWN:
            self.read_latest()
        return self.last_key

    def next_dealer(self, in_race: list[str], number: int) -> Joueur | None:
        """The dealer of donne ``number`` about to be recorded (games/dealing.py)."""
        if number != self.summary.recorded + 1:
            previous = dealer_id_of(self.partie, number - 1)
        else:
            if self.last_dealer_id is UNKNOWN:
                self.read_latest()
            previous = self.last_dealer_id
        return dealer_after(self.partie, self.joueurs, in_race, previous)

    # -- the donnes loaded, for a replay ------------------------------------------------------

    @property
    def after(self) -> DonneState | None:
        """The stored state before the first donne loaded: a replay from ``first`` starts
        after it (None: from the first donne)."""
        if self.first <= 1:
            return None
        return next(s for s in self.states if s.number == self.first - 1)

    @property
    def before(self) -> list[DonneState]:
        """The stored states of the donnes loaded, as they were before the write."""
        return [s for s in self.states if s.number >= self.first]

    def donne(self, number: int) -> Donne:
        return self.donnes[number - self.first]

    def hands_of(self, donne: Donne) -> list[Hand]:
        return self.hands.get(donne.pk, [])

    def rachats_of(self, donne: Donne) -> list[Rachat]:
        return self.rachats.get(donne.pk, [])

    def by_name(self, name: str) -> Joueur:
        return next(j for j in self.joueurs if j.name == name)

    def inputs(self) -> list[dict[str, Any]]:
        return [self.input_of(d) for d in self.donnes]

    def input_of(self, donne: Donne) -> dict[str, Any]:
        """A stored donne as the engine's input (docs/rules.md §1)."""
        hands = {}
        for hand in self.hands_of(donne):
            if hand.points is not None:
                hands[hand.joueur.name] = {"points": hand.points, "jokers": hand.jokers}
            else:
                hands[hand.joueur.name] = {"cards": hand.cards.split(), "jokers": hand.jokers}
        return {
            "winner": donne.winner.name if donne.winner else None,
            "win": donne.win,
            "hands": hands,
            "rachat": {r.joueur.name: r.accepted for r in self.rachats_of(donne)},
        }

    def replay(
        self, inputs: list[dict[str, Any]] | None = None, *, ended: bool | None = None
    ) -> Replay:
        """Lenient replay (the web flow decides rachats after saving a donne): of the loaded
        donnes, or of ``inputs`` in their place, after the stored state before them."""
        return replay(
            self.partie.preset,
            self.names,
            self.inputs() if inputs is None else inputs,
            self.config,
            lenient=True,
            ended=self.partie.ended if ended is None else ended,
            after=self.after,
        )


def dealer_id_of(partie: Partie, number: int) -> int | None:
    """Who dealt donne ``number`` (None: none yet, or recorded before the app asked): one
    query."""
    if number < 1:
        return None
    row = Donne.objects.filter(partie=partie, number=number).values("dealer_id").first()
    return row["dealer_id"] if row else None

"""What the table says about one donne (docs/rules.md §1) and what the engine answers
(§2 step 11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .errors import N_, Detail, RamiError
from .hands import Hand, explain_penalty
from .players import name_key, shown
from .presets import Preset


def next_number(recorded: int) -> int:
    """The number of the donne after ``recorded`` donnes: its place in the record's list,
    counted from 1 (docs/rules.md §1.4, the donnes in the order played)."""
    return recorded + 1


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and value != ""


@dataclass(frozen=True)
class DonneInput:
    """One donne as entered: ``rachat`` holds the crossers' decisions (True buys back)."""

    winner: str | None
    win: str
    hands: dict[str, Hand]
    rachat: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Any) -> DonneInput:
        if isinstance(data, DonneInput):
            return data
        if not isinstance(data, dict):
            raise RamiError("donne_invalide", detail=N_("une donne s'écrit comme un objet JSON"))
        unknown = set(data) - {"winner", "win", "hands", "rachat"}
        if unknown:
            raise RamiError(
                "donne_invalide",
                detail=Detail(N_("champ inconnu « %(field)s »"), field=sorted(unknown)[0]),
            )
        winner = data.get("winner")
        if winner is not None and not _is_name(winner):
            raise RamiError("donne_invalide", detail=N_("« winner » doit être un nom ou null"))
        win = data.get("win")
        if not _is_name(win):
            raise RamiError("donne_invalide", detail=N_("« win » doit nommer le type de gain"))
        hands = data.get("hands", {})
        rachat = data.get("rachat") or {}
        if not isinstance(hands, dict) or not isinstance(rachat, dict):
            raise RamiError("donne_invalide", detail=N_("« hands » et « rachat » sont des objets"))
        parsed: dict[str, Hand] = {}
        for player, hand in hands.items():
            try:
                parsed[player] = Hand.from_dict(hand)
            except RamiError as err:
                raise err.at(player=player) from None
        for player, decision in rachat.items():
            if not isinstance(decision, bool):
                raise RamiError("decision_invalide", player=player)
        return cls(winner=winner, win=win, hands=parsed, rachat=dict(rachat))

    def named(self, players: dict[str, str]) -> DonneInput:
        """This donne with each name replaced by the player it means (docs/rules.md R28: the
        one with the same ``name_key``); ``players`` maps each key to the player's name.
        Raises ``joueur_inconnu`` for a name nobody has, ``donne_invalide`` for a player
        named twice in ``hands`` or ``rachat`` ("Anne" and "anne")."""
        names = set(players.values())
        if (self.winner is None or self.winner in names) and all(
            p in names for p in (*self.hands, *self.rachat)
        ):
            return self  # the app's own donnes, and most records: every name as seated

        def player(name: str) -> str:
            if name in names:
                return name
            found = players.get(name_key(name))
            if found is None:
                raise RamiError("joueur_inconnu", player=shown(name))
            return found

        def each(field: str, given: dict[str, Any]) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for name, value in given.items():
                key = player(name)
                if key in out:
                    raise RamiError(
                        "donne_invalide",
                        detail=Detail(
                            N_("%(player)s est nommé deux fois dans « %(field)s »"),
                            player=key,
                            field=field,
                        ),
                    )
                out[key] = value
            return out

        winner = player(self.winner) if self.winner is not None else None
        return DonneInput(
            winner=winner,
            win=self.win,
            hands=each("hands", self.hands),
            rachat=each("rachat", self.rachat),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "win": self.win,
            "hands": {p: h.to_dict() for p, h in self.hands.items()},
        }
        if self.rachat:
            data["rachat"] = dict(self.rachat)
        return data


@dataclass(frozen=True)
class RachatInfo:
    number: int  # which rachat of this player (1..max_rachats)
    restart: int  # the reference score he restarts at (docs/rules.md R6)
    price: int  # centimes paid into the pot

    def to_dict(self) -> dict[str, int]:
        return {"number": self.number, "restart": self.restart, "price": self.price}


@dataclass(frozen=True)
class PendingRachat:
    """A crosser who still has to say whether he buys back (lenient replay only)."""

    donne: int
    player: str
    total: int
    number: int
    restart: int
    price: int


@dataclass
class DonneState:
    """The marque after one donne. ``to_dict`` gives exactly the keys of examples.json."""

    number: int
    winner: str | None
    win: str
    points: dict[str, int]
    totals_before_rachat: dict[str, int]
    crossings: dict[str, int]
    rachats: dict[str, RachatInfo]
    eliminated: dict[str, str]
    totals: dict[str, int]
    in_race: list[str]
    paid: dict[str, int]
    partie_over: bool
    end_reason: str | None
    crossing_counts: dict[str, int]
    rachats_used: dict[str, int]
    pot: int
    reference: int | None
    hands: dict[str, Hand] = field(default_factory=dict, compare=False)
    preset: Preset | None = field(default=None, repr=False, compare=False)
    # Who made the partie end on the target (docs/rules.md R18), in seat order.
    target_reached_by: list[str] = field(default_factory=list, compare=False)
    # The donne each player left the partie at, so far (the ranking needs it, R19).
    eliminated_at: dict[str, int] = field(default_factory=dict, compare=False)
    # Why each player out of the partie so far left it (declined | definitive_exclusion).
    left: dict[str, str] = field(default_factory=dict, compare=False)

    def to_storage(self) -> dict[str, Any]:
        """Everything a later replay or a page needs, as JSON (the app stores it)."""
        return {
            "number": self.number,
            "winner": self.winner,
            "win": self.win,
            **self.to_dict(),
            "rachats": {p: r.to_dict() for p, r in self.rachats.items()},
            "end_reason": self.end_reason,
            "crossing_counts": dict(self.crossing_counts),
            "rachats_used": dict(self.rachats_used),
            "pot": self.pot,
            "reference": self.reference,
            "target_reached_by": list(self.target_reached_by),
            "eliminated_at": dict(self.eliminated_at),
            "left": dict(self.left),
        }

    @classmethod
    def from_storage(cls, data: dict[str, Any]) -> DonneState:
        return cls(
            **{k: v for k, v in data.items() if k != "rachats"},
            rachats={p: RachatInfo(**r) for p, r in data["rachats"].items()},
        )

    @cached_property
    def explanations(self) -> dict[str, str]:
        """The count of each hand in words and numbers, and the winner's line, in seat order.

        Computed on first use: a replay of hundreds of donnes rarely shows them all.
        """
        if self.preset is None:
            return {}
        texts = {
            p: explain_penalty(self.preset, h, self.win, self.points[p])
            for p, h in self.hands.items()
        }
        for p in self.points:
            if p not in texts and p != self.winner:
                # docs/rules.md R27: a flat win without the hand; the text needs no cards.
                texts[p] = explain_penalty(self.preset, Hand(), self.win, self.points[p])
        if self.winner is not None:
            bonus = self.points[self.winner]
            label = self.preset.win_types[self.win].lower()
            texts[self.winner] = f"{bonus} — {label}" + (" (bonification)" if bonus else "")
        return {p: texts[p] for p in self.points}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "points": dict(self.points),
            "totals_before_rachat": dict(self.totals_before_rachat),
            "crossings": dict(self.crossings),
            "rachats": {p: r.to_dict() for p, r in self.rachats.items()},
            "eliminated": dict(self.eliminated),
            "totals": dict(self.totals),
            "in_race": list(self.in_race),
            "paid": dict(self.paid),
            "partie_over": self.partie_over,
        }
        if self.partie_over:
            data["end_reason"] = self.end_reason
        return data

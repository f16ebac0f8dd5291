"""Table options agreed before the partie, overriding the preset defaults (docs/rules.md §8).

One vocabulary: the names of ``Config`` are the names of the app's ``Partie`` fields and of its
forms, French for the game's words (``seuil``, ``mise_initiale``). The game record (``rami score``,
imports, exports) spells some of them as docs/rules.md §1 does (``threshold``, ``prix_rachat``…);
``RECORD_KEYS`` is the one mapping between the two.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .errors import N_, Detail, RamiError
from .presets import Preset

Settlement = Literal["gagnant", "croise"]
SETTLEMENTS: tuple[str, ...] = ("gagnant", "croise")

# Config name -> record key, in the order a record writes them.
RECORD_KEYS: dict[str, str] = {
    "rachat_prices": "prix_rachat",
    "mise_initiale": "mise_initiale",
    "point_value": "valeur_point",
    "settlement": "reglement",
    "seuil": "threshold",
    "seuil_inclusive": "inclusive",
    "max_rachats": "max_rachats",
    "fixed_manches": "fixed_manches",
    "target": "target",
    "target_inclusive": "target_inclusive",
}
CONFIG_NAMES: dict[str, str] = {key: name for name, key in RECORD_KEYS.items()}
# The options a preset sets; the money options default to nothing at all.
RULE_OPTIONS: tuple[str, ...] = (
    "seuil",
    "seuil_inclusive",
    "max_rachats",
    "fixed_manches",
    "target",
    "target_inclusive",
)


# docs/rules.md R28: what no table agrees on. Money is in centimes (1 000 000,00 at most).
MAX_MONEY = 100_000_000
MAX_POINTS_OPTION = 100_000  # seuil and target
MAX_MANCHES = 1000


@dataclass(frozen=True)
class Config:
    """Money is in centimes. ``rachat_prices`` holds one price per rachat number (1-based).
    ``fixed_manches`` None is no fixed number of manches (docs/rules.md R24: a table writes 0)."""

    rachat_prices: tuple[int, ...] = (0,)
    mise_initiale: int = 0
    point_value: int = 0
    settlement: Settlement = "gagnant"
    seuil: int | None = 100
    seuil_inclusive: bool = True
    max_rachats: int = 3
    fixed_manches: int | None = None
    target: int | None = None
    target_inclusive: bool = True

    @classmethod
    def for_preset(cls, preset: Preset, **options: Any) -> Config:
        """The preset's rules with the table's options; an option given as None keeps the
        preset default (a web form's empty field)."""
        return cls._build(preset, options, label=lambda name: name)

    @classmethod
    def from_record(cls, preset: Preset, data: dict[str, Any] | None) -> Config:
        """The ``config`` object of a game record, in its own key names."""
        data = dict(data or {})
        for key in data:
            if key not in CONFIG_NAMES:
                raise RamiError("option_invalide", option=key, detail=N_("option inconnue"))
        options = {CONFIG_NAMES[key]: value for key, value in data.items()}
        return cls._build(preset, options, label=RECORD_KEYS.__getitem__)

    @classmethod
    def _build(cls, preset: Preset, options: dict[str, Any], label) -> Config:
        allowed = {f.name for f in fields(cls)}
        for name in options:
            if name not in allowed:
                raise RamiError("option_invalide", option=name, detail=N_("option inconnue"))
        given = {k: v for k, v in options.items() if v is not None}
        values: dict[str, Any] = {
            "rachat_prices": (0,),
            "mise_initiale": 0,
            "point_value": 0,
            "settlement": "gagnant",
            **{name: getattr(preset, name) for name in RULE_OPTIONS},
        }
        values.update(given)
        if "rachat_prices" in given:
            values["rachat_prices"] = _prices(given["rachat_prices"], label)
        _check(values, label)
        if values["fixed_manches"] == 0:
            # docs/rules.md R24: 0 is no fixed number, in every preset.
            values["fixed_manches"] = None
        return cls(**values)

    def to_record(self) -> dict[str, Any]:
        """Every option, in the record's key names (one price when all rachats cost the same)."""
        prices: int | list[int] = (
            self.rachat_prices[0] if len(set(self.rachat_prices)) == 1 else list(self.rachat_prices)
        )
        values = {f.name: getattr(self, f.name) for f in fields(self)} | {"rachat_prices": prices}
        # docs/rules.md R24: null would be the preset's default; 0 is none, in every preset.
        values["fixed_manches"] = self.fixed_manches or 0
        return {RECORD_KEYS[name]: values[name] for name in RECORD_KEYS}

    def changed_from(self, preset: Preset) -> dict[str, Any]:
        """The rule options the table changed from the preset's defaults (an empty option
        keeps the default, so no fixed number of manches where the preset has one is 0)."""
        changed = {
            name: getattr(self, name)
            for name in RULE_OPTIONS
            if getattr(self, name) != getattr(preset, name)
        }
        if "fixed_manches" in changed and changed["fixed_manches"] is None:
            changed["fixed_manches"] = 0
        return changed

    @property
    def has_elimination(self) -> bool:
        return self.seuil is not None

    @property
    def rachats_offered(self) -> int:
        """How many rachats a player may buy: none without a seuil to cross (docs/rules.md §5)."""
        return self.max_rachats if self.has_elimination else 0

    def reached_seuil(self, total: int) -> bool:
        # docs/rules.md R4: ≥ the seuil when inclusive (100), > when strict (Rami 40's 150).
        if self.seuil is None:
            return False
        return total >= self.seuil if self.seuil_inclusive else total > self.seuil

    def reached_target(self, total: int) -> bool:
        # docs/rules.md R18: ≥ 1000 by default, > when the table chose strict.
        if self.target is None:
            return False
        return total >= self.target if self.target_inclusive else total > self.target

    def rachat_price(self, number: int) -> int:
        """Price of rachat ``number`` (1-based); beyond the list, the last price applies."""
        prices = self.rachat_prices
        return prices[min(number, len(prices)) - 1]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _too_big(option: str, maximum: int, unit: str = "") -> RamiError:
    # docs/rules.md R28: beyond what a table agrees on; the maximum said, never the value
    # (a Python int of 5000 digits cannot even be written out).
    text = f"{maximum:,}".replace(",", "\u00a0")
    detail = (
        Detail(N_("au plus %(max)s centimes"), max=text)
        if unit == "centimes"
        else Detail(N_("au plus %(max)s"), max=text)
    )
    return RamiError("valeur_hors_limites", field=option, detail=detail)


def _prices(value: Any, label) -> tuple[int, ...]:
    # docs/rules.md R11, R25: one agreed price for every rachat, or a list where rachat k pays
    # the k-th price and every rachat past its end the last one.
    prices = (value,) if _is_int(value) else value
    if (
        not isinstance(prices, list | tuple)
        or not prices
        or not all(_is_int(v) and v >= 0 for v in prices)
    ):
        raise RamiError(
            "option_invalide",
            option=label("rachat_prices"),
            detail=N_("un montant en centimes, ou une liste d'au moins un montant"),
        )
    if any(v > MAX_MONEY for v in prices):
        raise _too_big(label("rachat_prices"), MAX_MONEY, "centimes")
    return tuple(prices)


def _check(values: dict[str, Any], label) -> None:
    def bad(option: str, detail: str) -> RamiError:
        return RamiError("option_invalide", option=label(option), detail=detail)

    for name in ("mise_initiale", "point_value", "max_rachats"):
        if not (_is_int(values[name]) and values[name] >= 0):
            raise bad(name, N_("un nombre entier positif ou nul"))
    for name in ("mise_initiale", "point_value"):
        if values[name] > MAX_MONEY:
            raise _too_big(label(name), MAX_MONEY, "centimes")
    for name in ("seuil", "target"):
        value = values[name]
        if value is not None and not (_is_int(value) and value >= 1):
            raise bad(name, N_("un nombre entier supérieur à zéro"))
        if value is not None and value > MAX_POINTS_OPTION:
            raise _too_big(label(name), MAX_POINTS_OPTION)
    manches = values["fixed_manches"]
    if manches is not None:
        # docs/rules.md R24: 0 means no fixed number of manches.
        if not (_is_int(manches) and manches >= 0):
            raise bad("fixed_manches", N_("un nombre entier positif ou nul (0 : pas de limite)"))
        if manches > MAX_MANCHES:
            raise _too_big(label("fixed_manches"), MAX_MANCHES)
    for name in ("seuil_inclusive", "target_inclusive"):
        if not isinstance(values[name], bool):
            raise bad(name, N_("vrai ou faux"))
    if values["settlement"] not in SETTLEMENTS:
        raise bad("settlement", N_("« gagnant » ou « croise »"))


def filled_prices(first: int, later: list[int | None]) -> int | list[int]:
    """docs/rules.md R11: the price of each rachat, in centimes, from the table's first price
    and its later ones, an empty later price repeating the one before it; one price alone
    when no later one is given."""
    if all(price is None for price in later):
        return first
    filled = [first]
    for price in later:
        filled.append(price if price is not None else filled[-1])
    return filled

"""Table options agreed before the partie, overriding the preset defaults (RULES.md §8)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .errors import N_, RamiError
from .presets import Preset

Reglement = Literal["gagnant", "croise"]
REGLEMENTS: tuple[str, ...] = ("gagnant", "croise")


@dataclass(frozen=True)
class Config:
    """Money is in centimes. ``prix_rachat`` holds one price per rachat number (1-based)."""

    prix_rachat: tuple[int, ...] = (0,)
    mise_initiale: int = 0
    valeur_point: int = 0
    reglement: Reglement = "gagnant"
    threshold: int | None = 100
    inclusive: bool = True
    max_rachats: int = 3
    fixed_manches: int | None = None
    target: int | None = None
    target_inclusive: bool = True

    @classmethod
    def for_preset(cls, preset: Preset, options: dict[str, Any] | Config | None = None) -> Config:
        if isinstance(options, Config):
            return options
        options = dict(options or {})
        allowed = {f.name for f in fields(cls)}
        for name in options:
            if name not in allowed:
                raise RamiError("option_invalide", option=name, detail=N_("option inconnue"))
        # An option given as None keeps the preset default (handy for web forms).
        given = {k: v for k, v in options.items() if v is not None}
        values: dict[str, Any] = {
            "prix_rachat": (0,),
            "mise_initiale": 0,
            "valeur_point": 0,
            "reglement": "gagnant",
            "threshold": preset.threshold,
            "inclusive": preset.inclusive,
            "max_rachats": preset.max_rachats,
            "fixed_manches": preset.fixed_manches,
            "target": preset.target,
            "target_inclusive": preset.target_inclusive,
        }
        values.update(given)
        if "prix_rachat" in given:
            values["prix_rachat"] = _prices(given["prix_rachat"])
        _check(values)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        prices: int | list[int] = (
            self.prix_rachat[0] if len(set(self.prix_rachat)) == 1 else list(self.prix_rachat)
        )
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"prix_rachat": prices}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _prices(value: Any) -> tuple[int, ...]:
    # RULES.md R11: one agreed price for every rachat, or a list of 3 for escalating tables.
    if _is_int(value) and value >= 0:
        return (value,)
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(_is_int(v) and v >= 0 for v in value)
    ):
        return tuple(value)
    raise RamiError(
        "option_invalide",
        option="prix_rachat",
        detail=N_("un montant en centimes, ou une liste de 3 montants"),
    )


def _check(values: dict[str, Any]) -> None:
    def bad(option: str, detail: str) -> RamiError:
        return RamiError("option_invalide", option=option, detail=detail)

    for name in ("mise_initiale", "valeur_point", "max_rachats"):
        if not (_is_int(values[name]) and values[name] >= 0):
            raise bad(name, N_("un nombre entier positif ou nul"))
    for name in ("threshold", "fixed_manches", "target"):
        value = values[name]
        if value is not None and not (_is_int(value) and value >= 1):
            raise bad(name, N_("un nombre entier supérieur à zéro"))
    for name in ("inclusive", "target_inclusive"):
        if not isinstance(values[name], bool):
            raise bad(name, N_("vrai ou faux"))
    if values["reglement"] not in REGLEMENTS:
        raise bad("reglement", N_("« gagnant » ou « croise »"))


def rachat_price(config: Config, number: int) -> int:
    """Price of rachat ``number`` (1-based); beyond the list, the last price applies."""
    prices = config.prix_rachat
    return prices[min(number, len(prices)) - 1]

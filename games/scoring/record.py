"""A whole partie as a JSON record (docs/rules.md §1 shape), shared by the CLI and the app's import.

``{"preset": "classique", "players": [...], "config": {...}, "donnes": [...], "ended": false}``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .config import Config
from .donne import DonneInput
from .errors import N_, Detail, RamiError
from .jsontext import check_tree, load_json
from .players import clean_name
from .presets import Preset, get_preset
from .replay import Replay, replay

_KEYS = {"preset", "players", "config", "donnes", "ended"}


def _invalid(detail: str) -> RamiError:
    return RamiError("enregistrement_invalide", detail=detail)


@dataclass(frozen=True)
class Record:
    preset: Preset
    players: list[str]
    config: Config
    donnes: list[DonneInput]
    ended: bool = False

    def replay(self, *, lenient: bool = False) -> Replay:
        return replay(
            self.preset, self.players, self.donnes, self.config, lenient=lenient, ended=self.ended
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset.key,
            "players": list(self.players),
            "config": self.config.to_record(),
            "donnes": [d.to_dict() for d in self.donnes],
            "ended": self.ended,
        }


def record_from_dict(data: Any) -> Record:
    """Check the shape of a record; the rules themselves are checked by ``Record.replay``.

    docs/rules.md R28: the names of the players are trimmed here, once, and the record keeps
    them so; a record nests at most 16 levels and holds no integer of more than 12 digits."""
    check_tree(data)
    if not isinstance(data, dict):
        raise _invalid(N_("le fichier doit contenir un objet JSON {…}"))
    unknown = set(data) - _KEYS
    if unknown:
        raise _invalid(Detail(N_("champ inconnu « %(field)s »"), field=sorted(unknown)[0]))
    for key in ("preset", "players", "donnes"):
        if key not in data:
            raise _invalid(Detail(N_("le champ « %(field)s » manque"), field=key))
    preset = get_preset(data["preset"]) if isinstance(data["preset"], str) else None
    if preset is None:
        raise _invalid(N_("« preset » doit nommer un jeu (classique, rami52_7, …)"))
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _invalid(N_("« players » doit être une liste de noms"))
    config_data = data.get("config") or {}
    if not isinstance(config_data, dict):
        raise _invalid(N_("« config » doit être un objet"))
    donnes = data["donnes"]
    if not isinstance(donnes, list):
        raise _invalid(N_("« donnes » doit être une liste"))
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise _invalid(N_("« ended » vaut true ou false"))
    parsed = []
    for number, donne in enumerate(donnes, start=1):
        try:
            parsed.append(DonneInput.from_dict(donne))
        except RamiError as err:
            raise err.at(donne=number) from None
    config = Config.from_record(preset, config_data)
    players = [clean_name(p) for p in players]
    return Record(preset=preset, players=players, config=config, donnes=parsed, ended=ended)


def record_from_json(text: str) -> Record:
    """docs/rules.md R28: a record is JSON; see ``jsontext.load_json`` for what is refused."""
    return record_from_dict(load_json(text))

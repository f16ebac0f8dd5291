"""Who sits at the table: how many players a preset seats, and what a name may be
(docs/rules.md §8 and R28). The new-partie form, the imports, the model's validator and the
replay all ask here, so a name gets one verdict on every path."""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import N_, Detail, RamiError
from .presets import Preset

MAX_NAME = 30  # docs/rules.md R28: code points after NFC; a name fits a column of the marque
# docs/rules.md R28: control, invisible format, separator, private and surrogate characters
# cannot be read at the table (a NUL cannot even be stored by PostgreSQL) ...
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
# ... except the two joiners, which some scripts and emoji sequences need.
_JOINERS = frozenset({"\u200c", "\u200d"})
_SHOWN = 32  # how much of a refused name a message repeats


def clean_name(name: str) -> str:
    """docs/rules.md R28: the player's name is the name given, without surrounding white
    space (``str.strip()``); the engine's output uses it."""
    return name.strip()


def stored_name(name: str) -> str:
    """The name the app stores: trimmed and NFC-normalised, so that it fits 30 characters
    exactly when the engine counts 30 (docs/rules.md R28 counts after NFC)."""
    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """docs/rules.md R28: two names are one player when they are equal after trimming, NFC
    and full case folding ("Anne" and "anne ", "Zoé" typed two ways)."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def person_key(name: str) -> str:
    """The same person across parties (the habitués, the Comptes page): "Chloé", "chloe " and
    "CHLOÉ" are one, accents, case and spaces aside. Looser than ``name_key``: two names of
    one table may still differ only by an accent (docs/decisions.md "Habitués")."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _refused(char: str) -> bool:
    return unicodedata.category(char) in _REFUSED_CATEGORIES and char not in _JOINERS


def has_hidden(text: str) -> bool:
    """A control or invisible format character that docs/rules.md R28 refuses in a name (the
    app refuses them in a partie's name too)."""
    return any(_refused(c) for c in text)


def shown(text: str) -> str:
    """A name as a message may repeat it: every character R28 refuses written as its code
    point (a NUL, a lone surrogate or a right-to-left override would break or reverse the
    sentence), and a long one cut short."""
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 1] + "…"
    if text.isprintable():
        return text
    return "".join(f"<U+{ord(c):04X}>" if _refused(c) else c for c in text)


def name_problem(name: Any) -> RamiError | None:
    """docs/rules.md R28: what is wrong with one name, or None. Surrounding white space does
    not count (it is trimmed); then 1 to 30 code points after NFC, none of them a control or
    invisible format character (Cc, Cf, Zl, Zp, Co, Cs) except the joiners U+200C, U+200D."""
    if not isinstance(name, str):
        return RamiError("nom_invalide", detail=N_("un nom s'écrit en lettres"))
    trimmed = name.strip()
    if not trimmed:
        return RamiError("nom_invalide", detail=N_("chaque joueur doit avoir un nom"))
    bad = next((c for c in trimmed if _refused(c)), None)
    if bad is not None:
        return RamiError(
            "nom_invalide",
            detail=Detail(
                N_("« %(name)s » contient un caractère invisible ou de contrôle (%(char)s)"),
                name=shown(trimmed),
                char=f"U+{ord(bad):04X}",
            ),
        )
    length = len(unicodedata.normalize("NFC", trimmed))
    if length > MAX_NAME:
        return RamiError(
            "nom_invalide",
            detail=Detail(
                N_("« %(name)s » a %(count)s caractères, %(max)s au plus"),
                name=shown(trimmed),
                count=length,
                max=MAX_NAME,
            ),
        )
    return None


def player_problems(preset: Preset, players: list[Any]) -> list[RamiError]:
    """Every reason this table cannot be seated, in the order a player reads the form."""
    problems = [p for p in (name_problem(player) for player in players) if p is not None]
    seen: set[str] = set()
    for player in players:
        if not isinstance(player, str) or name_problem(player) is not None:
            continue
        key = name_key(player)
        if key in seen:
            problems.append(RamiError("joueurs_en_double", player=clean_name(player)))
        seen.add(key)
    try:
        check_count(preset, len(players))
    except RamiError as err:
        problems.append(err)
    return problems


def check_count(preset: Preset, count: int) -> None:
    """docs/rules.md §8: each preset seats its own number of players."""
    if not preset.min_players <= count <= preset.max_players:
        raise RamiError(
            "nombre_de_joueurs", min=preset.min_players, max=preset.max_players, count=count
        )


def check_players(preset: Preset, players: list[Any]) -> None:
    problems = player_problems(preset, players)
    if problems:
        raise problems[0]

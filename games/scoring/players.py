"""Who sits at the table: how many players a preset seats, and what a name may be
(docs/rules.md §8 and R28). The new-partie form, the imports, the model's validator and the
replay all ask here, so a name gets one verdict on every path."""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
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

# docs/rules.md R28, look-alike names: the letters of other scripts that a marque shows as a
# Latin letter (after Unicode TR39's confusables, restricted to Cyrillic and Greek letters
# that look the same in common fonts), written as the Latin letter.
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic capitals, then small letters.
        **dict(zip("АВСЕНІЈКМОРЅТХУҮԚԜӀ", "ABCEHIJKMOPSTXYYQWI", strict=True)),
        **dict(zip("асеһіјорѕхуԁԛԝӏ", "acehijopsxydqwl", strict=True)),
        # Greek capitals, then small letters.
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹͿ", "ABEZHIKMNOPTYXCJ", strict=True)),
        **dict(zip("αογνριϲϳ", "aoyvpicj", strict=True)),
    }
)
# Unicode's default-ignorable code points: drawn as nothing (the joiners, the zero-width
# space, the variation selectors, the Hangul fillers ...), so "Anne" and "Anne" + U+200D look
# the same.
_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]  # fmt: skip


def _ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


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


@cache
def person_key_tables() -> dict[str, Any]:
    """What a browser needs to compute ``person_key`` exactly as above (the new-partie page
    lights the habitués typed by hand): JavaScript has NFKD and ``toLowerCase`` but neither
    ``unicodedata.combining`` nor ``casefold``. ``marks``: the characters the key drops after
    NFKD, as the body of a RegExp character class (``u`` flag); ``folds``: the characters,
    after ``toLowerCase``, whose case folding is something else ("ß" → "ss", "ς" → "σ").
    Then key = NFKD, drop ``marks``, ``toLowerCase``, map ``folds``, collapse the spaces."""
    ranges: list[list[int]] = []
    folds: dict[str, str] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.combining(char):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
        folded = char.casefold()
        if folded != char.lower() and unicodedata.normalize("NFKD", char) == char:
            folds[char] = folded
    marks = "".join(
        f"\\u{{{low:x}}}" if low == high else f"\\u{{{low:x}}}-\\u{{{high:x}}}"
        for low, high in ranges
    )
    return {"marks": marks, "folds": folds}


def skeleton(name: str) -> str:
    """docs/rules.md R28: what a name looks like on the marque, after Unicode TR39's
    confusable skeleton, simplified: compatibility forms as their plain letter (NFKD: a
    full-width Ａ is A), the invisible characters removed, the Cyrillic and Greek letters that
    look Latin written as the Latin letter, case folded, runs of white space as one space
    (a page shows them so). Accents stay: "Zoé" and "Zoe" may sit at one table. Two names of
    one table with the same skeleton are refused (``joueurs_semblables``)."""
    text = "".join(c for c in unicodedata.normalize("NFKD", name) if not _ignorable(c))
    # Before and after case folding: an upper-case Cyrillic letter may look Latin where its
    # small letter does not (Ү and Y), and the other way round.
    text = text.translate(_LOOK_ALIKES).casefold().translate(_LOOK_ALIKES)
    return " ".join(unicodedata.normalize("NFD", text).split())


def _first_difference(name: str, other: str) -> str:
    """The first character where two look-alike names differ, as a message names it."""
    a, b = unicodedata.normalize("NFC", name), unicodedata.normalize("NFC", other)
    for x, y in zip(a, b, strict=False):
        if x != y:
            return f"U+{ord(y):04X} {unicodedata.name(y, '?')}"
    extra = b[len(a) :] or a[len(b) :]
    return f"U+{ord(extra[0]):04X} {unicodedata.name(extra[0], '?')}" if extra else ""


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
    looks: dict[str, str] = {}  # skeleton: the first name that looks so
    for player in players:
        if not isinstance(player, str) or name_problem(player) is not None:
            continue
        key, look = name_key(player), skeleton(player)
        if key in seen:
            problems.append(RamiError("joueurs_en_double", player=clean_name(player)))
        elif look in looks:
            first = looks[look]
            problems.append(
                RamiError(
                    "joueurs_semblables",
                    player=shown(clean_name(first)),
                    other=shown(clean_name(player)),
                    char=_first_difference(clean_name(first), clean_name(player)),
                )
            )
        seen.add(key)
        looks.setdefault(look, player)
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

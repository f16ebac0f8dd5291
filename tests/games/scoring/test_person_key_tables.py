"""The tables a page hands to JavaScript so that it computes ``person_key`` as the engine does
(games/scoring/players.py person_key_tables): replayed here step by step as the JavaScript
does them (static/js/habitues.js), over every code point of the Basic Multilingual Plane."""

from __future__ import annotations

import re
import unicodedata

from games.scoring.players import person_key, person_key_tables

TABLES = person_key_tables()
MARK = re.compile(r"\\u\{([0-9a-f]+)\}(?:-\\u\{([0-9a-f]+)\})?")


def marks() -> set[str]:
    found = set()
    for low, high in MARK.findall(TABLES["marks"]):
        found |= {chr(c) for c in range(int(low, 16), int(high or low, 16) + 1)}
    return found


DROPPED = marks()


def as_the_page_does(name: str) -> str:
    """NFKD, drop the marks, toLowerCase, map the folds, collapse the spaces."""
    text = "".join(c for c in unicodedata.normalize("NFKD", name) if c not in DROPPED)
    text = "".join(TABLES["folds"].get(c, c) for c in text.lower())
    return " ".join(text.split())


def test_the_marks_are_a_regexp_class_of_the_combining_characters() -> None:
    assert TABLES["marks"].startswith("\\u{300}-\\u{34e}\\u{350}-\\u{36f}")
    assert "\u034f" not in DROPPED  # the grapheme joiner combines with nothing: kept
    assert TABLES["folds"]["ß"] == "ss" and TABLES["folds"]["ς"] == "σ"


def test_every_character_gets_the_engines_key() -> None:
    wrong = [c for c in map(chr, range(0x10000)) if as_the_page_does(c) != person_key(c)]
    assert wrong == []


def test_names_typed_two_ways_are_one_person() -> None:
    for typed, habitue in [("STRASSE", "Straße"), ("  chloe ", "CHLOÉ"), ("ΟΔΥΣΣΕΥΣ", "Ὀδυσσεύς")]:
        assert as_the_page_does(typed) == person_key(habitue)

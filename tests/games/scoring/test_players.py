"""Players' names (games/scoring/players.py; docs/rules.md R28): trimmed and NFC, one player per
key, refused with the reason, look-alikes refused naming both."""

from __future__ import annotations

import unicodedata

import pytest

from games.scoring import name_key, name_problem, replay, stored_name
from games.scoring.record import record_from_json
from tests.games.scoring.helpers import refusal, win

# -- R28: names -------------------------------------------------------------------------------


def test_names_are_trimmed_and_the_trimmed_name_is_the_output() -> None:
    result = replay("classique", ["  Anne ", "\tBruno\n"], [win("Anne", Bruno=7)])
    assert result.players == ["Anne", "Bruno"]
    assert result.states[0].totals == {"Anne": -10, "Bruno": 7}
    assert record_from_json('{"preset": "classique", "players": [" Anne", "B "], "donnes": []}')\
        .players == ["Anne", "B"]  # fmt: skip


@pytest.mark.parametrize(
    ("players", "second"),
    [
        (["Anne", "anne"], "anne"),
        (["Anne", "anne "], "anne"),
        (["Zo\u00e9", "Zoe\u0301"], "Zoe\u0301"),  # "Zoé" typed two ways
        (["STRASSE", "straße"], "straße"),  # full case folding
    ],
)
def test_names_equal_after_trim_nfc_and_casefold_are_one_player(players, second) -> None:
    err = refusal("classique", players, [])
    assert (err.code, err.player) == ("joueurs_en_double", second)


def test_a_name_inside_a_donne_means_the_player_with_the_same_key() -> None:
    donne = {
        "winner": "ANNE",
        "win": "rami",
        "hands": {" bruno ": {"points": 4}, "Zoe\u0301": {"points": 2}},
        "rachat": {},
    }
    result = replay("classique", ["Anne", "Bruno", "Zo\u00e9"], [donne])
    assert result.states[0].points == {"Anne": -10, "Bruno": 4, "Zo\u00e9": 2}
    assert refusal("classique", ["Anne", "Bruno"], [win("Anne", Brunette=3)]).code == (
        "joueur_inconnu"
    )


def test_one_player_named_twice_in_a_donne_is_refused() -> None:
    donne = {"winner": "A", "win": "rami", "hands": {"B": {"points": 1}, "b": {"points": 2}}}
    err = refusal("classique", ["A", "B"], [donne])
    assert err.code == "donne_invalide"
    assert err.message == "Donne 1 : Donne illisible : B est nommé deux fois dans « hands »"


@pytest.mark.parametrize(
    "name",
    [
        "Anne",
        "a",
        "x" * 30,
        "e\u0301" * 30,  # 60 code points, 30 after NFC
        "\U0001f468\u200d\U0001f469",  # an emoji sequence with a joiner (U+200D)
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # a Persian name with U+200C
        "Marie\u00a0Claire",  # a no-break space inside (Zs)
        "Jean-Marc",
        "\u0378x",  # unassigned (Cn): allowed
        '=HYPERLINK("//e.vil","x")',  # a formula is a name; the CSV defuses it
        "  Anne  ",  # trimmed
    ],
)
def test_names_that_are_accepted(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("", "chaque joueur doit avoir un nom"),
        ("   ", "chaque joueur doit avoir un nom"),
        ("\u2028", "chaque joueur doit avoir un nom"),  # white space to str.strip()
        (5, "un nom s'écrit en lettres"),
        (None, "un nom s'écrit en lettres"),
        ("x" * 31, f"« {'x' * 31} » a 31 caractères, 30 au plus"),
        ("Anne\x00", "« Anne<U+0000> » contient un caractère invisible ou de contrôle (U+0000)"),
        ("An\x07ne", "« An<U+0007>ne » contient un caractère invisible ou de contrôle (U+0007)"),
        ("Anne\u202e", "« Anne<U+202E> » contient un caractère invisible ou de contrôle (U+202E)"),
        ("An\u200bne", "« An<U+200B>ne » contient un caractère invisible ou de contrôle (U+200B)"),
        ("\ufeffAnne", "« <U+FEFF>Anne » contient un caractère invisible ou de contrôle (U+FEFF)"),
        ("A\u2028B", "« A<U+2028>B » contient un caractère invisible ou de contrôle (U+2028)"),
        ("A\u2029B", "« A<U+2029>B » contient un caractère invisible ou de contrôle (U+2029)"),
        ("A\ue000", "« A<U+E000> » contient un caractère invisible ou de contrôle (U+E000)"),
        ("A\ud800", "« A<U+D800> » contient un caractère invisible ou de contrôle (U+D800)"),
    ],
)
def test_names_that_are_refused_say_why(name, detail: str) -> None:
    problem = name_problem(name)
    assert problem is not None and problem.code == "nom_invalide"
    assert problem.message == f"Nom de joueur refusé : {detail}."


def test_a_long_refused_name_is_cut_in_the_message() -> None:
    problem = name_problem("y" * 500)
    assert (
        problem.message == f"Nom de joueur refusé : « {'y' * 31}… » a 500 caractères, 30 au plus."
    )


def test_the_stored_name_is_trimmed_and_nfc() -> None:
    assert stored_name(" Zoe\u0301 ") == "Zo\u00e9"
    assert len(stored_name("e\u0301" * 30)) == 30
    assert name_key(" ZOE\u0301") == name_key("zoé") == "zoé"
    assert unicodedata.is_normalized("NFC", stored_name("A\u030a"))


@pytest.mark.parametrize(
    ("players", "char"),
    [
        (["Anne", "\u0410nne"], "U+0410 CYRILLIC CAPITAL LETTER A"),
        (["Anne", "\uff21nne"], "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A"),
        (["Anne", "Anne\u200d"], "U+200D ZERO WIDTH JOINER"),
        (["Anne", "An\u200cne"], "U+200C ZERO WIDTH NON-JOINER"),
        (["OLGA", "\u039fLGA"], "U+039F GREEK CAPITAL LETTER OMICRON"),
        (["anne", "\u0430nne"], "U+0430 CYRILLIC SMALL LETTER A"),
        (["ANNE", "\u0430nne"], "U+0430 CYRILLIC SMALL LETTER A"),  # and case folded
        (["Pavel", "\u0420\u0430vel"], "U+0420 CYRILLIC CAPITAL LETTER ER"),
        (["Anne Marie", "Anne  Marie"], "U+0020 SPACE"),
    ],
)
def test_names_that_look_the_same_are_refused_naming_both(players, char: str) -> None:
    err = refusal("classique", [*players, "Bruno"], [])
    assert err.code == "joueurs_semblables"
    assert err.message == (
        f"« {players[0]} » et « {players[1]} » se ressemblent trop pour être deux joueurs de "
        f"la même table ({char}) : écrivez-les autrement."
    )


@pytest.mark.parametrize(
    "players",
    [
        ["Zoé", "Zoe"],  # an accent tells them apart on the marque
        ["Anne", "Anna"],
        ["Ivan", "Иван"],  # Cyrillic Иван does not look like Ivan
        ["\U0001f468\u200d\U0001f469", "\U0001f468"],
    ],
)
def test_names_that_differ_on_the_marque_may_sit_together(players) -> None:
    assert replay("classique", [*players, "Bruno"], []).players == [*players, "Bruno"]


def test_the_skeleton_is_what_the_marque_shows() -> None:
    from games.scoring.players import skeleton

    assert skeleton("\u0410nne") == skeleton("Anne") == skeleton("ＡＮＮＥ") == "anne"
    assert skeleton("An\u200bne\u200d") == "anne"
    assert skeleton("  Zoé ") == "zoe\u0301"

"""docs/rules.md R23 to R28, one test or more per sentence of the rules: generic options,
``fixed_manches: 0``, price lists, manual end after a crossing, flat wins, and the limits and
hygiene of every input (names, numbers, JSON, standard input)."""

from __future__ import annotations

import io
import json
import unicodedata

import pytest

from games.scoring import (
    Config,
    RamiError,
    cli,
    get_preset,
    name_key,
    name_problem,
    replay,
    stored_name,
)
from games.scoring.record import record_from_json

PLAYERS = ["A", "B", "C"]


def win(winner: str, how: str = "rami", **points: int) -> dict:
    return {"winner": winner, "win": how, "hands": {p: {"points": n} for p, n in points.items()}}


def refusal(*args, **kwargs) -> RamiError:
    with pytest.raises(RamiError) as err:
        replay(*args, **kwargs)
    return err.value


# -- R23: table options in every preset ------------------------------------------------------


def test_a_decision_refused_on_the_target_says_the_target_not_the_last_manche() -> None:
    donnes = [win("A", B=60, C=5), {**win("A", B=50, C=5), "rachat": {"B": True}}]
    err = refusal("classique", PLAYERS, donnes, {"target": 100, "threshold": 100})
    assert err.code == "pas_de_rachat_objectif_atteint"
    assert err.message == (
        "Donne 2 : La partie s'est terminée sur l'objectif : B ne se rachète pas, il est classé "
        "à son total."
    )


def test_the_last_manche_keeps_its_own_message() -> None:
    donnes = [win("A", B=60, C=5), {**win("A", B=50, C=5), "rachat": {"B": True}}]
    err = refusal("rami52_7", PLAYERS, donnes, {"fixed_manches": 2})
    assert err.code == "pas_de_rachat_apres_la_derniere_manche"


def test_classique_up_to_a_target_without_elimination_and_rami51_with_a_seuil() -> None:
    result = replay("classique", ["A", "B"], [win("A", B=120)], {"target": 500, "threshold": 1000})
    assert (result.over, result.states[0].totals) == (False, {"A": -10, "B": 120})
    # Rami 51 with a seuil: no rachat unless the table allows some, so a crossing excludes.
    result = replay("rami51", PLAYERS, [win("A", "sortie", B=300, C=5)], {"threshold": 300})
    assert result.states[0].eliminated == {"B": "definitive_exclusion"}


def test_target_and_last_manche_on_the_same_donne_end_on_the_target() -> None:
    result = replay("rami52_7", ["A", "B"], [win("A", B=50)], {"fixed_manches": 1, "target": 50})
    assert result.end_reason == "target_reached"


# -- R24: fixed_manches 0 is none, null the preset's default ---------------------------------


def test_fixed_manches_zero_plays_on_past_the_fourth_manche() -> None:
    donnes = [win("A", B=5, C=5)] * 6
    assert replay("rami52_7", PLAYERS, donnes[:4]).end_reason == "fixed_manches"
    result = replay("rami52_7", PLAYERS, donnes, {"fixed_manches": 0})
    assert (len(result.states), result.over) == (6, False)
    assert replay("rami52_7", PLAYERS, donnes[:4], {"fixed_manches": None}).over


def test_no_fixed_manches_is_written_as_zero_wherever_a_default_would_come_back() -> None:
    preset = get_preset("rami52_7")
    config = Config.from_record(preset, {"fixed_manches": 0})
    assert config.fixed_manches is None
    assert config.changed_from(preset) == {"fixed_manches": 0}
    assert config.to_record()["fixed_manches"] == 0
    assert (
        Config.from_record(get_preset("classique"), {"fixed_manches": 0}).changed_from(
            get_preset("classique")
        )
        == {}
    )


@pytest.mark.parametrize("value", [-1, 2.5, "4", True])
def test_fixed_manches_must_be_a_whole_number(value) -> None:
    err = refusal("classique", PLAYERS, [], {"fixed_manches": value})
    assert (err.code, err.extra["option"]) == ("option_invalide", "fixed_manches")


# -- R25: price lists of any length --------------------------------------------------------


@pytest.mark.parametrize(
    ("prices", "paid"),
    [
        ([100], [100, 100, 100, 100]),
        ([100, 200], [100, 200, 200, 200]),
        ([100, 200, 300, 400], [100, 200, 300, 400]),
    ],
)
def test_rachat_k_pays_the_kth_price_and_later_ones_the_last(prices, paid) -> None:
    config = Config.from_record(get_preset("classique"), {"prix_rachat": prices})
    assert [config.rachat_price(k) for k in range(1, 5)] == paid


def test_an_empty_price_list_is_refused() -> None:
    err = refusal("classique", PLAYERS, [], {"prix_rachat": []})
    assert err.code == "option_invalide"
    assert err.message == (
        "Option « prix_rachat » invalide : un montant en centimes, ou une liste d'au moins un "
        "montant"
    )


def test_a_short_list_is_paid_in_a_replay() -> None:
    donnes = []
    for _round in range(3):  # B crosses three times and buys back each time
        donnes += [{**win("A", B=100, C=1), "rachat": {"B": True}}]
    result = replay("classique", PLAYERS, donnes, {"prix_rachat": [100, 250]})
    assert [s.rachats["B"].price for s in result.states] == [100, 250, 250]
    assert result.states[-1].paid["B"] == 600


# -- R26: manual end right after a crossing ----------------------------------------------------


def test_a_crosser_of_the_last_donne_is_not_asked_after_a_manual_end() -> None:
    result = replay("classique", PLAYERS, [win("A", B=120, C=5)], ended=True)
    assert (result.end_reason, result.pending) == ("manual", [])
    assert result.final.ranking[-1] == (3, "B", 120)
    decided = [{**win("A", B=120, C=5), "rachat": {"B": True}}]
    result = replay("classique", PLAYERS, decided, ended=True)
    assert result.states[0].totals["B"] == 5  # the decision given still applies


def test_a_manual_end_without_donne_is_a_shared_win_at_zero() -> None:
    result = replay("classique", PLAYERS, [], ended=True)
    assert result.final.ranking == [(1, "A", 0), (1, "B", 0), (1, "C", 0)]


# -- R27 ------------------------------------------------------------------------------------


def test_a_flat_win_counts_the_flat_penalty_for_any_subset_of_hands() -> None:
    donne = {"winner": "A", "win": "rami_sec", "hands": {"C": {"cards": ["K"]}}}
    assert replay("rami51", PLAYERS, [donne]).states[0].points == {"A": 0, "B": 200, "C": 200}


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


# -- R28: numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "field", "detail"),
    [
        ({"prix_rachat": 100_000_001}, "prix_rachat", "au plus 100\u00a0000\u00a0000 centimes"),
        (
            {"prix_rachat": [1, 100_000_001]},
            "prix_rachat",
            "au plus 100\u00a0000\u00a0000 centimes",
        ),
        ({"mise_initiale": 100_000_001}, "mise_initiale", "au plus 100\u00a0000\u00a0000 centimes"),
        ({"valeur_point": 100_000_001}, "valeur_point", "au plus 100\u00a0000\u00a0000 centimes"),
        ({"threshold": 100_001}, "threshold", "au plus 100\u00a0000"),
        ({"target": 100_001}, "target", "au plus 100\u00a0000"),
        ({"fixed_manches": 1001}, "fixed_manches", "au plus 1\u00a0000"),
        ({"threshold": 10**5000}, "threshold", "au plus 100\u00a0000"),  # never written out
    ],
)
def test_options_past_their_limit(config: dict, field: str, detail: str) -> None:
    err = refusal("classique", PLAYERS, [], config)
    assert err.code == "valeur_hors_limites"
    assert err.message == f"Valeur hors limites pour « {field} » : {detail}."


def test_options_at_their_limit_are_accepted() -> None:
    config = {
        "prix_rachat": [100_000_000],
        "mise_initiale": 100_000_000,
        "valeur_point": 100_000_000,
        "threshold": 100_000,
        "target": 100_000,
        "fixed_manches": 1000,
    }
    result = replay("classique", ["A", "B"], [win("A", B=1000)], config)
    # (1000 + 10) points at 1 000 000,00 a point, and B's stake in the cagnotte.
    assert result.final.net == {"A": 101_100_000_000, "B": -101_100_000_000}


def test_a_hand_holds_at_most_1000_points() -> None:
    up_to = {"threshold": 5000}
    result = replay("rami40", ["A", "B"], [win("A", "sortie_rami", B=1000)], up_to)
    assert result.states[0].points == {"A": 0, "B": 1000}
    err = refusal("rami40", ["A", "B"], [win("A", "sortie_rami", B=1001)], up_to)
    assert err.code == "valeur_hors_limites"
    assert err.message == (
        "Donne 1 : Valeur hors limites pour « points de B » : au plus 1\u00a0000 pour une main."
    )


def test_too_many_jokers_keep_their_own_code() -> None:
    donne = {"winner": "A", "win": "rami", "hands": {"B": {"points": 1, "jokers": 10**11}}}
    assert refusal("classique", ["A", "B"], [donne]).code == "trop_de_jokers"


# -- R28: records ---------------------------------------------------------------------------


def record_text(players: str = '["A", "B"]', config: str = "{}", donnes: str = "[]") -> str:
    return (
        f'{{"preset": "classique", "players": {players}, "config": {config}, "donnes": {donnes}}}'
    )


def refused_text(text: str) -> RamiError:
    with pytest.raises(RamiError) as err:
        record_from_json(text)
    return err.value


def test_nesting_up_to_16_levels_is_read_and_17_is_refused() -> None:
    # The record's own 6 levels; then a donne nested as deep as allowed (caught by the shape).
    assert refused_text(record_text(donnes="[" * 15 + "]" * 15)).code == "donne_invalide"
    err = refused_text(record_text(donnes="[" * 16 + "]" * 16))
    assert err.code == "enregistrement_invalide"
    assert "plus de 16 niveaux d'imbrication, à « donnes[1]" in err.message
    err = refused_text("[" * 100_000 + "]" * 100_000)
    assert err.message == "Fichier de partie illisible : plus de 16 niveaux d'imbrication"


@pytest.mark.parametrize("literal", ["999999999999", "-999999999999"])
def test_twelve_digits_are_read(literal: str) -> None:
    err = refused_text(record_text(config=f'{{"threshold": {literal}}}'))
    assert err.code in ("valeur_hors_limites", "option_invalide")
    assert "chiffres" not in err.message  # refused by the threshold's own limit, not the digits


@pytest.mark.parametrize("digits", [13, 4301, 100_000])
def test_an_integer_of_more_than_12_digits_is_named_by_its_place(digits: int) -> None:
    err = refused_text(record_text(donnes='[{"winner": "A", "win": "rami", "hands": '
                                         '{"B": {"points": -' + "9" * digits + "}}}]"))  # fmt: skip
    assert (err.code, err.donne) == ("valeur_hors_limites", 1)
    assert err.message == (
        "Donne 1 : Valeur hors limites pour « hands.B.points » : un nombre de plus de 12 chiffres."
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant: str) -> None:
    err = refused_text(record_text(config=f'{{"mise_initiale": {constant}}}'))
    assert err.message == f"Fichier de partie illisible : « {constant} » n'est pas une valeur JSON"


def test_a_lone_surrogate_is_refused_and_a_pair_is_a_character() -> None:
    err = refused_text(record_text(players='["A", "B\\udc00"]'))
    assert err.message == (
        "Fichier de partie illisible : à « players[2] », un caractère qui n'existe pas (U+DC00)"
    )
    record = record_from_json(record_text(players='["A", "\\ud83c\\udccf"]'))
    assert record.players == ["A", "\U0001f0cf"]


# -- R28: rami score ------------------------------------------------------------------------


def run(stdin: io.TextIOBase, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["score", "-", *args], stdin=stdin, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_rami_score_refuses_invalid_utf8_on_standard_input() -> None:
    raw = record_text(players='["Ren\xe9", "B"]').encode("latin-1")
    status, out, err = run(io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"), "--format", "json")
    assert status == 1
    assert json.loads(out)["error"] == {
        "code": "enregistrement_invalide",
        "donne": None,
        "message": "Fichier de partie illisible : l'entrée standard n'est pas en UTF-8",
    }
    # What Python's own stdin makes of such bytes (surrogateescape) is refused the same way.
    text = raw.decode("utf-8", errors="surrogateescape")
    assert run(io.StringIO(text), "--format", "json")[1] == out


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        record_text(config='{"valeur_point": ' + "9" * 5000 + "}"),
        record_text(config='{"valeur_point": 100000001}'),
    ],
)
def test_rami_score_answers_json_never_a_traceback(text: str) -> None:
    status, out, err = run(io.StringIO(text), "--format", "json")
    assert status == 1
    assert json.loads(out)["error"]["code"] in ("enregistrement_invalide", "valeur_hors_limites")
    assert err.startswith("Erreur ") and "Traceback" not in err


def test_rami_score_prints_the_largest_result_the_limits_allow() -> None:
    donnes = ", ".join(['{"winner": "A", "win": "rami", "hands": {"B": {"points": 49}}}'] * 2)
    text = record_text(config='{"valeur_point": 100000000}', donnes=f"[{donnes}]")
    status, out, _err = run(io.StringIO(text), "--format", "json")
    assert status == 0
    assert json.loads(out)["final"]["net"] == {"A": 11_800_000_000, "B": -11_800_000_000}


def test_rami_score_writes_the_trimmed_names() -> None:
    text = record_text(players='["  Anne ", "Bruno"]', donnes='[{"winner": "anne", "win": '
                       '"rami", "hands": {"BRUNO": {"points": 3}}}]')  # fmt: skip
    status, out, _err = run(io.StringIO(text), "--format", "csv")
    assert status == 0
    assert out.splitlines()[0] == (
        "donne,gagnant,gain,Anne points,Anne total,Anne note,"
        "Bruno points,Bruno total,Bruno note,fin"
    )

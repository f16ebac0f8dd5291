"""Reading JSON that anybody may have written (games/scoring/jsontext.py; docs/rules.md R28):
nesting, long integers, NaN and Infinity, lone surrogates."""

from __future__ import annotations

import pytest

from games.scoring import RamiError
from games.scoring.record import record_from_json

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

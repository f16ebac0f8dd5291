"""``rami score``: text, JSON (every examples.json state), CSV and refused records."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from games.scoring import cli
from games.scoring.cli import format_euros, main

from .conftest import load_examples
from .helpers import donne

PARTIE_CASES = load_examples()["partie_cases"]


def _record(case: dict) -> dict:
    return {
        "preset": case["preset"],
        "players": case["players"],
        "config": case["config"],
        "donnes": [d["input"] for d in case["donnes"]],
        "ended": False,
    }


def _run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", PARTIE_CASES, ids=[c["id"] for c in PARTIE_CASES])
def test_json_reproduces_every_state_and_the_final(case: dict, tmp_path: Path) -> None:
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(_record(case)), encoding="utf-8")
    code, out, err = _run(["score", str(path), "--format", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["donnes"] == [d["expected"] for d in case["donnes"]]
    assert data["final"] == case["expected_final"]


def test_text_marque_from_stdin() -> None:
    code, out, _ = _run(["score", "-"], json.dumps(_record(PARTIE_CASES[0])))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Rami classique — 3 joueurs"
    assert lines[2].split() == ["Donne", "Gagnant", "Alice", "Bruno", "Chloé"]
    # Donne 3: Bruno framed at 137, buys back (rachat 1) at 27; donne 5: Chloé declines.
    assert "+78 = [137] R1→27" in lines[5]
    assert "+33 = [102] abandon" in lines[7]
    assert lines[9].endswith("—")
    assert "Partie terminée : un seul joueur reste en course." in lines
    assert "  1. Alice (63)" in lines
    assert "Cagnotte : 5,00 €" in lines
    assert "  Alice +4,00 €" in lines
    assert "  Bruno → Alice : 3,00 €" in lines


def test_csv_one_row_per_donne(tmp_path: Path) -> None:
    path = tmp_path / "p4.json"
    path.write_text(json.dumps(_record(PARTIE_CASES[1])), encoding="utf-8")
    code, out, _ = _run(["score", str(path), "--format", "csv"])
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 1 + 4
    assert rows[0].startswith("donne,gagnant,gain,Paul points,Paul total,Paul note,")
    assert rows[2] == "2,,talon_epuise,18,18,,26,57,franchissement 1 R1→57,30,57,,5,17,,"
    assert rows[4].endswith(",fixed_manches")


REFUSED = {
    "preset": "classique",
    "players": ["A", "B"],
    "donnes": [donne("A", "rami", {"B": "K"}), donne("A", "rami", {"B": ("K", 5)})],
}


def test_refused_record_text() -> None:
    code, out, err = _run(["score", "-"], json.dumps(REFUSED))
    assert (code, out) == (1, "")
    assert err == (
        "Erreur trop_de_jokers (donne 2) : Donne 2 : La main de B a 5 jokers ; "
        "ce jeu n'en a que 4.\n"
    )


def test_refused_record_json() -> None:
    code, out, _ = _run(["score", "-", "--format", "json"], json.dumps(REFUSED))
    assert code == 1
    assert json.loads(out) == {
        "error": {
            "code": "trop_de_jokers",
            "donne": 2,
            "message": "Donne 2 : La main de B a 5 jokers ; ce jeu n'en a que 4.",
        }
    }


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("{not json", "ce n'est pas du JSON (ligne 1, colonne 2)"),
        ("[1, 2]", "le fichier doit contenir un objet JSON {…}"),
        ('{"preset": "classique", "players": ["A", "B"]}', "le champ « donnes » manque"),
        ('{"preset": "classique", "players": "A B", "donnes": []}', "« players » doit être"),
        ('{"preset": 3, "players": [], "donnes": []}', "« preset » doit nommer un jeu"),
        ('{"preset": "classique", "players": [], "donnes": {}}', "« donnes » doit être une liste"),
        ('{"preset": "classique", "players": [], "donnes": [], "x": 1}', "champ inconnu « x »"),
    ],
)
def test_bad_json_or_wrong_shape_is_a_clear_error(text: str, detail: str) -> None:
    code, out, err = _run(["score", "-"], text)
    assert (code, out) == (1, "")
    assert err.startswith("Erreur enregistrement_invalide : Fichier de partie illisible : ")
    assert detail in err
    assert "Traceback" not in err


def test_missing_file(tmp_path: Path) -> None:
    code, _, err = _run(["score", str(tmp_path / "absent.json")])
    assert code == 1
    assert "absent.json : No such file or directory" in err


@pytest.mark.parametrize(
    ("centimes", "signed", "text"),
    [(400, False, "4,00 €"), (-300, True, "-3,00 €"), (5, True, "+0,05 €"), (123456, False,
     "1 234,56 €"), (0, True, "0,00 €")],
)  # fmt: skip
def test_format_euros(centimes: int, signed: bool, text: str) -> None:
    assert format_euros(centimes, signed=signed) == text


def record_text(players: str = '["A", "B"]', config: str = "{}", donnes: str = "[]") -> str:
    return (
        f'{{"preset": "classique", "players": {players}, "config": {config}, "donnes": {donnes}}}'
    )


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

"""``rami score FILE``: replay a recorded partie and print its marque (text, JSON or CSV).

Runs without Django (``python -m games.scoring.cli score FILE``); the management command
``python manage.py rami score FILE`` is a thin wrapper around ``score``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import unicodedata
from typing import TextIO

from .donne import DonneState
from .errors import N_, Detail, RamiError
from .final import Final
from .presets import ELIMINATION_REASONS, END_REASONS
from .record import Record, record_from_json
from .replay import Replay

FORMATS = ("text", "json", "csv")


class ScoreFailure(Exception):
    """A refused record: ``stdout`` is what JSON mode prints, ``str(self)`` the error line."""

    def __init__(self, message: str, stdout: str = "") -> None:
        super().__init__(message)
        self.stdout = stdout


def format_euros(centimes: int, *, signed: bool = False) -> str:
    """``400`` → ``4,00 €``; ``signed`` adds ``+`` to gains. Money stays integer until here."""
    sign = "-" if centimes < 0 else ("+" if signed and centimes > 0 else "")
    euros, cents = divmod(abs(centimes), 100)
    return f"{sign}{euros:,}".replace(",", " ") + f",{cents:02d} €"


# -- text ---------------------------------------------------------------------------------------


def _cell(state: DonneState, player: str) -> str:
    if player not in state.points:
        return "—"
    total = state.totals_before_rachat[player]
    # Seed 000 §5: totals at or above the seuil are framed on the marque.
    shown = f"[{total}]" if player in state.crossings else str(total)
    text = f"{state.points[player]:+d} = {shown}"
    if player in state.rachats:
        rachat = state.rachats[player]
        text += f" R{rachat.number}→{rachat.restart}"
    if player in state.eliminated:
        text += f" {ELIMINATION_REASONS[state.eliminated[player]]}"
    return text


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]


def _winner_cell(record: Record, state: DonneState) -> str:
    label = record.preset.all_win_types()[state.win]
    return f"{state.winner} ({label.lower()})" if state.winner else label


def _money_lines(record: Record, final: Final) -> list[str]:
    lines = [f"Cagnotte : {format_euros(final.pot)}"]
    if any(final.points_settlement.values()):
        lines.append("Règlement des points :")
        lines += [
            f"  {p} {format_euros(v, signed=True)}" for p, v in final.points_settlement.items()
        ]
    lines.append("Bilan :")
    lines += [f"  {p} {format_euros(final.net[p], signed=True)}" for p in record.players]
    transfers = final.transfers()
    if transfers:
        lines.append("Qui paie qui :")
        lines += [f"  {a} → {b} : {format_euros(amount)}" for a, b, amount in transfers]
    return lines


def render_text(record: Record, result: Replay) -> str:
    rows = [["Donne", "Gagnant", *record.players]]
    for state in result.states:
        cells = [_cell(state, p) for p in record.players]
        rows.append([str(state.number), _winner_cell(record, state), *cells])
    lines = [f"{record.preset.label} — {len(record.players)} joueurs", "", *_table(rows), ""]
    final = result.final
    assert final is not None
    if result.over:
        lines.append(f"Partie terminée : {END_REASONS[result.end_reason or 'manual']}.")
    else:
        lines.append("Partie en cours : classement provisoire.")
    lines.append("Classement :")
    lines += [f"  {rank}. {name} ({total})" for rank, name, total in final.ranking]
    lines += _money_lines(record, final)
    return "\n".join(lines) + "\n"


# -- json and csv --------------------------------------------------------------------------------

# OWASP, CSV injection: a spreadsheet reads a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _number_text(text: str) -> bool:
    """``-10``, ``-12,50``: numbers written out (decimal comma), which stay numbers."""
    digits = text[1:] if text.startswith("-") else text
    whole, _comma, cents = digits.partition(",")
    return (
        whole.isascii()
        and whole.isdigit()
        and (not _comma or (cents.isascii() and cents.isdigit()))
    )


def _hidden_start(char: str) -> bool:
    """A first character a spreadsheet may skip before it reads the rest as a formula: white
    space of any kind (a line feed, U+00A0, U+0085…), a control or an invisible character
    (U+200B, U+FEFF, U+2066…)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def csv_cell(value: object) -> object:
    """A cell as a spreadsheet must show it: text starting like a formula (``=HYPERLINK(…)``,
    ``+1``, ``@SUM(A1)``), or with anything a formula could hide behind (a line feed, a
    space, an invisible character), gets a leading ``'`` and is shown, not run; numbers stay
    numbers. Every cell goes through here, whatever it holds (a name, a note, a header)."""
    if (
        isinstance(value, str)
        and value
        and (value.startswith(FORMULA_STARTS) or _hidden_start(value[0]))
        and not _number_text(value)
    ):
        return "'" + value
    return value


def csv_row(values: list[object]) -> list[object]:
    return [csv_cell(v) for v in values]


def render_json(result: Replay) -> str:
    assert result.final is not None
    data = {"donnes": [s.to_dict() for s in result.states], "final": result.final.to_dict()}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _note(state: DonneState, player: str) -> str:
    notes = []
    if player in state.crossings:
        notes.append(f"franchissement {state.crossings[player]}")
    if player in state.rachats:
        rachat = state.rachats[player]
        notes.append(f"R{rachat.number}→{rachat.restart}")
    if player in state.eliminated:
        notes.append(state.eliminated[player])
    return " ".join(notes)


def render_csv(record: Record, result: Replay) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["donne", "gagnant", "gain"]
    for player in record.players:
        header += [f"{player} points", f"{player} total", f"{player} note"]
    writer.writerow(csv_row([*header, "fin"]))
    for state in result.states:
        row: list[object] = [state.number, state.winner or "", state.win]
        for player in record.players:
            row += [state.points.get(player, ""), state.totals[player], _note(state, player)]
        writer.writerow(csv_row([*row, state.end_reason or ""]))
    return out.getvalue()


# -- entry points --------------------------------------------------------------------------------


def _not_utf8(path: str) -> RamiError:
    # docs/rules.md R28: a record is UTF-8, on standard input as in a file.
    if path == "-":
        return RamiError(
            "enregistrement_invalide", detail=N_("l'entrée standard n'est pas en UTF-8")
        )
    detail = Detail(N_("%(path)s n'est pas en UTF-8"), path=path)
    return RamiError("enregistrement_invalide", detail=detail)


def _read_stdin(stdin: TextIO) -> str:
    """Standard input as UTF-8, strictly: Python's own ``sys.stdin`` lets bad bytes through
    as lone surrogates (``surrogateescape``), which would be written back out."""
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        try:
            return buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            raise _not_utf8("-") from None
    text = stdin.read()
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _not_utf8("-") from None
    return text


def _read(path: str, stdin: TextIO) -> str:
    if path == "-":
        return _read_stdin(stdin)
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as err:
        raise RamiError("enregistrement_invalide", detail=f"{path} : {err.strerror}") from None
    except UnicodeDecodeError:
        raise _not_utf8(path) from None


def score(path: str, fmt: str, stdin: TextIO) -> str:
    """Return the marque of the record at ``path``; raise ScoreFailure if it is refused."""
    try:
        record = record_from_json(_read(path, stdin))
        result = record.replay()
    except RamiError as err:
        error = {"code": err.code, "donne": err.donne, "message": err.message}
        where = f" (donne {err.donne})" if err.donne is not None else ""
        payload = json.dumps({"error": error}, ensure_ascii=False) + "\n" if fmt == "json" else ""
        raise ScoreFailure(f"Erreur {err.code}{where} : {err.message}", payload) from None
    if fmt == "json":
        return render_json(result)
    if fmt == "csv":
        return render_csv(record, result)
    return render_text(record, result)


def add_score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="fichier JSON de la partie, ou - pour l'entrée standard")
    parser.add_argument("--format", choices=FORMATS, default="text", help="format de sortie")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rami", description="Marque du Rami.")
    actions = parser.add_subparsers(dest="action", required=True)
    add_score_arguments(actions.add_parser("score", help="rejouer une partie et la marquer"))
    return parser


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        stdout.write(score(args.file, args.format, stdin))
    except ScoreFailure as failure:
        stdout.write(failure.stdout)
        stderr.write(f"{failure}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

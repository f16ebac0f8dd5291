"""A partie as files: the JSON export (and the record it carries, re-importable), the CSV
marque for a spreadsheet, the backup of an account, and the one reader of an uploaded file
(the import page, the backup restore and ``rami import`` all read through ``read_upload``).
Pure conversions: the engine checks what is read before anything is created."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from games.display.observations import observations
from games.options import record_options
from games.scoring import DonneInput, RamiError, Replay, get_preset
from games.scoring.errors import N_, Detail, not_json
from games.selectors import PartieData

FORMAT = "ramiscore/1"
# A backup: every partie of an account, each in the export format above (issue #7).
BACKUP_FORMAT = "ramiscore-sauvegarde/1"


def partie_record(data: PartieData) -> dict[str, Any]:
    """The game record (docs/rules.md §1 shape), as ``rami score`` reads it; money in centimes.

    Only the options the table changed are written: an absent option is the preset default.
    """
    return {
        "preset": data.partie.preset,
        "players": data.names,
        "config": record_options(data.partie),
        "donnes": [DonneInput.from_dict(d).to_dict() for d in data.inputs()],
        "ended": data.partie.ended,
    }


def paid_dict(data: PartieData) -> dict[str, Any]:
    """What the scorekeeper ticked as paid: stakes by player, rachats by (donne, player)."""
    return {
        "mises": [j.name for j in data.joueurs if j.stake_paid],
        "rachats": [
            [donne.number, rachat.joueur.name]
            for donne in data.donnes
            for rachat in data.rachats_of(donne)
            if rachat.paid
        ],
    }


def export_dict(data: PartieData, result: Replay) -> dict[str, Any]:
    partie = data.partie
    assert result.final is not None
    return {
        "format": FORMAT,
        "name": partie.name,
        "created_at": partie.created_at.isoformat(),
        "updated_at": partie.updated_at.isoformat(),
        "payes": paid_dict(data),
        "record": partie_record(data),
        "states": [state.to_dict() for state in result.states],
        "final": result.final.to_dict(),
    }


def export_json(data: PartieData, result: Replay) -> str:
    return json.dumps(export_dict(data, result), ensure_ascii=False, indent=2) + "\n"


def decimal_comma(centimes: int) -> str:
    """``-1250`` → ``-12,50``: French Excel reads a comma as the decimal separator."""
    sign = "-" if centimes < 0 else ""
    units, cents = divmod(abs(centimes), 100)
    return f"{sign}{units},{cents:02d}"


def export_csv(data: PartieData, result: Replay) -> str:
    """One row per donne, ``;``-separated as French Excel expects; the BOM is the view's."""
    partie = data.partie
    preset = get_preset(partie.preset)
    labels = preset.all_win_types()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    header = ["Donne", "Gagnant", "Gain"]
    for name in data.names:
        header += [f"{name} points", f"{name} total"]
    writer.writerow([*header, "Observations"])
    notes = observations(result.states, data.names)
    for state, note in zip(result.states, notes, strict=True):
        row: list[object] = [state.number, state.winner or "", labels.get(state.win, state.win)]
        for name in data.names:
            row += [state.points.get(name, ""), state.totals[name]]
        writer.writerow([*row, note])
    final = result.final
    assert final is not None
    if final.pot or any(final.net.values()):
        writer.writerow([])
        writer.writerow(["Cagnotte", decimal_comma(final.pot)])
        writer.writerow(["Joueur", "Mis au pot", "Règlement des points", "Net"])
        for name in data.names:
            writer.writerow(
                [
                    name,
                    decimal_comma(final.into_pot[name]),
                    decimal_comma(final.points_settlement[name]),
                    decimal_comma(final.net[name]),
                ]
            )
    return out.getvalue()


def backup_dict(parties: list[tuple[PartieData, Replay]], exported_at: str) -> dict[str, Any]:
    return {
        "format": BACKUP_FORMAT,
        "exported_at": exported_at,
        "parties": [export_dict(data, result) for data, result in parties],
    }


@dataclass(frozen=True)
class Uploaded:
    """One partie read from a file: the game record, and what an export adds to it."""

    record: Any
    name: str | None = None
    created_at: datetime | None = None
    payes: dict[str, Any] = field(default_factory=dict)
    from_backup: bool = False


def uploaded_records(data: Any) -> list[Uploaded]:
    """Every partie in an uploaded file: a backup holds many, an export or a record one."""
    if isinstance(data, dict) and data.get("format") == BACKUP_FORMAT:
        parties = data.get("parties")
        if not isinstance(parties, list) or not parties:
            raise RamiError(
                "enregistrement_invalide", detail=N_("la sauvegarde ne contient aucune partie")
            )
        return [replace(uploaded_record(partie), from_backup=True) for partie in parties]
    return [uploaded_record(data)]


def uploaded_record(data: Any) -> Uploaded:
    """The record inside an uploaded file: our export format, or a bare record (``rami score``)."""
    if isinstance(data, dict) and "format" in data:
        if data["format"] != FORMAT:
            detail = Detail(N_("format « %(format)s » inconnu"), format=data["format"])
            raise RamiError("enregistrement_invalide", detail=detail)
        name = data.get("name")
        payes = data.get("payes")
        return Uploaded(
            record=data.get("record"),
            name=name if isinstance(name, str) else None,
            created_at=_datetime(data.get("created_at")),
            payes=payes if isinstance(payes, dict) else {},
        )
    return Uploaded(record=data)


def _datetime(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else None


MAX_UPLOAD_BYTES = 2_000_000  # a 200-donne partie of 8 players is about 150 kB


def read_upload(raw: bytes, *, size: int | None = None) -> list[Uploaded]:
    """Every partie in an uploaded file (UTF-8 JSON, a BOM allowed); a RamiError says why
    the file cannot be read."""
    if (size if size is not None else len(raw)) > MAX_UPLOAD_BYTES:
        raise RamiError("enregistrement_invalide", detail=N_("le fichier dépasse 2 Mo"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RamiError("enregistrement_invalide", detail=N_("il n'est pas en UTF-8")) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RamiError("enregistrement_invalide", detail=not_json(err)) from None
    return uploaded_records(data)

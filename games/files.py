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
from games.errors import PartieError
from games.options import record_options
from games.replays import Stored
from games.scoring import DonneInput, RamiError, get_preset
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


def export_dict(data: PartieData, stored: Stored) -> dict[str, Any]:
    """The export of a partie: ``data`` holds every donne, ``stored`` every state."""
    partie = data.partie
    return {
        "format": FORMAT,
        "name": partie.name,
        "created_at": partie.created_at.isoformat(),
        "updated_at": partie.updated_at.isoformat(),
        "payes": paid_dict(data),
        "record": partie_record(data),
        "states": [state.to_dict() for state in stored.states],
        "final": stored.summary.final.to_dict(),
    }


def export_json(data: PartieData, stored: Stored) -> str:
    return json.dumps(export_dict(data, stored), ensure_ascii=False, indent=2) + "\n"


def decimal_comma(centimes: int) -> str:
    """``-1250`` → ``-12,50``: French Excel reads a comma as the decimal separator."""
    sign = "-" if centimes < 0 else ""
    units, cents = divmod(abs(centimes), 100)
    return f"{sign}{units},{cents:02d}"


def export_csv(stored: Stored) -> str:
    """One row per donne, ``;``-separated as French Excel expects; the BOM is the view's."""
    partie = stored.partie
    names = stored.names
    preset = get_preset(partie.preset)
    labels = preset.all_win_types()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    header = ["Donne", "Gagnant", "Gain"]
    for name in names:
        header += [f"{name} points", f"{name} total"]
    writer.writerow([*header, "Observations"])
    notes = observations(stored.states, names)
    for state, note in zip(stored.states, notes, strict=True):
        row: list[object] = [state.number, state.winner or "", labels.get(state.win, state.win)]
        for name in names:
            row += [state.points.get(name, ""), state.totals[name]]
        writer.writerow([*row, note])
    final = stored.summary.final
    if final.pot or any(final.net.values()):
        writer.writerow([])
        writer.writerow(["Cagnotte", decimal_comma(final.pot)])
        writer.writerow(["Joueur", "Mis au pot", "Règlement des points", "Net"])
        for name in names:
            writer.writerow(
                [
                    name,
                    decimal_comma(final.into_pot[name]),
                    decimal_comma(final.points_settlement[name]),
                    decimal_comma(final.net[name]),
                ]
            )
    return out.getvalue()


def backup_dict(parties: list[tuple[PartieData, Stored]], exported_at: str) -> dict[str, Any]:
    return {
        "format": BACKUP_FORMAT,
        "exported_at": exported_at,
        "parties": [export_dict(data, stored) for data, stored in parties],
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


# The limits of one uploaded file (README "Limits"); the same for the import page, the backup
# restore and ``rami import``, which all read through ``read_upload``. The largest partie the
# rules allow (docs/rules.md R28: 1000 donnes; §8: 7 players) exported with 30-character names
# and every loser's 15 cards written out is 4.6 MB: 10 MB admits it with room to spare.
MAX_UPLOAD_BYTES = 10_000_000
# A bigger backup is restored in pieces. These bound what one import holds in memory before
# writing anything, and above all its one write transaction, during which every other write
# waits (SQLite): its inserts take about 0.5 s per 1000 donnes of 7 players (2-CPU server).
MAX_PARTIES_PER_FILE = 200
MAX_DONNES_PER_FILE = 5000


def read_upload(raw: bytes, *, size: int | None = None) -> list[Uploaded]:
    """Every partie in an uploaded file (UTF-8 JSON, a BOM allowed); a RamiError says why
    the file cannot be read, or which limit it passes."""
    if (size if size is not None else len(raw)) > MAX_UPLOAD_BYTES:
        raise PartieError("fichier_trop_gros", max=MAX_UPLOAD_BYTES // 1_000_000)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RamiError("enregistrement_invalide", detail=N_("il n'est pas en UTF-8")) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RamiError("enregistrement_invalide", detail=not_json(err)) from None
    uploads = uploaded_records(data)
    if len(uploads) > MAX_PARTIES_PER_FILE:
        raise PartieError("trop_de_parties", count=len(uploads), max=MAX_PARTIES_PER_FILE)
    donnes = sum(_donnes_in(upload.record) for upload in uploads)
    if donnes > MAX_DONNES_PER_FILE:
        raise PartieError("trop_de_donnes", count=donnes, max=MAX_DONNES_PER_FILE)
    return uploads


def _donnes_in(record: Any) -> int:
    """How many donnes a record holds, before the engine reads it (which says what is wrong
    with one that is not a record)."""
    donnes = record.get("donnes") if isinstance(record, dict) else None
    return len(donnes) if isinstance(donnes, list) else 0

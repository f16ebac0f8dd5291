"""A partie as files: the JSON export (and the record it carries, re-importable), the CSV
marque for a spreadsheet, the backup of an account, and the one reader of an uploaded file
(the import page, the backup restore and ``rami import`` all read through ``read_upload``).
Pure conversions: the engine checks what is read before anything is created."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from games.display.observations import observations
from games.errors import PartieError
from games.options import record_options
from games.scoring import DonneInput, DonneState, RamiError, get_preset
from games.scoring.cli import csv_row
from games.scoring.errors import N_, Detail
from games.scoring.jsontext import check_tree, load_json
from games.scoring.players import shown
from games.selectors import PartieState
from games.validators import MAX_NOTE, note_problem, note_text

FORMAT = "ramiscore/1"
# A backup: every partie of an account, each in the export format above.
BACKUP_FORMAT = "ramiscore-sauvegarde/1"


def partie_record(data: PartieState) -> dict[str, Any]:
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


def paid_dict(data: PartieState) -> dict[str, Any]:
    """What the scorekeeper ticked as paid: stakes by player, rachats by (donne, player)."""
    return {
        "mises": [j.name for j in data.joueurs if j.mise_paid],
        "rachats": [
            [donne.number, rachat.joueur.name]
            for donne in data.donnes
            for rachat in data.rachats_of(donne)
            if rachat.paid
        ],
    }


def export_dict(data: PartieState) -> dict[str, Any]:
    """The export of a partie: ``data`` holds every donne and every state
    (selectors.partie_export)."""
    partie = data.partie
    return {
        "format": FORMAT,
        "name": partie.name,
        "created_at": partie.created_at.isoformat(),
        "updated_at": partie.updated_at.isoformat(),
        "payes": paid_dict(data),
        # Not part of the game record (the engine never reads them).
        "note": partie.note,
        "premier_donneur": partie.first_dealer,
        "donneurs": _export_dealers(data),
        "record": partie_record(data),
        "states": [state.to_dict() for state in data.states],
        "final": data.summary.final.to_dict(),
    }


def _export_dealers(data: PartieState) -> list[str | None]:
    """Who dealt each donne (docs/rules.md "Le donneur"), None where it was not recorded."""
    names = {j.pk: j.name for j in data.joueurs}
    return [names.get(donne.dealer_id) for donne in data.donnes]


def export_json(data: PartieState) -> str:
    return json.dumps(export_dict(data), ensure_ascii=False, indent=2) + "\n"


def decimal_comma(centimes: int) -> str:
    """``-1250`` → ``-12,50``: French Excel reads a comma as the decimal separator."""
    sign = "-" if centimes < 0 else ""
    units, cents = divmod(abs(centimes), 100)
    return f"{sign}{units},{cents:02d}"


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``csv_row`` (OWASP's CSV injection
    guidance): a text starting with = + - @, a tab or a carriage return gets a leading ',
    and numbers, ``-10`` or ``-12,50``, stay numbers."""

    def __init__(self, out: io.StringIO, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: list[object]) -> None:
        self._writer.writerow(csv_row(row))


def total_cell(state: DonneState, name: str) -> object:
    """A player's total on a row of the CSV. After a rachat, as on the sheet, the framed
    total that crossed and the restart (``111 R1 → 68``), not the restart alone."""
    rachat = state.rachats.get(name)
    if rachat is None:
        return state.totals[name]
    crossed = state.totals_before_rachat[name]
    return f"{crossed} R{rachat.number} → {rachat.restart}"


def export_csv(stored: PartieState, dealers: dict[int, str] | None = None) -> str:
    """One row per donne, ``;``-separated as French Excel expects; the BOM is the view's.
    ``dealers``: who dealt each donne, by number (docs/rules.md "Le donneur")."""
    dealers = dealers or {}
    partie = stored.partie
    names = stored.names
    preset = get_preset(partie.preset)
    labels = preset.all_win_types()
    out = io.StringIO()
    # Every row through csv_row: a name such as =HYPERLINK(…) is shown, never run (OWASP).
    writer = SafeWriter(out, delimiter=";", lineterminator="\r\n")
    header = ["Donne", "Gagnant", "Gain"]
    for name in names:
        header += [f"{name} points", f"{name} total"]
    writer.writerow([*header, "Observations", "Donneur"])
    notes = observations(stored.states, names)
    for state, note in zip(stored.states, notes, strict=True):
        row: list[object] = [state.number, state.winner or "", labels.get(state.win, state.win)]
        for name in names:
            row += [state.points.get(name, ""), total_cell(state, name)]
        writer.writerow([*row, note, dealers.get(state.number, "")])
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
    if stored.partie.note:
        writer.writerow([])
        writer.writerow(["Note", stored.partie.note])
    return out.getvalue()


def backup_dict(parties: list[PartieState], exported_at: str) -> dict[str, Any]:
    return {
        "format": BACKUP_FORMAT,
        "exported_at": exported_at,
        "parties": [export_dict(data) for data in parties],
    }


@dataclass(frozen=True)
class Uploaded:
    """One partie read from a file: the game record, and what an export adds to it."""

    record: Any
    name: str | None = None
    created_at: datetime | None = None
    payes: dict[str, Any] = field(default_factory=dict)
    from_backup: bool = False
    # Absent from older exports; present, checked as the forms check them
    # (``_table``; the dealers by the import, against who is en course at each donne).
    note: str = ""
    first_dealer: int = 1
    dealers: list[str | None] = field(default_factory=list)


def uploaded_records(data: Any) -> list[Uploaded]:
    """Every partie in an uploaded file: a backup holds many, an export or a record one."""
    if isinstance(data, dict) and data.get("format") == BACKUP_FORMAT:
        parties = data.get("parties")
        if not isinstance(parties, list) or not parties:
            raise RamiError(
                "enregistrement_invalide", detail=N_("la sauvegarde ne contient aucune partie")
            )
        uploads = []
        for n, partie in enumerate(parties, 1):
            try:
                uploads.append(replace(uploaded_record(partie), from_backup=True))
            except RamiError as err:
                # Say which partie of the backup, as the import does for its records.
                name = partie.get("name") if isinstance(partie, dict) else None
                name = shown(name) if isinstance(name, str) else ""
                raise PartieError("partie_refusee", n=n, name=name, cause=err) from err
        return uploads
    return [uploaded_record(data)]


def uploaded_record(data: Any) -> Uploaded:
    """The record inside an uploaded file: our export format, or a bare record (``rami score``)."""
    if isinstance(data, dict) and "format" in data:
        if data["format"] != FORMAT:
            detail = Detail(N_("format « %(format)s » inconnu"), format=data["format"])
            raise RamiError("enregistrement_invalide", detail=detail)
        for key in ("name", "note"):
            # What the app stores as it is, beside the engine's checks: PostgreSQL cannot
            # store a NUL.
            if isinstance(data.get(key), str) and "\x00" in data[key]:
                detail = Detail(N_("« %(field)s » contient un caractère nul"), field=key)
                raise RamiError("enregistrement_invalide", detail=detail)
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise RamiError("enregistrement_invalide", detail=N_("« name » doit être un texte"))
        return Uploaded(
            record=data.get("record"),
            name=name,
            created_at=_datetime(data.get("created_at")),
            payes=_payes(data.get("payes")),
            **_table(data),
        )
    return Uploaded(record=data)


def _table(data: dict[str, Any]) -> dict[str, Any]:
    """The note, the first dealer and the dealers of an export. An older export
    has none of them; one that has them must have them right, as the form would."""
    note = data.get("note", "")
    seat = data.get("premier_donneur", 1)
    dealers = data.get("donneurs", [])
    if not isinstance(note, str):
        detail = Detail(
            N_("« note » doit être un texte de %(max)s caractères au plus"), max=MAX_NOTE
        )
        raise RamiError("enregistrement_invalide", detail=detail)
    # The note form's own rules (games/validators.py): the same note, the same verdict.
    note = note_text(note)
    problem = note_problem(note)
    if problem is not None:
        raise problem
    if type(seat) is not int or seat < 1:
        detail = N_("« premier_donneur » doit être une place à la table (1, 2, …)")
        raise RamiError("enregistrement_invalide", detail=detail)
    if not isinstance(dealers, list) or any(
        d is not None and not isinstance(d, str) for d in dealers
    ):
        detail = N_("« donneurs » doit être une liste de noms de joueurs (ou null)")
        raise RamiError("enregistrement_invalide", detail=detail)
    return {"note": note, "first_dealer": seat, "dealers": dealers}


def _payes(value: Any) -> dict[str, Any]:
    """The payment ticks of an export: ``{"mises": [name…], "rachats": [[donne, name]…]}``;
    the names are checked against the table by the import."""
    if value is None:
        return {}

    def bad(detail: str) -> RamiError:
        return RamiError("enregistrement_invalide", detail=detail)

    if not isinstance(value, dict):
        raise bad(N_('« payes » doit être un objet {"mises": […], "rachats": […]}'))
    mises = value.get("mises") or []
    if not isinstance(mises, list) or not all(isinstance(m, str) for m in mises):
        raise bad(N_("« payes.mises » doit être une liste de noms de joueurs"))
    rachats = value.get("rachats") or []
    if not isinstance(rachats, list) or not all(
        isinstance(r, list)
        and len(r) == 2
        and type(r[0]) is int
        and 1 <= r[0] <= MAX_DONNES_PER_FILE
        and isinstance(r[1], str)
        for r in rachats
    ):
        raise bad(N_("« payes.rachats » doit être une liste de [numéro de donne, joueur]"))
    return {"mises": mises, "rachats": rachats}


# docs/rules.md R28: dates bounded; beyond them, converting to UTC overflows (year 9999 at
# -14:00) and no partie of this app was created then.
FIRST_DAY = datetime(2000, 1, 1, tzinfo=UTC)
LAST_DAY = datetime(2100, 1, 1, tzinfo=UTC)


def _datetime(value: Any) -> datetime | None:
    """The creation time of an exported partie: an ISO 8601 date with its offset, between
    2000 and 2099; absent or null, the time of the import."""
    if value is None:
        return None
    moment = None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None or moment.tzinfo is None or moment.utcoffset() is None:
        detail = N_("« created_at » doit être une date avec son fuseau (2026-11-03T20:15:00+01:00)")
        raise RamiError("enregistrement_invalide", detail=detail)
    try:
        inside = FIRST_DAY <= moment < LAST_DAY
    except OverflowError:
        inside = False
    if not inside:
        detail = N_("une date entre le 1er janvier 2000 et le 31 décembre 2099")
        raise RamiError("valeur_hors_limites", field="created_at", detail=detail)
    return moment


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
    # docs/rules.md R28: not JSON, NaN, a lone surrogate, too deep: refused here, for the whole
    # file; an integer of more than 12 digits where the import reads it (the record, by the
    # engine; the payment ticks), not in the states and final an export carries for others.
    data = load_json(text)
    check_tree(data, numbers=False)
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

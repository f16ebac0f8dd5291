# PostgreSQL: the revision of migration 0006 moves once per statement that inserts or deletes
# donnes, hands, rachats or joueurs, not once per row. Row by row, a backup of 5 parties of
# 1000 donnes updated each partie's row some 4000 times in its one transaction; PostgreSQL
# keeps every version of that row until the end of the transaction and walks them at each
# update and each foreign-key check: 20 to 30 s for the restore, past the worker timeout
# (README "Limits"). A statement's transition table names the parties it touched: one update
# each. Updates stay row by row (PostgreSQL allows no transition table on an UPDATE OF some
# columns), and SQLite, whose triggers are row by row only but update in place, keeps the
# triggers of 0006. A later migration that must drop the triggers (SQLite rebuilding a table)
# uses drop_triggers and create_triggers from here.

import importlib

from django.db import migrations

_revision = importlib.import_module("games.migrations.0006_stored_replay")

TABLES = ("games_donne", "games_joueur", "games_hand", "games_rachat")
BY_PARTIE = "SELECT partie_id FROM changed"
BY_DONNE = "SELECT d.partie_id FROM changed c JOIN games_donne d ON d.id = c.donne_id"
PARTIES_OF = {
    "games_donne": "games_revision_by_partie",
    "games_joueur": "games_revision_by_partie",
    "games_hand": "games_revision_by_donne",
    "games_rachat": "games_revision_by_donne",
}


def _postgresql() -> list[str]:
    changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in _revision.WATCHED)
    statements = [
        "CREATE FUNCTION games_revision_bump(pid bigint) RETURNS void AS $$ "
        + _revision.BUMP.format("pid")
        + " $$ LANGUAGE sql",
        "CREATE FUNCTION games_partie_revision() RETURNS trigger AS $$ BEGIN "
        f"IF {changed} THEN NEW.revision := OLD.revision + 1; END IF; RETURN NEW; "
        "END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER games_partie_revision BEFORE UPDATE ON games_partie "
        "FOR EACH ROW EXECUTE FUNCTION games_partie_revision()",
    ]
    for function, parties in (
        ("games_revision_by_partie", BY_PARTIE),
        ("games_revision_by_donne", BY_DONNE),
    ):
        statements.append(
            f"CREATE FUNCTION {function}() RETURNS trigger AS $$ BEGIN "
            f"UPDATE games_partie SET revision = revision + 1 WHERE id IN ({parties}); "
            "RETURN NULL; END $$ LANGUAGE plpgsql"
        )
    for table, old, new in (
        ("games_donne", "OLD.partie_id", "NEW.partie_id"),
        ("games_joueur", "OLD.partie_id", "NEW.partie_id"),
        ("games_hand", _revision.VIA_DONNE.format("OLD"), _revision.VIA_DONNE.format("NEW")),
        ("games_rachat", _revision.VIA_DONNE.format("OLD"), _revision.VIA_DONNE.format("NEW")),
    ):
        function = PARTIES_OF[table]
        statements += [
            f"CREATE TRIGGER {table}_revision_insert AFTER INSERT ON {table} "
            f"REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"CREATE TRIGGER {table}_revision_delete AFTER DELETE ON {table} "
            f"REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"CREATE FUNCTION {table}_revision() RETURNS trigger AS $$ BEGIN "
            f"PERFORM games_revision_bump({old}); PERFORM games_revision_bump({new}); "
            "RETURN NULL; END $$ LANGUAGE plpgsql",
            f"CREATE TRIGGER {table}_revision AFTER UPDATE"
            f"{_revision.WATCHED_COLUMNS.get(table, '')} ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {table}_revision()",
        ]
    return statements


def create_triggers(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        _revision.create_triggers(apps, schema_editor)
        return
    for statement in _postgresql():
        schema_editor.execute(statement)


def drop_triggers(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        _revision.drop_triggers(apps, schema_editor)
        return
    for table in TABLES:
        for suffix in ("", "_insert", "_delete"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_revision{suffix} ON {table}")
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_revision()")
    schema_editor.execute("DROP TRIGGER IF EXISTS games_partie_revision ON games_partie")
    for function in ("games_partie_revision()", "games_revision_by_partie()"):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")
    schema_editor.execute("DROP FUNCTION IF EXISTS games_revision_by_donne()")
    schema_editor.execute("DROP FUNCTION IF EXISTS games_revision_bump(bigint)")


def forward(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        _revision.drop_triggers(apps, schema_editor)
        create_triggers(apps, schema_editor)


def backward(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        drop_triggers(apps, schema_editor)
        _revision.create_triggers(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_note_validator")]

    operations = [migrations.RunPython(forward, backward)]

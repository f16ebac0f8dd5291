"""Write ``locale/fr/LC_MESSAGES/django.po``: French's own plural rule for our French msgids.

French is the source language, so no string needs a French translation, but a msgid that
Django finds in no catalog is counted with gettext's fallback rule, English's ``n != 1``:
"0 donnes". French takes the singular for 0 and 1 ("0 donne", "1 donne", "2 donnes"). This
catalog holds only the plural entries of ``makemessages -l fr``, each translated by its own
two forms, under ``plural=(n > 1)``. ``make messages`` runs it::

    python -m tools.french_plurals
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po, write_po

CATALOG = Path(__file__).resolve().parents[1] / "locale" / "fr" / "LC_MESSAGES" / "django.po"
HEADER = """\
French plural forms for ramiscore's French msgids (French is the source language).
Written by `make messages` (tools/french_plurals.py): only the plural entries, each with its
own two forms, so that 0 and 1 take the singular."""


def main() -> None:
    with CATALOG.open("rb") as source:
        catalog = read_po(source, locale="fr")
    for message in list(catalog):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = message.id  # (singular, plural): French's own two forms
            message.flags.discard("fuzzy")
        else:
            catalog.delete(message.id, message.context)
    catalog.header_comment = "\n".join("# " + line for line in HEADER.splitlines())
    catalog.locale, catalog.revision_date = "fr", catalog.creation_date
    catalog.project, catalog.version = "ramiscore", ""
    catalog.language_team = catalog.last_translator = "ramiscore"
    catalog.fuzzy = False  # a fuzzy header is skipped by msgfmt, and its plural rule with it
    with CATALOG.open("wb") as target:
        write_po(target, catalog, width=100, omit_header=False, sort_output=False)


if __name__ == "__main__":
    main()

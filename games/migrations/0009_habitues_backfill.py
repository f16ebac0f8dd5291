"""Every existing joueur linked to a regular player of its account: one Habitue per
name as the Comptes page matches names (case, accents and spaces ignored), written as it was
first typed in the account's oldest partie. One habitué sits at most once at a table."""

from __future__ import annotations

import unicodedata

from django.db import migrations


def _key(name: str) -> str:
    # A copy of games.scoring.players.person_key as it was when this migration was written: a
    # migration must not change when the app's code does.
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def backfill(apps, schema_editor) -> None:
    Habitue = apps.get_model("games", "Habitue")
    Joueur = apps.get_model("games", "Joueur")
    habitues: dict[tuple[int, str], object] = {
        (h.owner_id, h.key): h for h in Habitue.objects.all()
    }
    joueurs = list(
        Joueur.objects.filter(habitue__isnull=True)
        .select_related("partie")
        .order_by("partie__created_at", "partie_id", "seat")
    )
    seated: set[tuple[int, str]] = set()
    for joueur in joueurs:
        key = (joueur.partie.owner_id, _key(joueur.name))
        # One habitué sits at most once at a table ("Chloé" and "Chloe" in one partie).
        if (joueur.partie_id, key[1]) in seated:
            continue
        seated.add((joueur.partie_id, key[1]))
        if key not in habitues:
            habitues[key] = Habitue.objects.create(
                owner_id=key[0], name=joueur.name.strip()[:30], key=key[1]
            )
        joueur.habitue = habitues[key]
    Joueur.objects.bulk_update(joueurs, ["habitue"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_regular_table"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]

"""Each habitué's colour and marker, chosen once (games/display/colours.py): the existing
ones take, at the first table they sat at, the first colour not taken there."""

from __future__ import annotations

from django.db import migrations, models

COLOURS = 8  # games/display/chart.py COLOURS, as it was when this migration was written


def backfill(apps, schema_editor) -> None:
    Habitue = apps.get_model("games", "Habitue")
    Joueur = apps.get_model("games", "Joueur")
    colour: dict[int, int] = {}
    tables: dict[int, set[int]] = {}
    joueurs = (
        Joueur.objects.filter(habitue__isnull=False)
        .order_by("partie__created_at", "partie_id", "seat")
        .values_list("partie_id", "habitue_id")
    )
    for partie_id, habitue_id in joueurs.iterator():
        taken = tables.setdefault(partie_id, set())
        if habitue_id not in colour:
            free = [c for c in range(COLOURS) if c not in taken]
            colour[habitue_id] = free[0] if free else 0
        taken.add(colour[habitue_id])
    for habitue_id, value in colour.items():
        Habitue.objects.filter(pk=habitue_id).update(colour=value)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_login_locks"),
    ]

    operations = [
        migrations.AddField(
            model_name="habitue",
            name="colour",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]

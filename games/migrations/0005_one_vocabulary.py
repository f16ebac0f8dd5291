# The house: the table options take the names of the engine's Config; Main becomes Hand.

from __future__ import annotations

from django.db import migrations, models

RENAMED = [
    ("partie", "mise_initiale", "stake"),
    ("partie", "prix_rachat", "rachat_price"),
    ("partie", "prix_rachat_2", "rachat_price_2"),
    ("partie", "prix_rachat_3", "rachat_price_3"),
    ("partie", "valeur_point", "point_value"),
    ("partie", "reglement", "settlement"),
    ("partie", "seuil_inclusif", "seuil_inclusive"),
    ("partie", "nombre_manches", "fixed_manches"),
    ("partie", "objectif", "target"),
    ("partie", "objectif_inclusif", "target_inclusive"),
    ("joueur", "mise_payee", "stake_paid"),
]


class Migration(migrations.Migration):
    dependencies = [("games", "0004_partie_share_token")]

    operations = [
        *[migrations.RenameField(model, old, new) for model, old, new in RENAMED],
        migrations.RemoveConstraint(model_name="donne", name="donne_cle_unique"),
        migrations.RenameField("donne", "cle", "idempotency_key"),
        migrations.AddConstraint(
            model_name="donne",
            constraint=models.UniqueConstraint(
                fields=["partie", "idempotency_key"], name="donne_idempotency_key_unique"
            ),
        ),
        migrations.RemoveConstraint(model_name="main", name="main_unique"),
        migrations.RemoveConstraint(model_name="main", name="main_points_or_cards"),
        migrations.RenameModel("Main", "Hand"),
        migrations.AlterField(
            model_name="hand",
            name="donne",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="hands", to="games.donne"
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(fields=["donne", "joueur"], name="hand_unique"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(points__isnull=True) | models.Q(cards=""),
                name="hand_points_or_cards",
            ),
        ),
    ]

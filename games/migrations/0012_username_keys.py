"""One account per username key (games/usernames.py): the key of every existing account,
stored in a unique column.

Accounts that already share a key (``vanessa`` and ``vaneßa``, ``Élodie`` and ``élodie``,
created before sign-up compared keys) are all kept, with their names and passwords: the oldest
(first joined, then lowest id) keeps the key; each of the others gets the key followed by
" #<id>" and ``flagged``. A flagged account still logs in with its own name, but is counted
by the login limits under its own key, never under the older account's (docs/decisions.md
"One account per username key")."""

import unicodedata

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _key(username: str) -> str:
    # A copy of games.usernames.username_key as it was when this migration was written: a
    # migration must not change when the app's code does.
    return unicodedata.normalize("NFKC", username).casefold()


def backfill(apps, schema_editor) -> None:
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UsernameKey = apps.get_model("games", "UsernameKey")
    users = list(User.objects.order_by("date_joined", "pk").values_list("pk", "username"))
    # Every account's plain key first: a flagged key must not take another account's.
    used = {_key(name) for _pk, name in users}
    kept: set[str] = set()
    rows = []
    for pk, name in users:
        key = _key(name)
        if key not in kept:
            kept.add(key)
            rows.append(UsernameKey(user_id=pk, key=key, flagged=False))
            continue
        flagged = f"{key} #{pk}"
        while flagged in used:
            flagged += "#"
        used.add(flagged)
        rows.append(UsernameKey(user_id=pk, key=flagged, flagged=True))
    UsernameKey.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('games', '0011_partie_name_readable'),
    ]

    operations = [
        migrations.CreateModel(
            name='UsernameKey',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='username_key', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('key', models.TextField(unique=True)),
                ('flagged', models.BooleanField(default=False)),
            ],
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]

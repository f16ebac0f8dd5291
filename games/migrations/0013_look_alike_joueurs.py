"""docs/rules.md R28 now refuses two names of one table that look the same (the engine's
``joueurs_semblables``): an existing partie that seats two would no longer replay. In each
such partie, the later seat's name gets " 2" (or the next free number), cut to fit 30
characters; its hands and rachats follow it (they point at the joueur, not at the name), and
the database moves the partie's revision (migration 0006), so its stored replay is rebuilt."""

import unicodedata

from django.db import migrations

# A copy of games.scoring.players.skeleton as it was when this migration was written: a
# migration must not change when the app's code does.
_LOOK_ALIKES = str.maketrans(
    {
        **dict(zip("АВСЕНІЈКМОРЅТХУҮԚԜӀ", "ABCEHIJKMOPSTXYYQWI")),
        **dict(zip("асеһіјорѕхуԁԛԝӏ", "acehijopsxydqwl")),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹͿ", "ABEZHIKMNOPTYXCJ")),
        **dict(zip("αογνριϲϳ", "aoyvpicj")),
    }
)
_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]


def _skeleton(name: str) -> str:
    text = "".join(
        c
        for c in unicodedata.normalize("NFKD", name)
        if not any(low <= ord(c) <= high for low, high in _IGNORABLE)
    )
    text = text.translate(_LOOK_ALIKES).casefold().translate(_LOOK_ALIKES)
    return " ".join(unicodedata.normalize("NFD", text).split())


def rename(apps, schema_editor) -> None:
    Joueur = apps.get_model("games", "Joueur")
    seated: dict[int, set[str]] = {}
    renamed = []
    for joueur in Joueur.objects.order_by("partie_id", "seat"):
        looks = seated.setdefault(joueur.partie_id, set())
        look = _skeleton(joueur.name)
        if look not in looks:
            looks.add(look)
            continue
        n = 2
        while True:
            suffix = f" {n}"
            name = joueur.name.strip()[: 30 - len(suffix)] + suffix
            if _skeleton(name) not in looks:
                break
            n += 1
        looks.add(_skeleton(name))
        joueur.name = name
        renamed.append(joueur)
    for joueur in renamed:
        joueur.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_username_keys"),
    ]

    operations = [
        migrations.RunPython(rename, migrations.RunPython.noop),
    ]

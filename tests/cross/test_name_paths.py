"""One verdict on a name, whatever the way in (docs/rules.md R28): random names are seated at
a table through the new-partie form, the import page's reader and service, a backup restore,
``rami import``, ``rami score``, a habitué's rename and the model's validator; each accepts
them all or refuses them all with the same code, and the accepted ones are stored as the same
name."""

from __future__ import annotations

import io
import json
import tempfile
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from games import services
from games.files import read_upload
from games.models import Joueur, Partie
from games.scoring import (
    RamiError,
    check_players,
    clean_name,
    cli,
    get_preset,
    name_problem,
    stored_name,
)

pytestmark = pytest.mark.django_db

TABLE = ["Anne", "Bruno"]  # the random name sits third
SPECIAL = [
    "\x00", "\x07", "\x1b", "\x7f", "\x85", "\u00a0", "\u00ad", "\u200b", "\u200c", "\u200d",
    "\u200e", "\u202e", "\u2028", "\u2029", "\u2066", "\ufeff", "\ue000", "\U000f0000",
    "\u0301", "\u0378", "\U0001f0cf", "\U0001f468\u200d\U0001f469", "ß", "İ", "ς", "Σ",
    " ", "\t", "\n", "\r", "=", "+", "-", "@",
]  # fmt: skip
names = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.sampled_from(SPECIAL) | st.sampled_from(["a", "n", "e", "A", "é"]), max_size=35
    ).map("".join),
    st.sampled_from(["anne", " ANNE ", "Anne\u00a0", "Zo\u00e9", "Zoe\u0301", "e\u0301" * 30]),
)
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def record(name: str) -> dict:
    return {"preset": "classique", "players": [*TABLE, name], "donnes": []}


def verdict_of_engine(name: str) -> str | None:
    problem = name_problem(name)
    if problem is not None:
        return problem.code
    try:
        check_players(get_preset("classique"), [*TABLE, name])
    except RamiError as err:
        return err.code
    return None


def verdict_of_form(client: Client, name: str) -> tuple[str | None, list[str]]:
    before = set(Partie.objects.values_list("pk", flat=True))
    response = client.post(
        reverse("partie_new"),
        {
            "preset": "classique",
            "joueurs": [*TABLE, name],
            "mise_initiale": "0",
            "rachat_price": "0",
            "point_value": "0",
            "settlement": "gagnant",
            "currency": "EUR",
        },
    )
    if response.status_code == 302:
        [new] = Partie.objects.exclude(pk__in=before)
        return None, [j.name for j in new.joueurs.all()]
    errors = response.context["form"].errors.as_data()
    codes = [e.code for e in errors.get("__all__", [])]
    assert codes, errors  # a refusal always names its reason
    return codes[0], []


def verdict_of_import(owner, raw: bytes) -> tuple[str | None, list[str]]:
    try:
        [partie], _skipped = services.parties_import(owner=owner, records=read_upload(raw))
    except RamiError as err:
        cause = err.extra.get("cause")
        return (cause.code if isinstance(cause, RamiError) else err.code), []
    return None, [j.name for j in partie.joueurs.all()]


def verdict_of_rami_import(path: Path) -> tuple[str | None, list[str]]:
    out = io.StringIO()
    try:
        call_command("rami", "import", str(path), "--user", "alice", stdout=out)
    except CommandError as err:
        return str(err).split(" ", 2)[1], []
    partie = Partie.objects.order_by("-pk").first()
    return None, [j.name for j in partie.joueurs.all()]


def verdict_of_rami_score(name: str) -> tuple[str | None, list[str]]:
    text = json.dumps(record(name), ensure_ascii=False)
    try:
        output = cli.score("-", "json", io.StringIO(text))
    except cli.ScoreFailure as failure:
        return json.loads(failure.stdout)["error"]["code"], []
    return None, list(json.loads(output)["final"]["net"])


def verdict_of_rename(name: str) -> tuple[str | None, list[str]]:
    """The habitués page: the third player's habitué renamed to ``name``, in an
    account of its own (the other paths gave alice habitués of that name already)."""
    owner = User.objects.create_user(f"renomme-{uuid.uuid4().hex}")
    partie = services.partie_create(
        owner=owner, name="Renommée", preset="classique", joueurs=[*TABLE, "Zed"]
    )
    try:
        services.habitue_rename(habitue=partie.joueurs.get(seat=3).habitue, name=name)
    except RamiError as err:
        return err.code, []
    finally:
        seated = list(partie.joueurs.order_by("seat").values_list("name", flat=True))
        owner.delete()
    return None, seated


def verdict_of_model(name: str) -> str | None:
    try:
        Joueur(name=stored_name(name) if isinstance(name, str) else name, seat=3).full_clean(
            exclude=["partie"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as err:
        return err.error_dict["name"][0].code
    return None


@EXAMPLES
@given(name=names)
@example(name="Anne\x00")
@example(name="Anne\u202e")
@example(name="An\u200bne")
@example(name="Anne\x07")
@example(name=" anne ")
@example(name="Zoe\u0301" + "x" * 27)  # 31 code points, 30 after NFC
@example(name="x" * 31)
@example(name="  " + "x" * 30 + " ")  # 30 once trimmed
@example(name='=HYPERLINK("//e.vil","x")')
@example(name="\U0001f468\u200d\U0001f469")
@example(name="\u0410nne")  # a Cyrillic А: looks like Anne, who sits at the table
@example(name="\uff21nne")  # a full-width Ａ
@example(name="Anne\u200d")
@example(name="Bruno\u200c")
def test_a_name_gets_one_verdict_on_every_path(alice, name: str) -> None:
    assume(name.strip())  # an empty row of the form is a free seat, not a player
    expected = verdict_of_engine(name)
    stored = [*TABLE, stored_name(name)]
    client = Client()
    client.force_login(alice)
    raw = json.dumps(record(name), ensure_ascii=False).encode()
    export = {"format": "ramiscore/1", "name": "Soir", "record": record(name)}
    backup = {"format": "ramiscore-sauvegarde/1", "parties": [export]}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "partie.json"
        path.write_bytes(raw)
        verdicts = {
            "form": verdict_of_form(client, name),
            "import": verdict_of_import(alice, raw),
            "backup": verdict_of_import(alice, json.dumps(backup).encode()),
            "rami import": verdict_of_rami_import(path),
        }
    for way, (code, seated) in verdicts.items():
        assert code == expected, (way, name)
        assert seated == ([] if code else stored), (way, name)
    if expected == "joueurs_semblables":
        # A look-alike of a table-mate: refused, by the engine's own check or, when the two
        # are one habitué already (Ａnne is Anne there), by the habitués'.
        assert verdict_of_rename(name) in [(expected, []), ("habitue_existe", [])], name
    elif expected != "joueurs_en_double":  # a rename onto a table-mate: the habitués' refusal
        assert verdict_of_rename(name) == (expected, [] if expected else stored), name
    code, seated = verdict_of_rami_score(name)
    assert code == expected
    assert seated == ([] if code else [*TABLE, clean_name(name)])
    # The model's validator asks the same question of the name alone.
    assert verdict_of_model(name) == (name_problem(name).code if name_problem(name) else None)


def test_the_migration_renames_a_look_alike_already_seated(alice) -> None:
    """Before look-alikes were refused (docs/rules.md R28), a table could seat "Anne" and a
    Cyrillic "Аnne"; migration 0013 gives the later seat a number, and the partie replays."""
    import importlib

    from django.apps import apps

    from games import replays

    rename = importlib.import_module("games.migrations.0013_look_alike_joueurs").rename
    partie = services.partie_create(
        owner=alice, name="Ancienne", preset="classique", joueurs=["Anne", "Bruno", "Zed", "Léa"]
    )
    Joueur.objects.filter(partie=partie, seat=3).update(name="\u0410nne")
    Joueur.objects.filter(partie=partie, seat=4).update(name="Anne\u200d")
    rename(apps, None)
    names = list(partie.joueurs.order_by("seat").values_list("name", flat=True))
    assert names == ["Anne", "Bruno", "\u0410nne 2", "Anne\u200d 3"]
    _data, result, _summary = replays.rebuild(partie)
    assert result.players == names

"""The regular players of an account: each joueur is linked to one Habitue when
its partie is created or imported; renaming a habitué or merging two spellings changes every
partie he played, whose stored replays are rebuilt in the same transaction."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max

from games import replays
from games.display.colours import first_free
from games.errors import PartieError
from games.models import Habitue, Joueur, Partie
from games.scoring import get_preset, player_problems
from games.scoring.players import name_problem, person_key, stored_name


def link_habitues(owner: AbstractBaseUser, joueurs: Iterable[Joueur]) -> None:
    """Set the habitué of joueurs about to be created, creating the new ones: two queries.
    Call it inside the write's transaction, once the owner's row is locked (ensure_room):
    two parties created at once for one account then add a new habitué once.

    One habitué sits at most once at a table: "Chloé" and "Chloe" may both play one partie
    (docs/rules.md R28 tells them apart), and the second one stays without a habitué rather
    than counting one person twice (docs/decisions.md "Habitués")."""
    joueurs = list(joueurs)
    keys = {person_key(j.name) for j in joueurs}
    known = {h.key: h for h in Habitue.objects.filter(owner=owner, key__in=keys)}
    new = []
    seated: set[tuple[int, str]] = set()
    for joueur in joueurs:
        key = person_key(joueur.name)
        table = (id(joueur.partie), key)
        if table in seated:
            continue
        seated.add(table)
        if key not in known:
            known[key] = Habitue(owner=owner, name=joueur.name, key=key)
            new.append(known[key])
        joueur.habitue = known[key]
    _choose_colours(joueurs, new)
    Habitue.objects.bulk_create(new)


def _choose_colours(joueurs: list[Joueur], new: list[Habitue]) -> None:
    """A new habitué's colour, chosen once: the first one not taken at his first table."""
    fresh = {id(h) for h in new}
    taken: dict[int, set[int]] = {}
    for joueur in joueurs:
        if joueur.habitue is not None and id(joueur.habitue) not in fresh:
            taken.setdefault(id(joueur.partie), set()).add(joueur.habitue.colour)
    for joueur in joueurs:
        habitue = joueur.habitue
        if habitue is None or id(habitue) not in fresh or habitue.colour is not None:
            continue
        table = taken.setdefault(id(joueur.partie), set())
        habitue.colour = first_free(table)
        table.add(habitue.colour)


def habitues_of(owner: AbstractBaseUser) -> list[Habitue]:
    """The account's habitués, those who played most recently first (the new-partie form
    offers them in this order): one query."""
    return list(
        Habitue.objects.filter(owner=owner)
        .annotate(parties=Count("joueurs"), last_played=Max("joueurs__partie__created_at"))
        .order_by("-last_played", "key")
    )


def _check_name(name: str) -> str:
    """docs/rules.md R28, as on every other path: the engine's verdict, the stored spelling."""
    problem = name_problem(name)
    if problem is not None:
        raise problem
    return stored_name(name)


def _renamed_in(joueurs: list[Joueur], name: str) -> None:
    """Refuse a name another player of the same partie already has, or one that looks the
    same (docs/rules.md R28)."""
    parties = {j.partie_id: j.partie for j in joueurs}
    moving = {j.pk for j in joueurs}
    seated: dict[int, list[str]] = {}
    for other in Joueur.objects.filter(partie__in=parties).exclude(pk__in=moving):
        seated.setdefault(other.partie_id, []).append(other.name)
    for pk, partie in parties.items():
        problems = player_problems(get_preset(partie.preset), [*seated.get(pk, []), name])
        if any(p.code == "joueurs_en_double" for p in problems):
            raise PartieError("habitue_nom_pris", player=name, partie=partie.name)
        # A look-alike of a table-mate: the engine's message names both.
        look_alike = next((p for p in problems if p.code == "joueurs_semblables"), None)
        if look_alike is not None:
            raise look_alike


def _follow(joueurs: list[Joueur], habitue: Habitue) -> None:
    """Every partie of these joueurs takes the habitué's name; the database moves each one's
    revision (migration 0006), and its stored replay, which names the players, is rebuilt."""
    Joueur.objects.filter(pk__in=[j.pk for j in joueurs]).update(name=habitue.name, habitue=habitue)
    for partie in Partie.objects.filter(pk__in={j.partie_id for j in joueurs}):
        partie.save(update_fields=["updated_at"])
        replays.rebuild(partie)


@transaction.atomic
def habitue_rename(*, habitue: Habitue, name: str) -> Habitue:
    """A new spelling for a habitué, in every partie he played."""
    habitue = Habitue.objects.select_for_update().get(pk=habitue.pk)
    name = _check_name(name)
    key = person_key(name)
    if key != habitue.key and Habitue.objects.filter(owner=habitue.owner_id, key=key).exists():
        raise PartieError("habitue_existe", player=name)
    joueurs = list(habitue.joueurs.select_related("partie"))
    _renamed_in(joueurs, name)
    habitue.name, habitue.key = name, key
    habitue.full_clean(exclude=["owner"])
    habitue.save(update_fields=["name", "key"])
    _follow(joueurs, habitue)
    return habitue


@transaction.atomic
def habitue_merge(*, habitue: Habitue, into: Habitue) -> Habitue:
    """Two spellings of one person (``habitue`` becomes ``into``): refused when both sat at
    the same partie, which makes them two people."""
    if habitue.pk == into.pk:
        raise PartieError("habitue_lui_meme", player=habitue.name)
    locked = {
        h.pk: h
        for h in Habitue.objects.select_for_update().filter(
            pk__in=[habitue.pk, into.pk], owner=habitue.owner_id
        )
    }
    if len(locked) != 2:
        # Merged or renamed away meanwhile (another tab): nothing left to merge.
        raise PartieError("habitue_disparu")
    habitue, into = locked[habitue.pk], locked[into.pk]
    together = (
        Joueur.objects.filter(habitue=habitue, partie__joueurs__habitue=into)
        .select_related("partie")
        .first()
    )
    if together is not None:
        raise PartieError(
            "habitues_meme_partie",
            player=habitue.name,
            other=into.name,
            partie=together.partie.name,
        )
    joueurs = list(habitue.joueurs.select_related("partie"))
    _renamed_in(joueurs, into.name)
    _follow(joueurs, into)
    habitue.delete()
    return into

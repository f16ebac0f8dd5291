"""Every write. Each one locks the partie, replays the would-be donnes through the engine
(games.scoring) and saves everything or nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from games import errors
from games.errors import PartieError
from games.models import Donne, Joueur, Main, Partie, Rachat
from games.scoring import RamiError, Replay, replay
from games.selectors import PartieData, partie_config, partie_load

Hands = dict[Joueur, dict[str, Any]]


@dataclass
class Change:
    """What an edit did to the partie, for the page to say."""

    totals: dict[str, tuple[int, int]] = field(default_factory=dict)  # name: (before, after)
    removed_decisions: list[tuple[int, str]] = field(default_factory=list)  # (donne, name)
    pending: list[str] = field(default_factory=list)


def _locked(partie: Partie) -> PartieData:
    # Two phones writing at once queue here (PostgreSQL row lock; SQLite's IMMEDIATE
    # transactions already serialise writers).
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    return partie_load(locked)


def _replay(data: PartieData, inputs: list[dict[str, Any]], *, ended: bool = False) -> Replay:
    try:
        return data.replay(inputs, ended=ended)
    except RamiError as err:
        raise PartieError.from_rami(err) from err


def _input(winner: Joueur | None, win: str, hands: Hands) -> dict[str, Any]:
    return {
        "winner": winner.name if winner else None,
        "win": win,
        "hands": {joueur.name: hand for joueur, hand in hands.items()},
        "rachat": {},
    }


def _save_hands(donne: Donne, hands: Hands) -> None:
    mains = [
        Main(
            donne=donne,
            joueur=joueur,
            cards=" ".join(hand.get("cards") or []),
            points=hand.get("points"),
            jokers=hand.get("jokers", 0),
        )
        for joueur, hand in hands.items()
    ]
    for main in mains:
        main.full_clean(exclude=["donne", "joueur"])
    Main.objects.bulk_create(mains)


def _change(before: Replay, after: Replay, removed: list[tuple[int, str]]) -> Change:
    old = before.states[-1].totals if before.states else {}
    new = after.states[-1].totals if after.states else {}
    totals = {
        name: (old.get(name, 0), new.get(name, 0))
        for name in {**old, **new}
        if old.get(name, 0) != new.get(name, 0)
    }
    return Change(
        totals=totals, removed_decisions=removed, pending=[p.player for p in after.pending]
    )


def _drop_stale_decisions(data: PartieData, result: Replay) -> list[tuple[int, str]]:
    """RULES.md R5: a decision only exists for a crossing; an edit can take the crossing away."""
    removed = []
    for number, name in result.stale_decisions:
        donne = data.donnes[number - 1]
        Rachat.objects.filter(donne=donne, joueur=data.by_name(name)).delete()
        removed.append((number, name))
    return removed


@transaction.atomic
def partie_create(
    *, owner: AbstractBaseUser, name: str, preset: str, joueurs: list[str], **options: Any
) -> Partie:
    partie = Partie(owner=owner, name=name, preset=preset, **options)
    partie.full_clean()
    try:
        # The engine checks the table: number of players, names, options (RULES.md §8).
        replay(preset, joueurs, [], partie_config(partie), lenient=True)
    except RamiError as err:
        raise PartieError.from_rami(err) from err
    partie.save()
    Joueur.objects.bulk_create(
        Joueur(partie=partie, name=joueur, seat=seat) for seat, joueur in enumerate(joueurs, 1)
    )
    return partie


@transaction.atomic
def donne_create(*, partie: Partie, winner: Joueur | None, win: str, hands: Hands) -> Donne:
    data = _locked(partie)
    current = _replay(data, data.inputs(), ended=data.partie.ended)
    if current.pending:
        raise PartieError(errors.DECISION_EN_ATTENTE, code="decision_en_attente")
    if current.over:
        raise PartieError(errors.PARTIE_FINIE, code="partie_terminee")
    _replay(data, [*data.inputs(), _input(winner, win, hands)])
    donne = Donne(partie=data.partie, number=len(data.donnes) + 1, winner=winner, win=win)
    donne.full_clean(exclude=["partie", "winner"])
    donne.save()
    _save_hands(donne, hands)
    data.partie.save(update_fields=["updated_at"])
    return donne


@transaction.atomic
def donne_update(*, donne: Donne, winner: Joueur | None, win: str, hands: Hands) -> Change:
    data = _locked(donne.partie)
    inputs = data.inputs()
    before = _replay(data, inputs, ended=data.partie.ended)
    index = donne.number - 1
    # Keep this donne's rachat decisions: they still apply if the same players cross.
    inputs[index] = {**_input(winner, win, hands), "rachat": inputs[index]["rachat"]}
    after = _replay(data, inputs, ended=data.partie.ended)
    stored = data.donnes[index]
    stored.winner, stored.win = winner, win
    stored.full_clean(exclude=["partie", "winner"])
    stored.save()
    stored.mains.all().delete()
    _save_hands(stored, hands)
    removed = _drop_stale_decisions(data, after)
    data.partie.save(update_fields=["updated_at"])
    return _change(before, after, removed)


@transaction.atomic
def donne_delete(*, donne: Donne) -> Change:
    data = _locked(donne.partie)
    inputs = data.inputs()
    before = _replay(data, inputs, ended=data.partie.ended)
    del inputs[donne.number - 1]
    after = _replay(data, inputs, ended=data.partie.ended)
    number = donne.number
    Donne.objects.filter(pk=donne.pk).delete()
    # Renumber in two steps so that no moment has two donnes with one number (constraint).
    later = Donne.objects.filter(partie=data.partie, number__gt=number)
    later.update(number=F("number") + 1_000_000)
    later = Donne.objects.filter(partie=data.partie, number__gt=1_000_000)
    later.update(number=F("number") - 1_000_001)
    data = partie_load(data.partie)
    removed = _drop_stale_decisions(data, after)
    data.partie.save(update_fields=["updated_at"])
    return _change(before, after, removed)


@transaction.atomic
def rachat_decide(*, partie: Partie, joueur: Joueur, accepted: bool) -> Rachat:
    data = _locked(partie)
    inputs = data.inputs()
    current = _replay(data, inputs, ended=data.partie.ended)
    pending = next((p for p in current.pending if p.player == joueur.name), None)
    if pending is None:
        raise PartieError(errors.PAS_DE_DECISION % {"player": joueur.name}, code="pas_de_rachat")
    inputs[pending.donne - 1]["rachat"][joueur.name] = accepted
    # Declining can make later donnes impossible (he won one of them): the engine says so.
    _replay(data, inputs, ended=data.partie.ended)
    rachat = Rachat(donne=data.donnes[pending.donne - 1], joueur=joueur, accepted=accepted)
    rachat.save()
    data.partie.save(update_fields=["updated_at"])
    return rachat


@transaction.atomic
def partie_close(*, partie: Partie) -> Partie:
    """RULES.md R21: the table ends the partie by hand; the ranking uses the current totals."""
    data = _locked(partie)
    current = _replay(data, data.inputs(), ended=data.partie.ended)
    if current.over:
        raise PartieError(errors.DEJA_FINIE, code="partie_terminee")
    if current.pending:
        raise PartieError(errors.DECISION_EN_ATTENTE, code="decision_en_attente")
    data.partie.ended = True
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


@transaction.atomic
def partie_reopen(*, partie: Partie) -> Partie:
    data = _locked(partie)
    if not data.partie.ended:
        raise PartieError(errors.PAS_FINIE, code="pas_terminee")
    data.partie.ended = False
    data.partie.save(update_fields=["ended", "updated_at"])
    return data.partie


@transaction.atomic
def partie_share(*, partie: Partie) -> Partie:
    """Issue #7: give the partie a new share link. Sharing again replaces the token, so a link
    that went too far stops working."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    locked.share_token = secrets.token_urlsafe(24)  # 192 bits: not guessable
    locked.save(update_fields=["share_token", "updated_at"])
    return locked


@transaction.atomic
def partie_unshare(*, partie: Partie) -> Partie:
    """Revoke the share link: /suivre/<token>/ answers 404 from now on."""
    locked = Partie.objects.select_for_update().get(pk=partie.pk)
    locked.share_token = None
    locked.save(update_fields=["share_token", "updated_at"])
    return locked

"""Several parties at once: an account's lists, its backup, the Comptes and Statistiques
pages, each in a fixed number of queries."""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.db.models import QuerySet

from games.models import (
    Donne,
    DonneResult,
    Habitue,
    Hand,
    Partie,
    Rachat,
)
from games.options import config_of
from games.scoring import DonneState
from games.selectors.donnes import partie_load
from games.selectors.state import PartieState
from games.selectors.stored import (
    read_summary,
    summary_of,
)


def parties_of(owner) -> QuerySet[Partie]:
    """An account's parties with their stored results and players (games/replays.py)."""
    return (
        Partie.objects.filter(owner=owner)
        .select_related("result")
        .prefetch_related("joueurs")
        .order_by("-created_at", "-pk")
    )


def partie_listed(partie: Partie) -> PartieState:
    """A partie for a list (the home page, the Comptes page): its summary and players, no
    state. ``partie`` comes with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    return PartieState(
        partie=partie,
        joueurs=list(partie.joueurs.all()),
        config=config_of(partie),
        summary=summary_of(partie),
        states=[],
    )


def parties_states(parties: list[Partie]) -> list[PartieState]:
    """Several parties with every state (an account's backup, the statistics), in one query
    more. The parties come with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    summaries = {p.pk: read_summary(p) for p in parties}
    states: dict[int, list[DonneState]] = {}
    rows = DonneResult.objects.filter(partie__in=[p.pk for p in parties])
    for row in rows.order_by("partie", "number"):
        states.setdefault(row.partie_id, []).append(DonneState.from_storage(json.loads(row.state)))
    loaded = []
    for p in parties:
        summary, stale = summaries[p.pk]
        mine = partie_load(p).replay().states if stale else states.get(p.pk, [])
        loaded.append(
            PartieState(
                partie=p,
                joueurs=list(p.joueurs.all()),
                config=config_of(p),
                summary=summary,
                states=mine,
                stale=stale,
            )
        )
    return loaded


def parties_loaded(parties: list[Partie]) -> list[PartieState]:
    """Several parties with every state and every donne (an account's backup): the states
    in one query (``parties_states``), then donnes, hands and rachats of them all in three,
    grouped here. The parties come with their players (``parties_of``)."""
    loaded = parties_states(parties)
    ids = [p.pk for p in parties]
    donnes: dict[int, list[Donne]] = {}
    for donne in Donne.objects.filter(partie__in=ids).order_by("partie", "number"):
        donnes.setdefault(donne.partie_id, []).append(donne)
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(donne__partie__in=ids).order_by("pk"):
        hands.setdefault(hand.donne_id, []).append(hand)
    rachats: dict[int, list[Rachat]] = {}
    for rachat in Rachat.objects.filter(donne__partie__in=ids).order_by("pk"):
        rachats.setdefault(rachat.donne_id, []).append(rachat)
    for state in loaded:
        partie = state.partie
        by_id = {j.pk: j for j in state.joueurs}
        for donne in donnes.get(partie.pk, []):
            donne.partie, donne.winner = partie, by_id.get(donne.winner_id)
            for row in (*hands.get(donne.pk, []), *rachats.get(donne.pk, [])):
                row.joueur = by_id[row.joueur_id]
        mine = donnes.get(partie.pk, [])
        state.donnes = mine
        state.hands = {d.pk: hands.get(d.pk, []) for d in mine}
        state.rachats = {d.pk: rachats.get(d.pk, []) for d in mine}
    return loaded


def parties_money(parties: Iterable[Partie]) -> list[PartieState]:
    """The parties of the Comptes page, oldest first: each listed (``partie_listed``) with
    its rachats bought back (``accepted``), those of every partie in one query. The parties
    come with ``result`` and ``joueurs`` loaded (``parties_of``)."""
    parties = list(parties)
    rachats: dict[int, list[Rachat]] = {}
    owners = {p.owner_id for p in parties}
    accepted = Rachat.objects.filter(donne__partie__owner__in=owners, accepted=True)
    for rachat in accepted.select_related("donne"):
        rachats.setdefault(rachat.donne.partie_id, []).append(rachat)
    states = []
    for partie in sorted(parties, key=lambda p: p.created_at):
        state = partie_listed(partie)
        state.accepted = rachats.get(partie.pk, [])
        states.append(state)
    return states


def statistics_parties(owner, *, preset: str, since) -> tuple[list[PartieState], int]:
    """The account's parties for the Statistiques page (``preset``: "" for every preset;
    created from ``since`` on, None: all), oldest first: the finished ones with every state
    and their players with their habitué, and how many are not over yet. The parties with
    their results and players (two queries), the states of the finished ones (one more),
    the habitués (one more)."""
    rows = Partie.objects.filter(owner=owner)
    if preset:
        rows = rows.filter(preset=preset)
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    parties = list(
        rows.select_related("result").prefetch_related("joueurs").order_by("created_at", "pk")
    )
    summaries = {p.pk: summary_of(p) for p in parties}
    finished = [p for p in parties if summaries[p.pk].over]
    everything = parties_states(finished)
    habitues = list(Habitue.objects.filter(owner=owner).order_by("key"))
    by_id = {h.pk: h for h in habitues}
    for p in parties:
        # The prefetched players point at their habitué by id: give them the one loaded.
        for j in p.joueurs.all():
            j.habitue = by_id.get(j.habitue_id)
    return everything, len(parties) - len(finished)

"""A partie's donnes, hands and decisions, loaded for the engine to replay."""

from __future__ import annotations

from games.models import (
    Donne,
    Hand,
    Joueur,
    Partie,
    Rachat,
)
from games.options import config_of
from games.scoring import Replay
from games.selectors.state import PartieState


def partie_load(partie: Partie, *, first: int = 1) -> PartieState:
    """Four queries: players, donnes, hands, rachats; from donne ``first`` on (a write that
    changes donne k replays from k). No summary nor state: its replay says them."""
    joueurs = list(partie.joueurs.all())
    donnes, hands, rachats = _donnes_of(partie, joueurs, first)
    return PartieState(
        partie=partie,
        joueurs=joueurs,
        config=config_of(partie),
        donnes=donnes,
        hands=hands,
        rachats=rachats,
        first=first,
    )


def _donnes_of(
    partie: Partie, joueurs: list[Joueur], first: int
) -> tuple[list[Donne], dict[int, list[Hand]], dict[int, list[Rachat]]]:
    """Three queries: donnes, hands, rachats from donne ``first`` on. Plain queries grouped
    here in Python: prefetch_related costs three times as much per row."""
    by_id = {j.pk: j for j in joueurs}
    donnes = list(partie.donnes.filter(number__gte=first))
    later = {"donne__partie": partie, "donne__number__gte": first}
    hands = list(Hand.objects.filter(**later).order_by("pk"))
    rachats = list(Rachat.objects.filter(**later).order_by("pk"))
    # Attach the objects we already have instead of letting each relation query again.
    for donne in donnes:
        donne.partie = partie
        donne.winner = by_id.get(donne.winner_id)
    hands_by: dict[int, list[Hand]] = {}
    for hand in hands:
        hand.joueur = by_id[hand.joueur_id]
        hands_by.setdefault(hand.donne_id, []).append(hand)
    rachats_by: dict[int, list[Rachat]] = {}
    for rachat in rachats:
        rachat.joueur = by_id[rachat.joueur_id]
        rachats_by.setdefault(rachat.donne_id, []).append(rachat)
    return donnes, hands_by, rachats_by


def partie_replay(partie: Partie) -> tuple[PartieState, Replay]:
    data = partie_load(partie)
    return data, data.replay()

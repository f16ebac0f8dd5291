"""Reads: a partie loaded in a fixed number of queries, in the shape the engine replays."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.options import config_of
from games.scoring import Config, Replay, replay


@dataclass
class PartieData:
    """A partie with everything the engine needs, loaded once."""

    partie: Partie
    joueurs: list[Joueur]
    donnes: list[Donne]
    hands: dict[int, list[Hand]]  # by donne id
    rachats: dict[int, list[Rachat]]  # by donne id
    config: Config

    def hands_of(self, donne: Donne) -> list[Hand]:
        return self.hands.get(donne.pk, [])

    def rachats_of(self, donne: Donne) -> list[Rachat]:
        return self.rachats.get(donne.pk, [])

    @property
    def names(self) -> list[str]:
        return [j.name for j in self.joueurs]

    def by_name(self, name: str) -> Joueur:
        return next(j for j in self.joueurs if j.name == name)

    def inputs(self) -> list[dict[str, Any]]:
        return [self.input_of(d) for d in self.donnes]

    def input_of(self, donne: Donne) -> dict[str, Any]:
        """A stored donne as the engine's input (docs/rules.md §1)."""
        hands = {}
        for hand in self.hands_of(donne):
            if hand.points is not None:
                hands[hand.joueur.name] = {"points": hand.points, "jokers": hand.jokers}
            else:
                hands[hand.joueur.name] = {"cards": hand.cards.split(), "jokers": hand.jokers}
        return {
            "winner": donne.winner.name if donne.winner else None,
            "win": donne.win,
            "hands": hands,
            "rachat": {r.joueur.name: r.accepted for r in self.rachats_of(donne)},
        }

    @property
    def etat(self) -> str:
        """A fingerprint of what the marque is made of (donnes, hands, rachat decisions, the
        manual end). A form carries the one it was built on; a write checks it is still the
        same, so a phone never overwrites what another phone recorded meanwhile. Ticking a
        payment does not change it: money does not change the marque."""
        content = json.dumps([self.inputs(), self.partie.ended], sort_keys=True)
        return hashlib.sha256(content.encode()).hexdigest()[:20]

    def replay(self, inputs: list[dict[str, Any]] | None = None, *, ended: bool | None = None):
        """Lenient replay (the web flow decides rachats after saving a donne)."""
        return replay(
            self.partie.preset,
            self.names,
            self.inputs() if inputs is None else inputs,
            self.config,
            lenient=True,
            ended=self.partie.ended if ended is None else ended,
        )


def partie_load(partie: Partie) -> PartieData:
    """Four queries whatever the number of donnes: players, donnes, hands, rachats. Plain
    queries grouped here in Python: prefetch_related costs three times as much per row."""
    joueurs = list(partie.joueurs.all())
    by_id = {j.pk: j for j in joueurs}
    donnes = list(partie.donnes.all())
    if "donnes" in getattr(partie, "_prefetched_objects_cache", {}):
        # parties_with_donnes() already loaded everything.
        hands = [h for d in donnes for h in d.hands.all()]
        rachats = [r for d in donnes for r in d.rachats.all()]
    else:
        hands = list(Hand.objects.filter(donne__partie=partie).order_by("pk"))
        rachats = list(Rachat.objects.filter(donne__partie=partie).order_by("pk"))
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
    return PartieData(
        partie=partie,
        joueurs=joueurs,
        donnes=donnes,
        hands=hands_by,
        rachats=rachats_by,
        config=config_of(partie),
    )


def partie_replay(partie: Partie) -> tuple[PartieData, Replay]:
    data = partie_load(partie)
    return data, data.replay()


def parties_with_donnes(owner) -> list[Partie]:
    """An account's parties with everything partie_load needs: five queries in all."""
    return list(
        Partie.objects.filter(owner=owner).prefetch_related(
            "joueurs", "donnes__hands", "donnes__rachats"
        )
    )


def partie_shared(token: str) -> Partie | None:
    """The partie behind a share link, with its number of donnes (``n_donnes``), in one query:
    enough for the live view's ETag before anything else is loaded."""
    return Partie.objects.filter(share_token=token).annotate(n_donnes=Count("donnes")).first()

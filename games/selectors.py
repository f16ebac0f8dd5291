"""Reads: a partie loaded in a fixed number of queries, in the shape the engine replays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from games.models import Donne, Hand, Joueur, Partie, Rachat
from games.options import config_of
from games.scoring import Config, DonneState, Replay, replay


@dataclass
class PartieData:
    """A partie with everything the engine needs, loaded once."""

    partie: Partie
    joueurs: list[Joueur]
    donnes: list[Donne]
    hands: dict[int, list[Hand]]  # by donne id
    rachats: dict[int, list[Rachat]]  # by donne id
    config: Config
    first: int = 1  # the number of the first donne loaded (a write replays from it)

    def donne(self, number: int) -> Donne:
        return self.donnes[number - self.first]

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

    def replay(
        self,
        inputs: list[dict[str, Any]] | None = None,
        *,
        ended: bool | None = None,
        after: DonneState | None = None,
    ) -> Replay:
        """Lenient replay (the web flow decides rachats after saving a donne): of the loaded
        donnes, or of ``inputs`` in their place, after the stored state ``after``."""
        return replay(
            self.partie.preset,
            self.names,
            self.inputs() if inputs is None else inputs,
            self.config,
            lenient=True,
            ended=self.partie.ended if ended is None else ended,
            after=after,
        )


def partie_load(partie: Partie, *, first: int = 1) -> PartieData:
    """Four queries: players, donnes, hands, rachats; from donne ``first`` on (a write that
    changes donne k replays from k). Plain queries grouped here in Python: prefetch_related
    costs three times as much per row."""
    joueurs = list(partie.joueurs.all())
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
    return PartieData(
        partie=partie,
        joueurs=joueurs,
        donnes=donnes,
        hands=hands_by,
        rachats=rachats_by,
        config=config_of(partie),
        first=first,
    )


def parties_loaded(parties: list[Partie]) -> list[PartieData]:
    """Every donne of several parties (an account's backup) in three queries more: donnes,
    hands and rachats of them all, grouped here. The parties come with their players
    (``parties_of``)."""
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
    loaded = []
    for partie in parties:
        joueurs = list(partie.joueurs.all())
        by_id = {j.pk: j for j in joueurs}
        for donne in donnes.get(partie.pk, []):
            donne.partie, donne.winner = partie, by_id.get(donne.winner_id)
            for row in (*hands.get(donne.pk, []), *rachats.get(donne.pk, [])):
                row.joueur = by_id[row.joueur_id]
        mine = donnes.get(partie.pk, [])
        loaded.append(
            PartieData(
                partie=partie,
                joueurs=joueurs,
                donnes=mine,
                hands={d.pk: hands.get(d.pk, []) for d in mine},
                rachats={d.pk: rachats.get(d.pk, []) for d in mine},
                config=config_of(partie),
            )
        )
    return loaded


def partie_replay(partie: Partie) -> tuple[PartieData, Replay]:
    data = partie_load(partie)
    return data, data.replay()


def parties_of(owner) -> QuerySet[Partie]:
    """An account's parties with their stored results and players (games/replays.py)."""
    return (
        Partie.objects.filter(owner=owner)
        .select_related("result")
        .prefetch_related("joueurs")
        .order_by("-created_at", "-pk")
    )


def partie_shared(token: str) -> Partie | None:
    """The partie behind a share link, with its number of donnes (``n_donnes``), in one query:
    enough for the live view's ETag before anything else is loaded."""
    return Partie.objects.filter(share_token=token).annotate(n_donnes=Count("donnes")).first()

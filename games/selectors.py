"""Reads: load a partie in a fixed number of queries and replay it through the engine."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from games.centimes import to_centimes
from games.models import Donne, Joueur, Main, Partie, Rachat
from games.scoring import Config, Replay, get_preset, replay


@dataclass
class PartieData:
    """A partie with everything the engine needs, loaded once."""

    partie: Partie
    joueurs: list[Joueur]
    donnes: list[Donne]
    mains: dict[int, list[Main]]  # by donne id
    rachats: dict[int, list[Rachat]]  # by donne id

    def mains_of(self, donne: Donne) -> list[Main]:
        return self.mains.get(donne.pk, [])

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
        """A stored donne as the engine's input (RULES.md §1)."""
        hands = {}
        for main in self.mains_of(donne):
            if main.points is not None:
                hands[main.joueur.name] = {"points": main.points, "jokers": main.jokers}
            else:
                hands[main.joueur.name] = {"cards": main.cards.split(), "jokers": main.jokers}
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
            partie_config(self.partie),
            lenient=True,
            ended=self.partie.ended if ended is None else ended,
        )


def partie_load(partie: Partie) -> PartieData:
    """Four queries whatever the number of donnes: players, donnes, hands, rachats. Plain
    queries grouped here in Python: prefetch_related costs three times as much per row."""
    joueurs = list(partie.joueurs.all())
    by_id = {j.pk: j for j in joueurs}
    if "donnes" in getattr(partie, "_prefetched_objects_cache", {}):
        # parties_with_donnes() already loaded everything.
        donnes = list(partie.donnes.all())
        mains = [m for d in donnes for m in d.mains.all()]
        rachats = [r for d in donnes for r in d.rachats.all()]
    else:
        donnes = list(partie.donnes.all())
        mains = list(Main.objects.filter(donne__partie=partie).order_by("pk"))
        rachats = list(Rachat.objects.filter(donne__partie=partie).order_by("pk"))
    # Attach the objects we already have instead of letting each relation query again.
    for donne in donnes:
        donne.partie = partie
        donne.winner = by_id.get(donne.winner_id)
    mains_by: dict[int, list[Main]] = {}
    for main in mains:
        main.joueur = by_id[main.joueur_id]
        mains_by.setdefault(main.donne_id, []).append(main)
    rachats_by: dict[int, list[Rachat]] = {}
    for rachat in rachats:
        rachat.joueur = by_id[rachat.joueur_id]
        rachats_by.setdefault(rachat.donne_id, []).append(rachat)
    return PartieData(
        partie=partie, joueurs=joueurs, donnes=donnes, mains=mains_by, rachats=rachats_by
    )


def parties_with_donnes(owner) -> list[Partie]:
    """An account's parties with everything partie_load needs: five queries in all."""
    return list(
        Partie.objects.filter(owner=owner).prefetch_related(
            "joueurs", "donnes__mains", "donnes__rachats"
        )
    )


def partie_shared(token: str) -> Partie | None:
    """The partie behind a share link, with its number of donnes (``n_donnes``), in one query:
    enough for the live view's ETag before anything else is loaded."""
    return Partie.objects.filter(share_token=token).annotate(n_donnes=Count("donnes")).first()


def partie_replay(partie: Partie) -> tuple[PartieData, Replay]:
    data = partie_load(partie)
    return data, data.replay()


def partie_config(partie: Partie) -> dict[str, Any]:
    """The table options of a partie, in the engine's terms (money in centimes)."""
    prices = [partie.prix_rachat, partie.prix_rachat_2, partie.prix_rachat_3]
    if partie.prix_rachat_2 is None and partie.prix_rachat_3 is None:
        prix: int | list[int] = to_centimes(partie.prix_rachat)
    else:
        # RULES.md R11: an empty later price repeats the one before it.
        filled: list[int] = []
        for price in prices:
            filled.append(to_centimes(price) if price is not None else filled[-1])
        prix = filled
    return {
        "prix_rachat": prix,
        "mise_initiale": to_centimes(partie.mise_initiale),
        "valeur_point": to_centimes(partie.valeur_point),
        "reglement": partie.reglement,
        "threshold": partie.seuil,
        "inclusive": partie.seuil_inclusif,
        "max_rachats": partie.max_rachats,
        "fixed_manches": partie.nombre_manches,
        "target": partie.objectif,
        "target_inclusive": partie.objectif_inclusif,
    }


def partie_rules(partie: Partie) -> Config:
    """The rules the engine applies to this partie: its preset with the table's options."""
    return Config.for_preset(get_preset(partie.preset), partie_config(partie))

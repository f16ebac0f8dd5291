"""A small named cast for the tests: alice owns the parties, bob is another account."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from games import services
from games.models import Partie


def make_user(username: str = "alice") -> User:
    return User.objects.create_user(username=username, password="cartes-sur-table")


def make_partie(
    owner: User, joueurs: list[str] | None = None, preset: str = "classique", **options: Any
) -> Partie:
    return services.partie_create(
        owner=owner,
        name=options.pop("name", "Mardi soir"),
        preset=preset,
        joueurs=joueurs or ["Alice", "Bruno", "Chloé"],
        **options,
    )


def partie_form(**fields: Any) -> dict[str, Any]:
    """What the new-partie form posts: classique, no money, Anne and Bruno; ``fields`` change
    any of it."""
    return {
        "preset": "classique",
        "joueurs": ["Anne", "Bruno"],
        "mise_initiale": "0",
        "rachat_price": "0",
        "point_value": "0",
        "settlement": "gagnant",
        "currency": "EUR",
        **fields,
    }


def hand(cards: str = "", jokers: int = 0, points: int | None = None) -> dict[str, Any]:
    if points is not None:
        return {"points": points, "jokers": jokers}
    return {"cards": cards.split(), "jokers": jokers}


def play(partie: Partie, winner: str | None, win: str, **hands: dict[str, Any]):
    """Record a donne by player names: play(p, "Alice", "rami", Bruno=hand("K Q 5"))."""
    joueurs = {j.name: j for j in partie.joueurs.all()}
    return services.donne_create(
        partie=partie,
        winner=joueurs[winner] if winner else None,
        win=win,
        hands={joueurs[name.replace("_", " ")]: h for name, h in hands.items()},
    )


def decide(partie: Partie, name: str, accepted: bool) -> None:
    services.rachat_decide(partie=partie, joueur=partie.joueurs.get(name=name), accepted=accepted)


def partie_p1(owner: User, *, donnes: int = 4, decided: bool = True) -> Partie:
    """examples.json P1 played through the services (stake 1,00 €, rachat 2,00 €): Bruno
    crosses at donne 3 and buys back when ``decided``; ``donnes`` plays the first ones."""
    partie = make_partie(owner, rachat_price=Decimal("2.00"), mise_initiale=Decimal("1.00"))
    play(partie, "Alice", "rami", Bruno=hand("K Q 5"), Chloé=hand("9 8"))
    play(partie, "Alice", "rami_de_la_main", Bruno=hand("K 7"), Chloé=hand("6 4"))
    play(partie, "Chloé", "rami", Alice=hand("5 2"), Bruno=hand("Q J 9", jokers=1))
    if decided:
        decide(partie, "Bruno", True)
    if donnes >= 4:
        play(partie, "Bruno", "rami", Alice=hand("A", jokers=1), Chloé=hand("", points=12))
    return partie


def revision_of(partie: Partie) -> str:
    """The state token a page's forms carry: the partie's revision as it is now."""
    return str(Partie.objects.get(pk=partie.pk).revision)

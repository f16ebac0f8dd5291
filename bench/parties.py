"""The parties the bench measures, recorded through the services as the phone would (rachats and
eliminations included), and the world the measures share: the owner's logged-in test client,
its cookies, the parties by key, and an empty partie for the writers of the load run."""

from __future__ import annotations

import random
import secrets
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from bench.app import (
    Client,
    Donne,
    Partie,
    User,
    donne_as_posted,
    get_preset,
    partie_load,
    partie_replay,
    services,
)
from bench.serving import test_client

NAMES = ["Anne", "Bruno", "Chloé", "Didier", "Émilie", "Fanny", "Gaston"]
# Small hands, as cards (parsed and checked by the engine) or as a typed count.
SMALL = [
    {"points": 1, "jokers": 0},
    {"cards": ["2"], "jokers": 0},
    {"cards": ["3", "2"], "jokers": 0},
    {"points": 4, "jokers": 0},
    {"cards": ["5"], "jokers": 0},
    {"points": 1, "jokers": 0},
]


@dataclass
class Spec:
    key: str
    preset: str
    players: int
    donnes: int
    crossings: int  # how many times a player is pushed over the seuil
    seuil: int = 100
    options: dict[str, Any] = field(default_factory=dict)


# classique seats at most 6 (docs/rules.md §8); rami52_6 seats 7 with the same seuil of 100 and
# 3 rachats. Its 4 manches are raised so that the partie runs for all its donnes, and its
# seuil to 1000: every loser keeps at least one card, so small hands alone would make
# everyone cross within a hundred donnes.
SEVEN = {"fixed_manches": 1000, "seuil": 1000}

# One line a partie size; the budgets "for each partie" (bench/budgets.py) follow.
SPECS = [
    Spec("4x20", "classique", 4, 20, 2),
    Spec("7x120", "rami52_6", 7, 120, 5, 1000, SEVEN),
    Spec("7x300", "rami52_6", 7, 300, 8, 1000, SEVEN),
]
# The partie whose first donne is edited and whose replay is timed.
LONGEST = max(SPECS, key=lambda spec: (spec.donnes, spec.players)).key


@dataclass
class World:
    client: Client  # the test client, logged in as the owner
    cookies: dict[str, str]  # the same session (and CSRF token) for the gunicorn clients
    parties: dict[str, Partie]  # by Spec.key, in the order of SPECS
    writers_partie: Partie  # the load run's writers record here


def build_world() -> World:
    owner = User.objects.create_user("banc", password=secrets.token_urlsafe(16))
    rng = random.Random(8)
    parties = {}
    for spec in SPECS:
        t = time.perf_counter()
        parties[spec.key] = build_partie(owner, spec, rng)
        print(f"  recorded partie {spec.key} in {time.perf_counter() - t:.1f} s")
    writers_partie = services.partie_create(
        owner=owner, name="Banc écritures", preset="classique", joueurs=NAMES[:4]
    )
    client, cookies = test_client(owner, f"/parties/{writers_partie.pk}/")
    return World(client, cookies, parties, writers_partie)


def build_partie(owner: User, spec: Spec, rng: random.Random) -> Partie:
    """Record the partie donne by donne through the services, as the phone would: losers keep
    small hands, and now and then one of them crosses the seuil and buys back or declines."""
    partie = services.partie_create(
        owner=owner,
        name=f"Banc {spec.key}",
        preset=spec.preset,
        joueurs=NAMES[: spec.players],
        **spec.options,
    )
    joueurs = {j.name: j for j in partie.joueurs.all()}
    win_types = list(get_preset(spec.preset).win_types)
    crossing_at = {
        round((i + 1) * spec.donnes / (spec.crossings + 1)) for i in range(spec.crossings)
    }
    crossings = 0
    totals = dict.fromkeys(joueurs, 0)
    pushed = dict.fromkeys(joueurs, 0)
    in_race = list(joueurs)
    for number in range(1, spec.donnes + 1):
        winner = in_race[number % len(in_race)]
        losers = [n for n in in_race if n != winner]
        hands = {}
        for name in losers:
            low = totals[name] < spec.seuil - 100
            hand = dict(rng.choice(SMALL)) if low else {"points": 1, "jokers": 0}
            hands[joueurs[name]] = hand
        if number in crossing_at:
            victim = min(losers, key=lambda n: (pushed[n], -totals[n]))
            pushed[victim] += 1
            hands[joueurs[victim]] = {"points": spec.seuil, "jokers": 0}
        services.donne_create(
            partie=partie,
            winner=joueurs[winner],
            win=rng.choice(win_types),
            hands=hands,
            idempotency_key=uuid.uuid4(),
        )
        _data, result = partie_replay(partie)
        for pending in result.pending:
            crossings += 1
            # Every third crossing declines (eliminated), as long as three players stay.
            accept = crossings % 3 != 0 or len(in_race) <= 3
            services.rachat_decide(partie=partie, joueur=joueurs[pending.player], accepted=accept)
        _data, result = partie_replay(partie)
        assert not result.over and not result.pending, (spec, number, result.final)
        state = result.states[-1]
        totals.update(state.totals)
        in_race = [n for n in joueurs if n in state.in_race]
    partie.refresh_from_db()
    return services.partie_share(partie=partie)


def record_data(partie: Partie) -> dict[str, str]:
    """A valid new donne as the phone posts it: each loser keeps one point, nobody crosses."""
    data = partie_load(partie)
    result = data.replay()
    in_race = [j for j in data.joueurs if j.name in result.states[-1].in_race]
    winner = in_race[len(data.donnes) % len(in_race)]
    post = {"winner": str(winner.pk), "cle": str(uuid.uuid4()), "etat": data.etat}
    post["en_course"] = " ".join(str(j.pk) for j in in_race)  # as the form names them
    for j in in_race:
        if j != winner:
            post[f"points_{j.pk}"] = "1"
            post[f"jokers_{j.pk}"] = "0"
    return post


def undo_last(partie: Partie) -> None:
    donne = Donne.objects.filter(partie=partie).order_by("-number").first()
    services.donne_delete(donne=donne)


def edit_data(partie: Partie) -> dict[str, str]:
    """The first donne posted back as it was recorded: a full save and replay of everything."""
    return donne_as_posted(partie, 1)

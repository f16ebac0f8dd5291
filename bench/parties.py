"""The parties the bench measures, recorded through the services as the phone would (rachats and
eliminations included), the accounts whose home pages it compares, and the world the measures
share: the owner's logged-in test client, its cookies, the parties by key, and an empty partie
for the writers of the load run."""

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
    config_of,
    get_preset,
    partie_replay,
    replay,
    services,
)
from bench.forms import as_posted, new_donne
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


def long_partie(seuil: int) -> dict[str, int]:
    """rami52_6 for a long partie. No preset seats more than 7 (docs/rules.md §8) and classique
    seats 6 and eliminates at 100, so the 7-player parties are rami52_6 (seuil 100, 3 rachats,
    4 manches) with no fixed manches (0 means none, docs/rules.md R24) and its seuil raised:
    every loser keeps at least one card, so small hands alone would make everyone cross within a
    hundred donnes."""
    return {"fixed_manches": 0, "seuil": seuil}


# One line a partie size; the budgets "for each partie" (bench/budgets.py) follow. 1000 donnes is
# the most a partie may hold; a partie of 1000 donnes needs a seuil that 1000 small hands cannot
# reach.
MAX_HAND = 1000  # docs/rules.md R28: the most a hand may count
SPECS = [
    Spec("4x20", "classique", 4, 20, 2),
    Spec("7x120", "rami52_6", 7, 120, 5, 1000, long_partie(1000)),
    Spec("7x300", "rami52_6", 7, 300, 8, 1000, long_partie(1000)),
    Spec("7x1000", "rami52_6", 7, 1000, 10, 5000, long_partie(5000)),
]
# The partie whose first donne is edited and whose replay is timed beside bench_replay's.
REPLAYED = "7x300"
# The partie whose PDF is requested in parallel during the load run (and rendered once before).
HEAVIEST = "7x1000"
# The accounts whose home pages are compared, by number of parties; each partie has a few donnes,
# one in two is ended (the home page lists "En cours" and "Terminées").
ACCOUNTS = {"2 parties": 2, "200 parties": 200}
ACCOUNT_DONNES = 3


@dataclass
class World:
    client: Client  # the test client, logged in as the owner
    cookies: dict[str, str]  # the same session (and CSRF token) for the gunicorn clients
    parties: dict[str, Partie]  # by Spec.key, in the order of SPECS
    writers_partie: Partie  # the load run's writers record here
    # By ACCOUNTS key: that account's test client and cookies, as for the owner.
    accounts: dict[str, tuple[Client, dict[str, str]]] = field(default_factory=dict)


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
    accounts = {}
    for key, count in ACCOUNTS.items():
        t = time.perf_counter()
        accounts[key] = build_account(f"banc{count}", count, rng)
        print(f"  account of {key} in {time.perf_counter() - t:.1f} s")
    return World(client, cookies, parties, writers_partie, accounts)


def build_partie(owner: User, spec: Spec, rng: random.Random) -> Partie:
    """Record the partie donne by donne through the services, as the phone would: losers keep
    small hands, and now and then one of them crosses the seuil and buys back or declines.
    The engine follows along in memory, each donne replayed alone from the state after the one
    before (so the build grows with the donnes, not with their square), to know who is en
    course, their totals and who must decide; the partie as stored is replayed once at the end
    to check that both agree."""
    partie = services.partie_create(
        owner=owner,
        name=f"Banc {spec.key}",
        preset=spec.preset,
        joueurs=NAMES[: spec.players],
        **spec.options,
    )
    joueurs = {j.name: j for j in partie.joueurs.all()}
    names = list(joueurs)
    config = config_of(partie)
    win_types = list(get_preset(spec.preset).win_types)
    crossing_at = {
        round((i + 1) * spec.donnes / (spec.crossings + 1)) for i in range(spec.crossings)
    }
    crossings = 0
    totals = dict.fromkeys(names, 0)
    pushed = dict.fromkeys(names, 0)
    in_race = list(names)
    state = None  # the engine's state after the last donne
    victim = None  # pushed over the seuil, at most 1000 a hand (docs/rules.md R28)
    for number in range(1, spec.donnes + 1):
        if number in crossing_at and victim is None:
            victim = min(in_race, key=lambda n: (pushed[n], -totals[n]))
            pushed[victim] += 1
        winner = in_race[number % len(in_race)]
        if winner == victim:
            winner = next(n for n in in_race if n != victim)
        losers = [n for n in in_race if n != winner]
        hands = {}
        for name in losers:
            low = totals[name] < spec.seuil - 100
            hands[name] = dict(rng.choice(SMALL)) if low else {"points": 1, "jokers": 0}
        if victim is not None:
            push = min(MAX_HAND, max(spec.seuil - totals[victim], 1))
            hands[victim] = {"points": push, "jokers": 0}
        win = rng.choice(win_types)
        services.donne_create(
            partie=partie,
            winner=joueurs[winner],
            win=win,
            hands={joueurs[name]: dict(hand) for name, hand in hands.items()},
            idempotency_key=uuid.uuid4(),
        )
        donne = {"winner": winner, "win": win, "hands": hands, "rachat": {}}
        result = replay(spec.preset, names, [donne], config, lenient=True, after=state)
        if any(p.player == victim for p in result.pending):
            victim = None
        for pending in result.pending:
            crossings += 1
            # Every third crossing declines (eliminated), as long as three players stay.
            accept = crossings % 3 != 0 or len(in_race) <= 3
            services.rachat_decide(partie=partie, joueur=joueurs[pending.player], accepted=accept)
            donne["rachat"][pending.player] = accept
        if result.pending:
            result = replay(spec.preset, names, [donne], config, lenient=True, after=state)
        assert not result.over and not result.pending, (spec, number, result.final)
        state = result.states[-1]
        totals.update(state.totals)
        in_race = [n for n in names if n in state.in_race]
    partie.refresh_from_db()
    _data, stored = partie_replay(partie)
    assert len(stored.states) == spec.donnes and not stored.over and not stored.pending, spec
    assert stored.states[-1].totals == state.totals, spec
    return services.partie_share(partie=partie)


def build_account(username: str, count: int, rng: random.Random) -> tuple[Client, dict[str, str]]:
    """An account with ``count`` parties of 4 players and ACCOUNT_DONNES donnes each (nobody
    near the seuil), one in two ended by hand; its test client logged in, and its cookies."""
    user = User.objects.create_user(username, password=secrets.token_urlsafe(16))
    for index in range(count):
        partie = services.partie_create(
            owner=user, name=f"Soirée {index + 1}", preset="classique", joueurs=NAMES[:4]
        )
        joueurs = list(partie.joueurs.all())
        for number in range(1, ACCOUNT_DONNES + 1):
            winner = joueurs[(index + number) % len(joueurs)]
            hands = {j: {"points": rng.randint(1, 20), "jokers": 0} for j in joueurs if j != winner}
            services.donne_create(
                partie=partie, winner=winner, win="rami", hands=hands, idempotency_key=uuid.uuid4()
            )
        if index % 2:
            services.partie_close(partie=partie)
    return test_client(user, "/")


def delete_last(partie: Partie) -> None:
    donne = Donne.objects.filter(partie=partie).order_by("-number").first()
    services.donne_delete(donne=donne)


def record_again(client: Client, partie: Partie, turn: int) -> dict[str, str]:
    """The partie's last donne deleted, then the page loaded as the phone loads it, and the
    donne form of the page filled in (bench/forms.py): posting it records donne N again, so the
    partie keeps its N donnes (and never goes past 1000)."""
    delete_last(partie)
    return new_donne(page_html(client, f"/parties/{partie.pk}/"), turn)


def renew_last(client: Client, partie: Partie, host: str | None = None, turn: int = 0) -> None:
    """The last donne deleted and recorded anew through the page's form: the partie changed, so
    nothing derived from it before (a cached PDF) may be served again. ``host``: the address
    the phone posts to (the page its answer keeps is kept for that address)."""
    post = record_again(client, partie, turn)
    to = {"HTTP_HOST": host} if host else {}
    response = client.post(f"/parties/{partie.pk}/donnes/", post, HTTP_HX_REQUEST="true", **to)
    if response.status_code != 200:
        raise SystemExit(f"recording donne anew: status {response.status_code}")


def edit_first(client: Client, partie: Partie) -> dict[str, str]:
    """The first donne's edit page loaded and its form posted back as it stands: a full save and
    replay of everything."""
    return as_posted(page_html(client, f"/parties/{partie.pk}/donnes/1/"))


def page_html(client: Client, url: str) -> str:
    response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url}: status {response.status_code}, expected 200")
    return response.content.decode()

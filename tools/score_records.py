"""Golden outputs of ``manage.py rami score``: proof that a refactor changes no byte of them.

``python tools/score_records.py --write`` generates a few hundred partie records (seeded
``random.Random``: the same records on every run), runs ``rami score - --format F`` on each
in-process and writes ``tests/data/score_golden.jsonl.gz``, one JSON object a line::

    {"name": ..., "format": "json", "record": ..., "exit": 0, "stdout": "..."}

``record`` is the partie record (its text on stdin is ``json.dumps(record, ensure_ascii=False)``)
or, for input that is not JSON at all, the raw text given as is. The worked cases of
``tests/data/examples.json`` are added as records too.

``python tools/score_records.py`` (the comparison) reads the records back from that file, runs
today's code on them and prints every mismatch (name and first differing line); it exits 1 on
any. It only needs the management command, never the engine's internals: the generator below
uses ``games.scoring`` (a lenient replay, donne by donne, to know who crossed the seuil), the
comparison does not. ``tests/games/scoring/test_score_golden.py`` makes the same check under pytest.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "data" / "examples.json"

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ramiscore.settings")

import django  # noqa: E402

django.setup()

from tests.games.scoring.golden import (  # noqa: E402
    GOLDEN,
    first_difference,
    input_text,
    load_golden,
    run_score,
)

SEED = 20240607
VALID = 340  # generated valid records
REFUSED = 60  # generated refused records (15 %)
# Output formats, cycled over the records in order: mostly JSON.
FORMAT_CYCLE = ("json", "text", "json", "csv", "json")
PRESET_KEYS = ("classique", "rami52_7", "rami52_6", "rami51", "rami40")


# -- valid parties ------------------------------------------------------------------------------

NAMES = (
    "Alice",
    "Bruno",
    "Chloé",
    "Damien",
    "Élodie",
    "François",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jean-Marc",
    "Karim",
    "Léa",
    "Mathis",
    "Noémie",
    "Paul",
    "Zoé",
    "Marie Claire",
    "O'Neil",
    "Li, Wei",  # a comma: quoted in the CSV header
    '"Bob"',  # quotes: doubled in the CSV header
    "Ana 🃏",
    "Ｊｏ",  # wide characters in the text table
    "x",
)
# Per preset, the most cards a loser plausibly keeps.
MAX_CARDS = {"classique": 8, "rami52_7": 7, "rami52_6": 6, "rami51": 13, "rami40": 13}
# Spellings of the figures and the ace: English, French (R D V), lower case.
FIGURES = {
    "A": {"en": "A", "fr": "A", "en_lower": "a", "fr_lower": "a"},
    "K": {"en": "K", "fr": "R", "en_lower": "k", "fr_lower": "r"},
    "Q": {"en": "Q", "fr": "D", "en_lower": "q", "fr_lower": "d"},
    "J": {"en": "J", "fr": "V", "en_lower": "j", "fr_lower": "v"},
}
STYLES = ("en", "fr", "en_lower", "fr_lower", "mixed")


@dataclass
class Table:
    """How one generated partie is played: the knobs of the generator."""

    preset: str
    players: list[str]
    config: dict[str, Any]
    length: int  # donnes at most (the partie may end sooner)
    p_buy: float = 0.7  # chance a crosser buys back
    scale: str = "normal"  # hand sizes: small, normal, big
    points_p: float = 0.2  # chance a hand is given as a points total
    talon_p: float = 0.15  # rami52_7 only
    style: str = "mixed"


@dataclass
class Played:
    table: Table
    donnes: list[dict[str, Any]]
    states: list[Any]  # DonneState after each donne
    over: bool
    end_reason: str | None
    record: dict[str, Any] = field(default_factory=dict)


def spell(rng: random.Random, rank: str, style: str, as_text: bool) -> str | int:
    if style == "mixed":
        style = rng.choice(STYLES[:4])
    if rank in FIGURES:
        return FIGURES[rank][style]
    if not as_text and rng.random() < 0.06:
        return int(rank)  # a number is read as its pip
    if not as_text and rng.random() < 0.02:
        return f" {rank} "  # surrounding spaces are stripped
    return rank


def make_hand(rng: random.Random, table: Table, preset: Any) -> dict[str, Any]:
    from games.scoring.presets import RANKS

    max_jokers = preset.deck_jokers
    jokers = rng.choices(range(max_jokers + 1), weights=[8, 3, 2, 1, 1][: max_jokers + 1])[0]
    if table.scale == "big" and rng.random() < 0.3:
        jokers = max_jokers
    hand: dict[str, Any]
    if rng.random() < table.points_p:
        top = {"small": 6, "normal": 45, "big": 120}[table.scale]
        points = rng.randint(0, top)
        if points == 0 and jokers == 0 and rng.random() < 0.9:
            points = rng.randint(1, top)
        if points == 0 and jokers == 0:
            jokers = 1
        hand = {"points": points, "jokers": jokers}
    else:
        most = MAX_CARDS[table.preset]
        if table.scale == "small":
            count, ranks = rng.randint(0, 2), ("2", "3", "4", "5", "A")
        elif table.scale == "big":
            count, ranks = rng.randint(most // 2, most + 4), RANKS
        else:
            count, ranks = min(rng.randint(0, most), rng.randint(0, most)), RANKS
        if count == 0 and jokers == 0:
            count = 1
        as_text = rng.random() < 0.12
        counts: Counter[str] = Counter()
        cards: list[str | int] = []
        for _ in range(count):
            rank = rng.choice(ranks)
            if counts[rank] >= preset.max_same_rank:
                continue
            counts[rank] += 1
            cards.append(spell(rng, rank, table.style, as_text))
        if not cards and jokers == 0:
            jokers = 1
        text = " ".join(str(c) for c in cards)
        hand = {"cards": text if as_text else cards, "jokers": jokers}
    if hand["jokers"] == 0 and rng.random() < 0.3:
        del hand["jokers"]  # jokers defaults to 0
    elif rng.random() < 0.1:
        hand = dict(reversed(list(hand.items())))
    return hand


def make_donne(rng: random.Random, table: Table, preset: Any, in_race: list[str]) -> dict[str, Any]:
    wins = list(preset.win_types)
    weights = [6] + [2] * (len(wins) - 1)
    if preset.talon_epuise and rng.random() < table.talon_p:
        winner, win = None, "talon_epuise"
    else:
        winner, win = rng.choice(in_race), rng.choices(wins, weights=weights)[0]
    losers = [p for p in in_race if p != winner]
    if rng.random() < 0.2:
        losers = rng.sample(losers, len(losers))  # hands in any order
    hands = {p: make_hand(rng, table, preset) for p in losers}
    if winner is None and rng.random() < 0.3:
        return {"win": win, "hands": hands}  # no "winner" key: null
    if rng.random() < 0.1:
        return {"hands": hands, "win": win, "winner": winner}
    return {"winner": winner, "win": win, "hands": hands}


def play(rng: random.Random, table: Table) -> Played:
    """Donne by donne with a lenient replay: every crosser who must decide gets a decision."""
    from games.scoring import DonneInput, get_preset, replay

    preset = get_preset(table.preset)
    donnes: list[dict[str, Any]] = []
    parsed: list[Any] = []
    states: list[Any] = []
    in_race, over, end_reason = list(table.players), False, None
    while len(donnes) < table.length and not over:
        donne = make_donne(rng, table, preset, in_race)
        donnes.append(donne)
        parsed.append(DonneInput.from_dict(donne))
        result = replay(preset, table.players, parsed, table.config, lenient=True)
        if result.pending:
            decisions = {p.player: rng.random() < table.p_buy for p in result.pending}
            if len(decisions) > 1 and rng.random() < 0.3:
                decisions = dict(reversed(list(decisions.items())))
            donne["rachat"] = decisions
            parsed[-1] = DonneInput.from_dict(donne)
            result = replay(preset, table.players, parsed, table.config, lenient=True)
            assert not result.pending, result.pending
        elif rng.random() < 0.03:
            donne["rachat"] = rng.choice([{}, None])  # nothing to decide, said explicitly
        assert not result.stale_decisions and len(result.states) == len(donnes)
        states.append(result.states[-1])
        in_race, over, end_reason = result.states[-1].in_race, result.over, result.end_reason
    return Played(table, donnes, states, over, end_reason)


def record_of(rng: random.Random, played: Played) -> dict[str, Any]:
    table = played.table
    record: dict[str, Any] = {"preset": table.preset, "players": list(table.players)}
    roll = rng.random()
    if table.config or roll < 0.5:
        record["config"] = dict(table.config)
    elif roll < 0.6:
        record["config"] = None  # null: the preset defaults
    record["donnes"] = played.donnes
    roll = rng.random()
    if roll < 0.15:
        record["ended"] = False
    if rng.random() < 0.1:
        record = dict(reversed(list(record.items())))
    played.record = record
    return record


def make_config(rng: random.Random, preset_key: str) -> dict[str, Any]:
    config: dict[str, Any] = {}
    draws: list[tuple[str, float, Callable[[], Any]]] = [
        (
            "prix_rachat",
            0.45,
            lambda: rng.choice(
                [
                    rng.choice([0, 50, 100, 150, 200, 500]),
                    sorted(rng.choice([0, 50, 100, 200, 300, 500]) for _ in range(3)),
                    [rng.randint(0, 400) for _ in range(3)],
                ]
            ),
        ),
        ("mise_initiale", 0.4, lambda: rng.choice([0, 25, 50, 100, 200, 333, 500])),
        ("valeur_point", 0.35, lambda: rng.choice([0, 1, 2, 5, 10, 25])),
        ("reglement", 0.35, lambda: rng.choice(["gagnant", "croise"])),
        ("threshold", 0.15, lambda: rng.choice([30, 50, 80, 100, 120, 150, 200, 250])),
        ("inclusive", 0.15, lambda: rng.random() < 0.5),
        ("max_rachats", 0.2, lambda: rng.randint(0, 5)),
        ("fixed_manches", 0.1, lambda: rng.randint(1, 12)),
        ("target", 0.1, lambda: rng.choice([100, 150, 200, 300, 500, 800, 1000, 1500])),
        ("target_inclusive", 0.1, lambda: rng.random() < 0.5),
    ]
    rng.shuffle(draws)
    for name, chance, value in draws:
        if rng.random() < chance:
            config[name] = value()
    if preset_key == "rami51" and "threshold" in config and rng.random() < 0.5:
        config["max_rachats"] = rng.randint(0, 2)
    if rng.random() < 0.05:
        config[rng.choice(["threshold", "target", "fixed_manches", "max_rachats"])] = None
    return config


def random_table(rng: random.Random, preset_key: str, kind: str) -> Table:
    from games.scoring import get_preset

    preset = get_preset(preset_key)
    count = rng.randint(preset.min_players, preset.max_players)
    players = rng.sample(NAMES, count)
    config = make_config(rng, preset_key)
    table = Table(
        preset=preset_key,
        players=players,
        config=config,
        length=rng.choice([rng.randint(1, 12), rng.randint(1, 40), 500]),
        p_buy=rng.choice([0.3, 0.6, 0.8, 0.95]),
        scale=rng.choices(["small", "normal", "big"], weights=[1, 6, 2])[0],
        points_p=rng.choice([0.0, 0.0, 0.2, 0.5, 1.0]),
        talon_p=rng.choice([0.1, 0.2, 0.4]),
        style=rng.choice(STYLES),
    )
    if kind == "empty":
        table.length = 0
    elif kind == "long":
        long_table(rng, table)
    return table


def long_table(rng: random.Random, table: Table) -> None:
    """100 to 300 donnes: keep the partie alive that long."""
    table.length = rng.randint(100, 300)
    config = table.config
    for name in ("threshold", "max_rachats", "fixed_manches", "target", "inclusive"):
        config.pop(name, None)
    if table.preset in ("rami52_7", "rami52_6"):
        # The last manche is the last donne (or later: the length ends it first).
        config["fixed_manches"] = rng.choice([table.length, table.length + 50])
    if table.preset == "rami51":
        # docs/rules.md R28: target and threshold are at most 100 000 (it was 10**5 or 10**6:
        # two choices still, so that the records drawn after it stay the same).
        config["target"] = rng.choice([10**5, 10**5])
        if rng.random() < 0.3:
            config["threshold"], config["max_rachats"] = 300, 200
    elif rng.random() < 0.5:
        config["threshold"] = rng.choice([5000, 20000, 10**5])
    else:
        # Many rachats: every crosser buys back, beyond the 3 prices of the list.
        config["max_rachats"] = 10**4
        table.p_buy = 1.0
    table.scale = rng.choice(["small", "normal"])


def valid_record(rng: random.Random, preset_key: str, kind: str) -> dict[str, Any]:
    played = play(rng, random_table(rng, preset_key, kind))
    record = record_of(rng, played)
    if rng.random() < 0.35 and not played.over:
        record["ended"] = True
        last = record["donnes"][-1] if record["donnes"] else None
        if last and last.get("rachat") and rng.random() < 0.6:
            del last["rachat"]  # a manual end right after: undecided crossers are fine
    return record


# -- refused records ----------------------------------------------------------------------------


class Retry(Exception):
    """This base partie offers no place for the mistake: generate another."""


def base(rng: random.Random, preset_key: str | None = None, **knobs: Any) -> Played:
    key = preset_key or rng.choice(PRESET_KEYS)
    table = random_table(rng, key, "normal")
    table.length = knobs.pop("length", rng.randint(1, 15))
    table.config.update(knobs.pop("config", {}))
    for name, value in knobs.items():
        setattr(table, name, value)
    played = play(rng, table)
    record_of(rng, played)
    return played


def loser_hands(played: Played) -> list[tuple[int, str]]:
    return [(i, p) for i, d in enumerate(played.donnes) for p in d["hands"]]


def pick_hand(rng: random.Random, played: Played) -> dict[str, Any]:
    spots = loser_hands(played)
    if not spots:
        raise Retry
    i, player = rng.choice(spots)
    return played.donnes[i]["hands"][player]


def refuse_card(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, points_p=0.0)
    hand = pick_hand(rng, played)
    bad = rng.choice(["X", "1", "11", "B", "Joker", "0", "KK", "", "T", "Roi", 1, 11, 7.5, None])
    if isinstance(hand.get("cards"), str):
        hand["cards"] = hand["cards"] + f" {rng.choice(['X', '1', 'C', 'Dame'])}"
    else:
        hand["cards"] = [*hand["cards"], bad]
        rng.shuffle(hand["cards"])
    return played.record, "carte_inconnue"


def refuse_missing_hand(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    i, player = rng.choice(loser_hands(played) or [(0, "")])
    if not player:
        raise Retry
    del played.donnes[i]["hands"][player]
    return played.record, "mains_incompletes"


def eliminated_spot(rng: random.Random, played: Played) -> tuple[int, str]:
    """A donne after which somebody is out while the partie goes on."""
    spots = [
        (i, p)
        for i, s in enumerate(played.states)
        if not s.partie_over
        for p in played.table.players
        if p not in s.in_race
    ]
    if not spots:
        raise Retry
    return rng.choice(spots)


def refuse_winner_out(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, rng.choice(["classique", "rami40"]), p_buy=0.3, length=30, scale="big")
    i, out = eliminated_spot(rng, played)
    del played.donnes[i + 1 :]
    from games.scoring import get_preset

    preset = get_preset(played.table.preset)
    in_race = played.states[i].in_race
    donne = make_donne(rng, played.table, preset, in_race)
    donne["winner"] = out
    donne["win"] = preset.default_win
    played.donnes.append(donne)
    return played.record, "gagnant_hors_course"


def refuse_hand_too_many(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, rng.choice(["classique", "rami40"]), p_buy=0.3, length=30, scale="big")
    if rng.random() < 0.5:
        donne = rng.choice([d for d in played.donnes if d.get("winner")] or [None])
        if donne is None:
            raise Retry
        donne["hands"][donne["winner"]] = {"cards": ["2"], "jokers": 0}
        return played.record, "main_en_trop"
    i, out = eliminated_spot(rng, played)
    if i + 1 >= len(played.donnes):
        raise Retry
    played.donnes[i + 1]["hands"][out] = {"points": 5}
    return played.record, "main_en_trop"


def refuse_option(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    name, value = rng.choice(
        [
            ("cagnotte", 100),
            ("mise_initiale", -100),
            ("prix_rachat", []),  # docs/rules.md R25: a shorter list is fine, an empty one not
            ("prix_rachat", "200"),
            ("prix_rachat", [100, -1, 300]),
            ("threshold", 0),
            ("inclusive", "oui"),
            ("reglement", "moitié"),
            ("max_rachats", True),
            ("fixed_manches", 2.5),
            ("target", -1),
            ("valeur_point", 1.5),
            ("target_inclusive", 1),
        ]
    )
    played.record["config"] = {**(played.record.get("config") or {}), name: value}
    return played.record, "option_invalide"


def decided_spots(played: Played) -> list[tuple[int, str]]:
    return [(i, p) for i, d in enumerate(played.donnes) for p in d.get("rachat") or {}]


def refuse_missing_decision(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, rng.choice(["classique", "rami40", "rami52_6"]), length=30, scale="big")
    spots = decided_spots(played)
    if not spots:
        raise Retry
    i, player = rng.choice(spots)
    del played.donnes[i]["rachat"][player]
    return played.record, "decision_manquante"


def refuse_needless_decision(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    spots = [
        (i, p)
        for i, s in enumerate(played.states)
        for p in played.table.players
        if p not in s.crossings
    ]
    i, player = rng.choice(spots or [(0, "")])
    if not player:
        raise Retry
    donne = played.donnes[i]
    donne["rachat"] = {**(donne.get("rachat") or {}), player: rng.random() < 0.5}
    return played.record, "pas_de_rachat"


def refuse_jokers(rng: random.Random) -> tuple[Any, str]:
    from games.scoring import get_preset

    played = base(rng)
    hand = pick_hand(rng, played)
    hand["jokers"] = get_preset(played.table.preset).deck_jokers + rng.randint(1, 3)
    return played.record, "trop_de_jokers"


def refuse_same_rank(rng: random.Random) -> tuple[Any, str]:
    from games.scoring import get_preset

    played = base(rng)
    hand = pick_hand(rng, played)
    rank = rng.choice(["K", "Q", "J", "7", "A"])
    many = get_preset(played.table.preset).max_same_rank + 1
    hand.pop("points", None)
    hand["cards"] = [spell(rng, rank, "mixed", False) for _ in range(many)]
    return played.record, "trop_de_cartes_de_meme_rang"


def refuse_duplicate(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    players = played.record["players"]
    players.insert(rng.randint(0, len(players)), rng.choice(players))
    return played.record, "joueurs_en_double"


def refuse_player_count(rng: random.Random) -> tuple[Any, str]:
    from games.scoring import get_preset

    played = base(rng, length=0)
    preset = get_preset(played.table.preset)
    if rng.random() < 0.5:
        played.record["players"] = played.record["players"][:1]
    else:
        played.record["players"] = rng.sample(NAMES, preset.max_players + 1)
    return played.record, "nombre_de_joueurs"


def refuse_name(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(0, 3))
    played.record["players"].append(rng.choice(["", "   "]))
    return played.record, "nom_invalide"


def refuse_preset(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(0, 3))
    played.record["preset"] = rng.choice(["rami53", "Classique", "", "rami 51", "poker"])
    return played.record, "preset_inconnu"


def refuse_unknown_player(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(1, 8))
    donne = rng.choice(played.donnes)
    # docs/rules.md R28: "alice" would be Alice (names compare without case).
    stranger = rng.choice(["Inconnu", "Alicia", "Zorro"])
    where = rng.choice(["hands", "winner", "rachat"])
    if where == "hands":
        donne["hands"][stranger] = {"cards": ["5"]}
    elif where == "winner" and donne.get("winner"):
        donne["winner"] = stranger
    else:
        donne["rachat"] = {stranger: True}
    if stranger in played.table.players:
        raise Retry
    return played.record, "joueur_inconnu"


def refuse_empty_hand(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    hand = pick_hand(rng, played)
    hand.clear()
    hand.update(rng.choice([{"cards": [], "jokers": 0}, {"points": 0}, {"cards": ""}, {}]))
    return played.record, "main_vide"


def refuse_points(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    hand = pick_hand(rng, played)
    hand.clear()
    hand.update({"points": rng.choice([-5, "12", 12.5, None, True]), "jokers": 0})
    return played.record, "points_invalides"


def refuse_joker_count(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    hand = pick_hand(rng, played)
    hand["jokers"] = rng.choice([-1, "1", True, 1.0, None])
    return played.record, "jokers_invalides"


def refuse_hand_shape(rng: random.Random) -> tuple[Any, str]:
    played = base(rng)
    i, player = rng.choice(loser_hands(played) or [(0, "")])
    if not player:
        raise Retry
    played.donnes[i]["hands"][player] = rng.choice(
        [
            {"cards": ["K", "2"], "points": 12},
            {"carte": ["K"]},
            {"cards": 5},
            ["K", "Q"],
            "K Q",
            15,
        ]
    )
    return played.record, "main_invalide"


def refuse_win(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(1, 8))
    donne = rng.choice([d for d in played.donnes if d.get("winner")] or [None])
    if donne is None:
        raise Retry
    others = {"rami", "sortie", "going_rami", "Rami", "rami_sec", "sortie_rami"}
    from games.scoring import get_preset

    donne["win"] = rng.choice(sorted(others - set(get_preset(played.table.preset).win_types)))
    return played.record, "type_de_gain_inconnu"


def refuse_talon(rng: random.Random) -> tuple[Any, str]:
    key = rng.choice(["classique", "rami52_6", "rami51", "rami40"])
    played = base(rng, key, length=rng.randint(1, 8))
    i = rng.randrange(len(played.donnes))
    in_race = played.states[i - 1].in_race if i else played.table.players
    from games.scoring import get_preset

    donne = played.donnes[i]
    donne.update(winner=None, win="talon_epuise")
    preset = get_preset(key)
    donne["hands"] = {p: make_hand(rng, played.table, preset) for p in in_race}
    return played.record, "talon_epuise_non_compte"


def refuse_winner_missing(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(1, 8))
    donne = rng.choice([d for d in played.donnes if d.get("winner")] or [None])
    if donne is None:
        raise Retry
    if rng.random() < 0.5:
        donne["winner"] = None
    else:
        del donne["winner"]
    return played.record, "gagnant_manquant"


def refuse_talon_winner(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, "rami52_7", talon_p=0.5, length=4)
    spots = [(i, d) for i, d in enumerate(played.donnes) if d["win"] == "talon_epuise"]
    if not spots:
        raise Retry
    i, donne = rng.choice(spots)
    in_race = played.states[i - 1].in_race if i else played.table.players
    donne["winner"] = rng.choice(in_race)
    return played.record, "gagnant_inattendu"


def refuse_after_end(rng: random.Random) -> tuple[Any, str]:
    from games.scoring import get_preset

    played = base(rng, length=60, p_buy=0.5, scale="big")
    if not played.over:
        raise Retry
    preset = get_preset(played.table.preset)
    played.donnes.append(make_donne(rng, played.table, preset, played.states[-1].in_race))
    return played.record, "partie_terminee"


def refuse_decision_value(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, rng.choice(["classique", "rami40", "rami52_7"]), length=30, scale="big")
    spots = decided_spots(played)
    if not spots:
        raise Retry
    i, player = rng.choice(spots)
    played.donnes[i]["rachat"][player] = rng.choice(["oui", 1, None, "true", 0])
    return played.record, "decision_invalide"


def refuse_last_manche(rng: random.Random) -> tuple[Any, str]:
    key = rng.choice(["rami52_7", "rami52_6", "classique"])
    manches = rng.randint(1, 5)
    knobs = {"fixed_manches": manches, "threshold": rng.choice([20, 40, 60])}
    if key == "classique" and rng.random() < 0.5:
        knobs = {"target": rng.choice([40, 60, 90]), "threshold": 30}
    played = base(rng, key, config=knobs, length=6, scale="big")
    last = played.states[-1]
    if last.end_reason not in ("fixed_manches", "target_reached") or not last.crossings:
        raise Retry
    played.donnes[-1]["rachat"] = {rng.choice(list(last.crossings)): rng.random() < 0.7}
    return played.record, "pas_de_rachat_apres_la_derniere_manche"


def refuse_no_reference(rng: random.Random) -> tuple[Any, str]:
    played = base(
        rng,
        "rami52_7",
        config={"threshold": rng.choice([15, 25, 40]), "fixed_manches": 20},
        talon_p=0.6,
        scale="big",
        length=8,
        p_buy=0.9,
    )
    last = played.states[-1]
    if last.end_reason != "all_crossed":
        raise Retry
    played.donnes[-1]["rachat"] = {rng.choice(list(last.crossings)): True}
    return played.record, "pas_de_reference"


def refuse_beyond_rachats(rng: random.Random) -> tuple[Any, str]:
    key = rng.choice(["classique", "rami40", "rami52_6"])
    config = {"max_rachats": rng.randint(0, 2), "fixed_manches": 40}
    played = base(rng, key, config=config, length=40, p_buy=1.0, scale="big")
    spots = [
        (i, p)
        for i, s in enumerate(played.states)
        for p, why in s.eliminated.items()
        if why == "definitive_exclusion"
    ]
    if not spots:
        raise Retry
    i, player = rng.choice(spots)
    played.donnes[i]["rachat"] = {**(played.donnes[i].get("rachat") or {}), player: True}
    return played.record, "rachat_impossible"


def refuse_donne_shape(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(1, 6))
    i = rng.randrange(len(played.donnes))
    donne = played.donnes[i]
    change = rng.randrange(7)
    if change == 0:
        played.donnes[i] = rng.choice([["Alice", "rami"], "rami", None, 3])
    elif change == 1:
        donne["gagnant"] = donne.get("winner")
    elif change == 2:
        del donne["win"]
    elif change == 3:
        donne["win"] = ""
    elif change == 4:
        donne["winner"] = rng.choice(["", 5])
    elif change == 5:
        donne["hands"] = list(donne["hands"])
    else:
        donne["rachat"] = ["Alice"]
    return played.record, "donne_invalide"


def refuse_record_shape(rng: random.Random) -> tuple[Any, str]:
    played = base(rng, length=rng.randint(0, 4))
    record: Any = played.record
    change = rng.randrange(14)
    if change == 0:
        record = rng.choice([[], [record], 42, None, True])  # JSON, but not an object
    elif change == 1:
        record = rng.choice(['"classique"', "{nope", "", "   ", "{'preset': 'classique'}"])
    elif change == 2:
        text = json.dumps(record, ensure_ascii=False)
        record = text[: rng.randint(1, len(text) - 1)]  # cut short
    elif change == 3:
        record = "\ufeff" + json.dumps(record, ensure_ascii=False)  # a BOM
    elif change == 4:
        record = json.dumps(record, ensure_ascii=False) + rng.choice(["\n{}", " []", "x"])
    elif change == 5:
        record[rng.choice(["joueurs", "name", "Preset"])] = "x"
    elif change == 6:
        del record[rng.choice(["preset", "players", "donnes"])]
    elif change == 7:
        record["preset"] = rng.choice([5, None, ["classique"]])
    elif change == 8:
        record["players"] = rng.choice(["Alice,Bruno", ["Alice", 5], {"Alice": 1}])
    elif change == 9:
        record["config"] = rng.choice([["threshold", 100], "gagnant", 3])
    elif change == 10:
        record["donnes"] = rng.choice([{}, "rami", 1])
    elif change == 11:
        record["ended"] = rng.choice(["yes", 1, None, "false"])
    elif change == 12:
        record = json.dumps(record, ensure_ascii=False).replace("{", "{\n", 3)[:-3] + "\n"
    else:
        record = json.dumps(record, ensure_ascii=False) + " ,"
    return record, "enregistrement_invalide"


REFUSALS: tuple[Callable[[random.Random], tuple[Any, str]], ...] = (
    refuse_card,
    refuse_missing_hand,
    refuse_winner_out,
    refuse_option,
    refuse_missing_decision,
    refuse_needless_decision,
    refuse_jokers,
    refuse_duplicate,
    refuse_preset,
    refuse_record_shape,
    refuse_same_rank,
    refuse_player_count,
    refuse_name,
    refuse_unknown_player,
    refuse_empty_hand,
    refuse_points,
    refuse_joker_count,
    refuse_hand_shape,
    refuse_win,
    refuse_talon,
    refuse_winner_missing,
    refuse_talon_winner,
    refuse_hand_too_many,
    refuse_after_end,
    refuse_decision_value,
    refuse_last_manche,
    refuse_no_reference,
    refuse_beyond_rachats,
    refuse_donne_shape,
    refuse_record_shape,
)


def refusal_code(record: Any) -> str | None:
    """The error code today's engine gives the record, None if it is accepted."""
    from games.scoring import cli

    try:
        cli.score("-", "json", io.StringIO(input_text(record)))
    except cli.ScoreFailure as failure:
        return json.loads(failure.stdout)["error"]["code"]
    return None


def refused_record(rng: random.Random, make: Callable[[random.Random], Any]) -> tuple[Any, str]:
    for _ in range(200):
        try:
            record, code = make(rng)
        except Retry:
            continue
        got = refusal_code(record)
        if got == code:
            return record, code
    raise RuntimeError(f"{make.__name__}: no record refused as intended in 200 tries")


# -- the golden file ----------------------------------------------------------------------------


def generate() -> Iterator[tuple[str, str, Any]]:
    """(name, format, record): the generated records, then the worked examples (JSON).

    Formats cycle over the records; the first refusal of each kind is in JSON, whose error
    object shows the code and message (text and CSV print nothing on a refusal)."""
    rng = random.Random(SEED)
    kinds = ["long"] * 30 + ["empty"] * 6 + ["normal"] * (VALID - 36)
    rng.shuffle(kinds)
    refusal_at = set(rng.sample(range(VALID + REFUSED), REFUSED))
    valid = refused = 0
    for index in range(VALID + REFUSED):
        fmt = FORMAT_CYCLE[index % len(FORMAT_CYCLE)]
        if index in refusal_at:
            make = REFUSALS[refused % len(REFUSALS)]
            record, code = refused_record(rng, make)
            fmt = "json" if refused < len(REFUSALS) else fmt
            refused += 1
            yield f"{index + 1:03d}-refused-{code}-{fmt}", fmt, record
        else:
            key = PRESET_KEYS[valid % len(PRESET_KEYS)]
            record = valid_record(rng, key, kinds[valid])
            valid += 1
            size = f"{len(record['players'])}p-{len(record['donnes'])}d"
            yield f"{index + 1:03d}-{key}-{size}-{fmt}", fmt, record
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    for case in examples["partie_cases"]:
        record = {
            "preset": case["preset"],
            "players": case["players"],
            "config": case.get("config") or {},
            "donnes": [d["input"] for d in case["donnes"]],
            "ended": case.get("ended", False),
        }
        yield f"example-{case['id']}-json", "json", record
    for case in examples["error_cases"]:
        record = {"preset": case["preset"], "players": case["players"], "donnes": case["donnes"]}
        if "config" in case:
            record["config"] = case["config"]
        yield f"example-{case['id']}-json", "json", record


def write() -> int:
    lines = []
    for name, fmt, record in generate():
        code, stdout = run_score(record, fmt)
        refused = "-refused-" in name or name.startswith("example-E")
        if code != int(refused):
            raise RuntimeError(f"{name}: exit {code}, expected {int(refused)}")
        line = {"name": name, "format": fmt, "record": record, "exit": code, "stdout": stdout}
        lines.append(json.dumps(line, ensure_ascii=False) + "\n")
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 and no file name: the same records give the same bytes.
    with (
        open(GOLDEN, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as handle,
    ):
        handle.write("".join(lines).encode("utf-8"))
    size = GOLDEN.stat().st_size
    sys.stdout.write(f"{len(lines)} records written to {GOLDEN.relative_to(ROOT)} ({size} bytes)\n")
    return 0


def compare() -> int:
    cases = load_golden()
    mismatches = 0
    for case in cases:
        code, stdout = run_score(case["record"], case["format"])
        problems = []
        if code != case["exit"]:
            problems.append(f"exit {code}, expected {case['exit']}")
        if stdout != case["stdout"]:
            problems.append(first_difference(case["stdout"], stdout))
        if problems:
            mismatches += 1
            sys.stdout.write(f"MISMATCH {case['name']}: {'; '.join(problems)}\n")
    sys.stdout.write(f"{len(cases)} records compared, {mismatches} mismatches\n")
    return 1 if mismatches else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="(re)write the golden file")
    args = parser.parse_args()
    return write() if args.write else compare()


if __name__ == "__main__":
    sys.exit(main())

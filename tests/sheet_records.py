"""Game records for the sheet and export tests, built by deterministic loops."""

from __future__ import annotations

from typing import Any


# examples.json P1's donnes as a record: a rami, a rami de la main, Bruno bought back, then
# both crossing and declining (the chart's and the observations' cases).
def points(n: int) -> dict[str, int]:
    return {"points": n, "jokers": 0}


ABC = ["Anne", "Bruno", "Chloé"]

P1 = [
    {
        "winner": "Anne",
        "win": "rami",
        "hands": {"Bruno": {"cards": "K Q 5"}, "Chloé": {"cards": "9 8"}},
    },
    {
        "winner": "Anne",
        "win": "rami_de_la_main",
        "hands": {"Bruno": {"cards": "K 7"}, "Chloé": {"cards": "6 4"}},
    },
    {
        "winner": "Chloé",
        "win": "rami",
        "hands": {"Anne": {"cards": "5 2"}, "Bruno": {"cards": "Q J 9", "jokers": 1}},
        "rachat": {"Bruno": True},
    },
    {
        "winner": "Anne",
        "win": "rami_de_la_main",
        "hands": {"Bruno": points(40), "Chloé": points(40)},
        "rachat": {"Bruno": False, "Chloé": False},
    },
]


SEVEN = ["Anne", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaspard"]

# Donnes where one player is made to cross (two heavy hands in a row), and his decision.
HEAVY = {20: "Bruno", 21: "Bruno", 50: "Chloé", 51: "Chloé", 80: "Bruno", 81: "Bruno"}
DECISIONS = {21: ("Bruno", True), 51: ("Chloé", False), 81: ("Bruno", True)}


def long_record(donnes: int = 120) -> dict[str, Any]:
    """Seven players (the most any preset seats) over ``donnes`` manches of rami52_6.

    Losers score 1, so nobody reaches the seuil of 150 by accident; the HEAVY donnes make
    Bruno buy back twice and Chloé abandon. The last manche ends the partie (docs/rules.md R15).
    """
    in_race = list(SEVEN)
    records = []
    for number in range(1, donnes + 1):
        heavy = HEAVY.get(number)
        candidates = [p for p in in_race if p != heavy]
        winner = candidates[number % len(candidates)]
        hands = {
            p: {"points": 80 if p == heavy else 1, "jokers": 0} for p in in_race if p != winner
        }
        donne: dict[str, Any] = {"winner": winner, "win": "rami", "hands": hands}
        if number in DECISIONS:
            name, accepted = DECISIONS[number]
            donne["rachat"] = {name: accepted}
            if not accepted:
                in_race.remove(name)
        records.append(donne)
    return {
        "preset": "rami52_6",
        "players": SEVEN,
        "config": {
            "threshold": 150,
            "fixed_manches": donnes,
            "prix_rachat": 200,
            "mise_initiale": 100,
        },
        "donnes": records,
        "ended": False,
    }


# The seven long names of the printed-sheet checks: two that share a prefix, two that differ
# by an accent only, two long compound names and a short one.
LONG_NAMES = ["Maman", "Mamie", "Marie-Christine", "Jean-Baptiste", "Zoé", "Zoë", "Ana"]
# Late in a long partie: Mamie crosses (1000-point hands, the most a hand may count,
# docs/rules.md R28) and buys back; Jean-Baptiste crosses and abandons.
LATE_CROSSINGS = {0.90: ("Mamie", True), 0.95: ("Jean-Baptiste", False)}


def four_digit_record(donnes: int = 999, seuil: int = 5000) -> dict[str, Any]:
    """Seven long names over ``donnes`` donnes of rami52_6 with a seuil of 5000 and no fixed
    manches: hands of 1 to 7 points make 4-digit totals by the end, and the two late
    crossings give framed totals, a rachat and an abandon. A seuil of 1000 makes the crossings'
    totals 4-digit in a short partie."""
    in_race = list(LONG_NAMES)
    totals = dict.fromkeys(LONG_NAMES, 0)
    heavy_at = {max(2, int(donnes * share)): who for share, who in LATE_CROSSINGS.items()}
    heavy: tuple[str, bool] | None = None
    records = []
    for number in range(1, donnes + 1):
        heavy = heavy_at.get(number, heavy)
        name = heavy[0] if heavy else None
        candidates = [p for p in in_race if p != name]
        winner = candidates[number % len(candidates)]
        hands = {
            p: {"points": 1000 if p == name else 1 + (number * 5 + i * 3) % 7, "jokers": 0}
            for i, p in enumerate(in_race)
            if p != winner
        }
        donne: dict[str, Any] = {"winner": winner, "win": "rami", "hands": hands}
        for p, hand in hands.items():
            totals[p] += hand["points"]
        if heavy and totals[heavy[0]] >= seuil:
            donne["rachat"] = {heavy[0]: heavy[1]}
            if not heavy[1]:
                in_race.remove(heavy[0])
            totals[heavy[0]] = max(t for p, t in totals.items() if p != heavy[0])
            heavy = None
        records.append(donne)
    return {
        "preset": "rami52_6",
        "players": LONG_NAMES,
        "config": {
            "threshold": seuil,
            "fixed_manches": 0,
            "prix_rachat": 200,
            "mise_initiale": 100,
        },
        "donnes": records,
        "ended": False,
    }

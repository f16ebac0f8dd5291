"""Game records for the sheet and export tests, built by deterministic loops."""

from __future__ import annotations

from typing import Any

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

"""Time a long replay: ``python bench/bench_replay.py`` (players × donnes, best of 20 runs)."""

from __future__ import annotations

import dataclasses
import sys
import time

from games.scoring import DonneInput, get_preset, replay

# A ceiling far away keeps all 8 players en course for 300 donnes of realistic card hands.
CONFIG = {"threshold": 1000}


def long_partie(players: list[str], donnes: int) -> list[dict]:
    """Winners rotate; every loser keeps a card, given as cards so they are parsed and checked."""
    partie = []
    for number in range(donnes):
        winner = players[number % len(players)]
        hands = {p: {"cards": ["2"], "jokers": 0} for p in players if p != winner}
        partie.append({"winner": winner, "win": "rami", "hands": hands})
    return partie


def best_of(runs: int, *args: object) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        replay(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    donnes = 300
    for count in (7, 8):
        players = [f"Joueur {i}" for i in range(1, count + 1)]
        # The presets allow at most 7 players; the engine accepts a Preset, so widen one.
        preset = dataclasses.replace(get_preset("classique"), max_players=8)
        partie = long_partie(players, donnes)
        result = replay(preset, players, partie, CONFIG)
        assert len(result.states) == donnes and not result.over
        seconds = best_of(20, preset, players, partie, CONFIG)
        parsed = [DonneInput.from_dict(d) for d in partie]
        parsed_seconds = best_of(20, preset, players, parsed, CONFIG)
        sys.stdout.write(
            f"{count} joueurs × {donnes} donnes : {seconds * 1000:.1f} ms depuis du JSON, "
            f"{parsed_seconds * 1000:.1f} ms depuis des DonneInput\n"
        )


if __name__ == "__main__":
    main()

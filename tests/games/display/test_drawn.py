"""HTML drawn once per process for what it shows (games/display/drawn.py)."""

from __future__ import annotations

from django.utils.safestring import SafeString

from games.display.drawn import DrawnOnce


def test_a_part_is_drawn_once_per_key_and_again_once_the_kept_ones_are_dropped() -> None:
    drawn: list[str] = []

    def draw(text: str):
        return lambda: drawn.append(text) or f"<td>{text}</td>"

    kept = DrawnOnce(2)
    assert kept.get(("fr", 1), draw("un")) == "<td>un</td>"
    assert kept.get(("fr", 1), draw("autre")) == "<td>un</td>"
    assert isinstance(kept.get(("en", 1), draw("one")), SafeString)
    assert drawn == ["un", "one"]
    kept.get(("fr", 2), draw("deux"))  # a third: the two kept are dropped first
    kept.get(("fr", 1), draw("un"))
    assert drawn == ["un", "one", "deux", "un"]

"""The end of a partie in one sentence, for the scoreboard (games/display/outcome.py)."""

from __future__ import annotations

from django import template

from games.display.marque import Marque
from games.display.outcome import end_sentence

register = template.Library()


@register.simple_tag
def partie_end(marque: Marque) -> str:
    return end_sentence(marque)

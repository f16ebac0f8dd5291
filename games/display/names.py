"""The players' names where seven must share a phone's width (the scoreboard, the marque's
header): a long name gets a short label that stays distinct ("Marie-C.", "Jean-B."), said
in full in a legend and in the donne form. Names that start alike ("Maman", "Mamie") are
short enough to be written whole: no prefix is ever cut to look like another."""

from __future__ import annotations

import re

# At most this many characters are written as they are (a phone at 360 px, seven players).
LONG = 7
# From this many players the columns are too narrow for a long name on two lines.
CROWDED = 5
_PARTS = re.compile(r"([\s\-]+)")


def short_label(name: str) -> str:
    """ "Marie-Christine" → "Marie-C.", "Anne Sophie" → "Anne S.", "Maximilien" → "Maximi."."""
    if len(name) <= LONG:
        return name
    parts = _PARTS.split(name)
    first = parts[0]
    if len(parts) > 1 and len(first) <= LONG - 2:
        # The first part whole, then the initial of each later part ("Jean-Pierre-Marie" →
        # "Jean-P.-M.", cut at the limit).
        pairs = zip(parts[1::2], parts[2::2], strict=True)
        rest = "".join(sep + word[:1] + "." for sep, word in pairs if word)
        label = first + rest
        if len(label) <= LONG + 2:
            return label
        return first + parts[1] + parts[2][:1] + "."
    return name[: LONG - 1] + "."


def short_labels(names: list[str]) -> dict[str, str]:
    """Each name's label; names whose labels would be alike (or be another's name) keep
    their full name, so that two players are always told apart. A table of fewer than
    ``CROWDED`` players writes every name whole (on two lines where needed)."""
    if len(names) < CROWDED:
        return {name: name for name in names}
    labels = {name: short_label(name) for name in names}
    seen: dict[str, list[str]] = {}
    for name, label in labels.items():
        seen.setdefault(label.casefold(), []).append(name)
    for name, label in labels.items():
        if label != name and (len(seen[label.casefold()]) > 1 or label in names):
            labels[name] = name
    return labels

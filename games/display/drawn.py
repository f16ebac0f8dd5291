"""HTML drawn once per process for what it shows: a part of a page whose drawing follows from a
few values (a row of the marque, the money form's fields), kept under those values. The
templates do not change while a process runs, so a key that names everything the part is
drawn from never gives stale HTML. Past ``size`` drawings the kept ones are dropped and drawn
again as they are asked (a dict read and a dict write, safe between a worker's threads)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django.utils.safestring import SafeString, mark_safe


class DrawnOnce:
    def __init__(self, size: int) -> None:
        self.size = size
        self._drawn: dict[Hashable, SafeString] = {}

    def get(self, key: Hashable, draw: Callable[[], str]) -> SafeString:
        html = self._drawn.get(key)
        if html is None:
            if len(self._drawn) >= self.size:
                self._drawn.clear()
            # Drawn by our templates, which escape what a player typed.
            html = self._drawn[key] = mark_safe(draw())  # noqa: S308
        return html


def form_part(kept: DrawnOnce, form: Any, key: Hashable, draw: Callable[[], str]) -> SafeString:
    """A part of a form: an unbound one's drawn once per ``key`` (what it shows follows from
    it), a bound one (posted, perhaps refused) drawn as it is, with what was typed and its
    errors."""
    if form.is_bound:
        return mark_safe(draw())  # noqa: S308 - the template escapes what was typed
    return kept.get(key, draw)

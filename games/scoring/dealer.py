"""Who deals each donne (docs/rules.md "Le donneur"): the first dealer is chosen when the
partie is created, then the deal passes to the next player still en course in seat order.
Nothing here changes a score: the replay never reads the dealer."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import RamiError


def check_first_seat(seat: int, count: int) -> None:
    """docs/rules.md "Le donneur": the first dealer sits at the table, one of its ``count``
    seats (1 = the first). Raises ``premier_donneur_invalide``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= count:
        raise RamiError("premier_donneur_invalide", count=count)


def first_dealer(players: Sequence[str], seat: int) -> str:
    """The player at ``seat`` (1 = the first seat). A seat off the table is refused
    (``check_first_seat``), never read as another seat."""
    check_first_seat(seat, len(players))
    return players[seat - 1]


def next_dealer(
    players: Sequence[str], in_race: Sequence[str], previous: str | None, first: str
) -> str | None:
    """The dealer of the next donne. ``players`` in seat order, ``in_race`` those dealt to,
    ``previous`` who dealt the donne before (None before the first donne, or when it was not
    recorded), ``first`` the partie's first dealer.

    docs/rules.md "Le donneur": the deal passes to the next seat after the previous dealer
    that is still en course, going round the table; the first donne is dealt by ``first``,
    or by the next player en course after him when he is out. None when nobody is en
    course."""
    dealt_to = set(in_race)
    if not dealt_to:
        return None
    seats = list(players)
    if previous is None or previous not in seats:
        start = seats.index(first) if first in seats else 0
    else:
        start = seats.index(previous) + 1
    for step in range(len(seats)):
        candidate = seats[(start + step) % len(seats)]
        if candidate in dealt_to:
            return candidate
    return None


def can_deal(in_race: Sequence[str], name: str) -> bool:
    """docs/rules.md "Le donneur": the dealer of a donne is one of the players it is dealt to
    (one who left the partie neither plays nor deals)."""
    return name in in_race


def rematch_seat(seat: int, count: int) -> int:
    """The first dealer of a rematch: one seat on from the last partie's, round the table."""
    return seat % count + 1 if count else 1

"""Reading JSON that anybody may have written (docs/rules.md R28): a game record given to
``rami score``, or a file uploaded to the app. What no table can produce is refused with a
RamiError saying what and where, never with a Python exception: text that is not JSON,
nesting deeper than 16 levels, an integer literal of more than 12 digits, NaN and Infinity,
a lone surrogate (``"\\ud800"``)."""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import N_, Detail, RamiError, not_json
from .players import shown

MAX_DEPTH = 16  # docs/rules.md R28: the record needs 6 levels, a backup of exports 9
MAX_DIGITS = 12  # docs/rules.md R28: no amount, total or count of a table needs more
_LIMIT = 10**MAX_DIGITS
# A lone surrogate can only come from an escape: the text itself was decoded as UTF-8.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


class Huge:
    """An integer literal of more than MAX_DIGITS digits, kept unconverted: ``int()`` of
    more than 4300 digits raises, and no field of a record may hold one anyway."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"Huge({self.digits} digits)"


class _Constant(Exception):
    pass


def _parse_int(literal: str) -> int | Huge:
    digits = len(literal) - (literal[0] == "-")
    return Huge(digits) if digits > MAX_DIGITS else int(literal)


def _parse_constant(name: str) -> Any:
    raise _Constant(name)


def _invalid(detail: str) -> RamiError:
    return RamiError("enregistrement_invalide", detail=detail)


def load_json(text: str) -> Any:
    """The JSON value of ``text``; an integer beyond MAX_DIGITS digits comes back as a
    ``Huge`` for ``check_tree`` to name with its place (records) or to leave (the parts of an
    export that an import ignores)."""
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as err:
        raise _invalid(not_json(err)) from None
    except RecursionError:
        # Far deeper than MAX_DEPTH: the parser itself gave up.
        raise _invalid(Detail(N_("plus de %(max)s niveaux d'imbrication"), max=MAX_DEPTH)) from None
    except _Constant as constant:
        raise _invalid(
            Detail(N_("« %(value)s » n'est pas une valeur JSON"), value=str(constant))
        ) from None
    if _SURROGATE_ESCAPE.search(text):
        _check_text(data)
    return data


def path_text(path: tuple[Any, ...]) -> str:
    """``("donnes", 3, "hands", "Bruno")`` → ``donnes[3].hands.Bruno`` (positions from 1)."""
    text = ""
    for key in path:
        if isinstance(key, int):
            text += f"[{key}]"
        else:
            text += ("." if text else "") + shown(str(key))
    return text


def _items(value: dict | list):
    return iter(value.items() if isinstance(value, dict) else enumerate(value, 1))


def _walk(data: Any, visit) -> None:
    """Every value under ``data`` in the order of the text, depth first and without recursion
    (a file may nest deeper than Python's stack): ``visit(key, child, depth, path, state)``
    returns the state of ``child``'s own children."""
    stack = [(_items(data), 1, (), None)]
    while stack:
        items, depth, path, state = stack[-1]
        for key, child in items:
            inner = visit(key, child, depth, path, state)
            if isinstance(child, dict | list):
                stack.append((_items(child), depth + 1, (*path, key), inner))
                break
        else:
            stack.pop()


def _check_text(data: Any) -> None:
    if isinstance(data, str):
        data = [data]
    if not isinstance(data, dict | list):
        return

    def visit(key: Any, child: Any, _depth: int, path: tuple[Any, ...], _state: Any) -> None:
        for text in (key, child):
            found = _SURROGATE.search(text) if isinstance(text, str) else None
            if found:
                raise _invalid(
                    Detail(
                        N_("à « %(path)s », un caractère qui n'existe pas (%(char)s)"),
                        path=path_text((*path, key)),
                        char=f"U+{ord(found.group()):04X}",
                    )
                )

    _walk(data, visit)


def too_big(path: tuple[Any, ...]) -> RamiError:
    """docs/rules.md R28: an integer of more than 12 digits, named by its place; in a donne,
    the donne's number is given as for any refusal of a donne."""
    detail = Detail(N_("un nombre de plus de %(max)s chiffres"), max=MAX_DIGITS)
    if len(path) >= 2 and path[0] == "donnes" and isinstance(path[1], int):
        return RamiError(
            "valeur_hors_limites", donne=path[1], field=path_text(path[2:]) or "donne",
            detail=detail,
        )  # fmt: skip
    return RamiError("valeur_hors_limites", field=path_text(path) or "…", detail=detail)


def check_tree(data: Any, *, numbers: bool = True, skip: frozenset[str] = frozenset()) -> None:
    """docs/rules.md R28: at most MAX_DEPTH levels of nesting (the outer object or list is
    level 1) and, with ``numbers``, no integer of more than MAX_DIGITS digits; the first
    fault in the order of the text is the one named. ``skip``: keys of the outer object whose
    values are only checked for depth (the parts of an export that an import ignores)."""
    if not isinstance(data, dict | list):
        if numbers and _too_big(data):
            raise too_big(())
        return

    def visit(key: Any, child: Any, depth: int, path: tuple[Any, ...], check: Any) -> bool:
        check = numbers if check is None else check
        inner = check and not (depth == 1 and key in skip)
        if isinstance(child, dict | list):
            if depth + 1 > MAX_DEPTH:
                detail = Detail(
                    N_("plus de %(max)s niveaux d'imbrication, à « %(path)s »"),
                    max=MAX_DEPTH,
                    path=path_text((*path, key)),
                )
                raise _invalid(detail)
        elif inner and _too_big(child):
            raise too_big((*path, key))
        return inner

    _walk(data, visit)


def _too_big(value: Any) -> bool:
    return type(value) is Huge or (type(value) is int and not -_LIMIT < value < _LIMIT)

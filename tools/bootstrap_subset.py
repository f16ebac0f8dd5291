"""Write ``static/vendor/bootstrap/bootstrap.min.css``: Bootstrap with only the rules the app can
use, for the page-weight budget (bench/budgets.py, docs/decisions.md "Bootstrap, only what we
use"). Re-run after adding a Bootstrap class to a template, a script or a form::

    python tools/bootstrap_subset.py

It reads the untouched upstream file ``bootstrap.full.min.css`` (kept beside it, never edited)
and keeps every byte of it except:

- a selector that needs a class no source of ours names: every word of ``templates/``,
  ``static/js/``, ``static/css/``, the Python of ``games/`` and ``ramiscore/`` and the
  crispy-bootstrap5 templates a plain ``|crispy`` or ``as_crispy_field`` renders counts as a
  class in use, plus ``SAFELIST`` (the names built at run time). A class inside ``:not()``,
  ``:is()``, ``:where()`` or ``:has()`` is not needed for a match, so it never removes a selector;
- a rule left with no selector, an ``@media``/``@supports`` block left empty, a ``@keyframes``
  no kept rule names.

So go the components the app never shows (accordion, carousel, dropdown, list-group, modal,
nav/navbar-expand, offcanvas, pagination, placeholder, popover, progress, spinner, toast,
tooltip, breadcrumb, ratio, form-floating, form-range, …) and the utilities it never uses (most
responsive ``-sm-``…``-xxl-`` variants, float, opacity, …). Kept whole: the licence comment,
``:root``/``[data-bs-theme]`` variables, reboot, element rules.

The parser is a small brace-aware tokenizer (strings, comments, nested at-rules); parsing and
writing back the full file unchanged is checked on every run.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "static" / "vendor" / "bootstrap"
SOURCE = VENDOR / "bootstrap.full.min.css"
TARGET = VENDOR / "bootstrap.min.css"

# Class names put together at run time, never written whole: Django's message levels as
# templates/_messages.html spells them (alert-{{ message.tags }}, error → danger).
SAFELIST = {"alert-debug", "alert-info", "alert-success", "alert-warning", "alert-danger"}

CRISPY_UNUSED = re.compile(
    r"(accordion|tab|modal|alert|switch|floating_field|buttonholder|formactions|"
    r"field_with_buttons|prepended_appended_text|inline_field|uneditable_input|betterform|"
    r"multifield|formset|button|baseinput|fieldset|row|column|div)[^/]*\.html$"
)

NESTED_AT_RULES = (
    "@media",
    "@supports",
    "@keyframes",
    "@container",
    "@layer",
    "@-webkit-keyframes",
)


def source_files() -> list[Path]:
    files: list[Path] = []
    for folder, pattern in (
        ("templates", "**/*.html"),
        ("templates", "**/*.svg"),
        ("static/js", "**/*.js"),
        ("static/css", "**/*.css"),
        ("games", "**/*.py"),
        ("games", "**/*.html"),
        ("ramiscore", "**/*.py"),
    ):
        files += sorted((ROOT / folder).glob(pattern))
    crispy = sorted(ROOT.glob(".venv/lib/python3*/site-packages/crispy_bootstrap5/templates"))
    if not crispy:
        sys.exit("crispy_bootstrap5 not found in .venv: run make first")
    files += [p for p in crispy[0].rglob("*.html") if not CRISPY_UNUSED.search(p.name)]
    return files


def used_words() -> set[str]:
    words = set(SAFELIST)
    for path in source_files():
        words.update(re.findall(r"[A-Za-z0-9_-]+", path.read_text(encoding="utf-8")))
    return words


# --- a minimal CSS tree ---------------------------------------------------------------------


@dataclass
class Node:
    prelude: str  # selector list, at-rule prelude, or the whole text of a comment/statement
    body: str | None = None  # declarations of a rule; None for nested blocks and statements
    children: list[Node] | None = None  # for @media, @supports, @keyframes…
    kind: str = "rule"  # rule | block | comment | statement
    extra: dict = field(default_factory=dict)


def skip_string(css: str, i: int) -> int:
    quote = css[i]
    i += 1
    while css[i] != quote:
        i += 2 if css[i] == "\\" else 1
    return i + 1


def parse(css: str, i: int = 0, nested: bool = False) -> tuple[list[Node], int]:
    nodes: list[Node] = []
    n = len(css)
    while i < n:
        if css[i].isspace():
            i += 1
            continue
        if css.startswith("/*", i):
            end = css.index("*/", i) + 2
            nodes.append(Node(css[i:end], kind="comment"))
            i = end
            continue
        if css[i] == "}":
            if not nested:
                raise ValueError(f"unbalanced '}}' at {i}")
            return nodes, i + 1
        start, depth = i, 0
        while True:  # the prelude, up to '{' or ';' at depth 0
            c = css[i]
            if c in "\"'":
                i = skip_string(css, i)
                continue
            if css.startswith("/*", i):
                i = css.index("*/", i) + 2
                continue
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif depth == 0 and c in "{;":
                break
            i += 1
        prelude = css[start:i]
        if css[i] == ";":
            nodes.append(Node(css[start : i + 1], kind="statement"))
            i += 1
        elif prelude.startswith(NESTED_AT_RULES):
            children, i = parse(css, i + 1, nested=True)
            nodes.append(Node(prelude, children=children, kind="block"))
        else:
            body_start = i = i + 1
            while css[i] != "}":
                if css[i] in "\"'":
                    i = skip_string(css, i)
                elif css.startswith("/*", i):
                    i = css.index("*/", i) + 2
                else:
                    i += 1
            nodes.append(Node(prelude, body=css[body_start:i]))
            i += 1
    if nested:
        raise ValueError("unclosed block")
    return nodes, i


def write(nodes: list[Node]) -> str:
    out = []
    for node in nodes:
        if node.kind in ("comment", "statement"):
            out.append(node.prelude)
        elif node.kind == "block":
            out.append(node.prelude + "{" + write(node.children or []) + "}")
        else:
            out.append(node.prelude + "{" + (node.body or "") + "}")
    return "".join(out)


# --- selectors ------------------------------------------------------------------------------


def split_top(text: str, sep: str = ",") -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return parts


def needed_classes(selector: str) -> set[str]:
    """The classes an element must have for ``selector`` to match it."""
    text, out, i = selector, [], 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        if c == "[":  # attribute selectors: their values are not classes
            depth = 0
            while True:
                if text[i] in "\"'":
                    i = skip_string(text, i)
                    continue
                depth += text[i] == "["
                depth -= text[i] == "]"
                i += 1
                if depth == 0:
                    break
            continue
        if c == "(":  # :not(), :is(), :where(), :has(), :nth-child(… of …)
            depth = 0
            while True:
                if text[i] in "\"'":
                    i = skip_string(text, i)
                    continue
                depth += text[i] == "("
                depth -= text[i] == ")"
                i += 1
                if depth == 0:
                    break
            continue
        out.append(c)
        i += 1
    flat = "".join(out)
    return {m.replace("\\", "") for m in re.findall(r"\.((?:[A-Za-z0-9_-]|\\.)+)", flat)}


def prune(nodes: list[Node], used: set[str], removed: set[str]) -> list[Node]:
    kept: list[Node] = []
    for node in nodes:
        if node.kind == "block":
            if node.prelude.startswith(("@keyframes", "@-webkit-keyframes")):
                kept.append(node)  # decided once every rule is pruned
                continue
            children = prune(node.children or [], used, removed)
            if children:
                kept.append(Node(node.prelude, children=children, kind="block"))
        elif node.kind == "rule":
            selectors = split_top(node.prelude)
            alive = []
            for selector in selectors:
                missing = needed_classes(selector) - used
                if missing:
                    removed.update(missing)
                else:
                    alive.append(selector)
            if alive:
                prelude = node.prelude if len(alive) == len(selectors) else ",".join(alive)
                kept.append(Node(prelude, body=node.body))
        else:
            kept.append(node)
    return kept


def drop_unnamed_keyframes(nodes: list[Node], text: str) -> list[Node]:
    kept = []
    for node in nodes:
        if node.kind == "block" and node.prelude.startswith(("@keyframes", "@-webkit-keyframes")):
            name = node.prelude.split(None, 1)[1].strip()
            if not re.search(rf"(animation(-name)?:[^;}}]*\b){re.escape(name)}\b", text):
                continue
        elif node.kind == "block":
            node = Node(
                node.prelude,
                children=drop_unnamed_keyframes(node.children or [], text),
                kind="block",
            )
        kept.append(node)
    return kept


def subset(css: str) -> tuple[str, set[str]]:
    """The subset of the upstream ``css`` the sources use, and the classes it removed."""
    nodes, _ = parse(css)
    if write(nodes) + "\n" != css:
        sys.exit("the parser does not give back the upstream file unchanged")
    removed: set[str] = set()
    kept = prune(nodes, used_words(), removed)
    return write(drop_unnamed_keyframes(kept, write(kept))) + "\n", removed


def main() -> None:
    css = SOURCE.read_text(encoding="utf-8")
    result, removed = subset(css)
    TARGET.write_text(result, encoding="utf-8")
    families = sorted({name.split("-")[0] for name in removed})
    print(f"{SOURCE.name}: {len(css.encode())} bytes → {TARGET.name}: {len(result.encode())} bytes")
    print(f"{len(removed)} unused classes removed, by first word: {' '.join(families)}")


if __name__ == "__main__":
    main()

"""``python -m tools.imports [PACKAGE ...]``: the project's module import graph, as text: for
each module of games/ and ramiscore/ (or those named), the project modules it imports, then
the count of modules, imports and import cycles. Read the code's own imports (ast), nothing
is run; an import inside a function counts like one at the top."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "ramiscore")


def modules(packages: tuple[str, ...]) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*head, base] if base else head)
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    resolved = set()
    for target in targets:
        # The longest known module the import names (``from games import replays`` is
        # games.replays, ``from games.models import Partie`` is games.models).
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main(argv: list[str] | None = None) -> int:
    packages = tuple(argv if argv else sys.argv[1:]) or PACKAGES
    known = modules(packages)
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    for name, targets in sorted(graph.items()):
        print(f"{name} -> {', '.join(sorted(targets)) or '(none)'}")
    found = cycles(graph)
    edges = sum(len(t) for t in graph.values())
    print(f"\n{len(graph)} modules, {edges} imports, {len(found)} import cycles")
    for component in found:
        print("  cycle: " + " <-> ".join(component))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

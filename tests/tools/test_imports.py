"""The module import graph (tools/imports.py), read from the project's own code."""

from __future__ import annotations

from tools.imports import PACKAGES, cycles, imports_of, modules


def graph() -> dict[str, set[str]]:
    known = modules(PACKAGES)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_the_engine_imports_nothing_of_the_app() -> None:
    """docs/rules.md: the engine is pure Python (it also runs in the browser, under Pyodide)."""
    engine = {
        name: targets for name, targets in graph().items() if name.startswith("games.scoring")
    }
    assert "games.scoring.replay" in engine
    outside = {
        t for targets in engine.values() for t in targets if not t.startswith("games.scoring")
    }
    assert outside == set()


def test_the_project_has_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_relative_imports_and_names_resolve_to_their_modules(tmp_path) -> None:
    package = tmp_path / "games" / "display"
    package.mkdir(parents=True)
    source = package / "sheet.py"
    source.write_text("from . import marque\nfrom ..models import Partie\nimport json\n")
    known = {"games.display.sheet": source, "games.display.marque": source, "games.models": source}
    assert imports_of("games.display.sheet", source, known) == {
        "games.display.marque",
        "games.models",
    }


def test_a_loop_of_imports_is_one_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]

"""The vendored Bootstrap is the subset the sources use (tools/bootstrap_subset.py): a class
added to a template without running the subsetter would have no style."""

from __future__ import annotations

from tools.bootstrap_subset import SOURCE, TARGET, subset


def test_the_committed_subset_is_what_the_sources_use() -> None:
    expected, _removed = subset(SOURCE.read_text(encoding="utf-8"))
    assert TARGET.read_text(encoding="utf-8") == expected, "run: python tools/bootstrap_subset.py"


def test_a_class_only_the_home_page_names_is_kept() -> None:
    # The current partie's card (templates/games/_partie_card.html): a thicker border.
    kept, removed = subset(SOURCE.read_text(encoding="utf-8"))
    assert ".border-2{" in kept.replace(" ", "")
    assert "carousel" in removed

"""``{% by_language %}`` (games/templatetags/kept.py): drawn once per process, template and
language, and drawn anew when runserver reads an edited file in place."""

from __future__ import annotations

from pathlib import Path

from django.template import Context, Engine
from django.utils import translation
from django.utils.autoreload import file_changed


def template(origin: str, words: str):
    engine = Engine(
        loaders=[("django.template.loaders.locmem.Loader", {origin: words})],
        libraries={"kept": "games.templatetags.kept"},
    )
    return engine.get_template(origin)


def test_one_name_in_two_templates_draws_each_its_own() -> None:
    first = template("first.html", '{% load kept %}{% by_language "words" %}un{% endby_language %}')
    second = template(
        "second.html", '{% load kept %}{% by_language "words" %}deux{% endby_language %}'
    )
    with translation.override("fr"):
        assert first.render(Context()) == "un"
        assert second.render(Context()) == "deux"
        assert first.render(Context()) == "un"


def test_drawn_once_then_anew_when_a_file_changes() -> None:
    words = template(
        "words.html", '{% load kept %}{% by_language "words" %}{{ n }}{% endby_language %}'
    )
    with translation.override("en"):
        assert words.render(Context({"n": 1})) == "1"
        assert words.render(Context({"n": 2})) == "1"  # drawn once for the language
        file_changed.send(sender=None, file_path=Path("templates/games/partie_detail.html"))
        assert words.render(Context({"n": 3})) == "3"

"""``{% by_language %}`` (games/templatetags/kept.py): drawn once per process, template and
language, and drawn anew when runserver reads an edited file in place; ``{% kept "name" by … %}``
names the values it is kept by (what it keeps is the partie page's, tests/games/views/
test_fragments.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Engine, TemplateSyntaxError
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


def test_a_kept_region_by_names_its_values() -> None:
    with pytest.raises(TemplateSyntaxError, match="names its values"):
        template("by.html", '{% load kept %}{% kept "foot" by %}x{% endkept %}')
    with pytest.raises(TemplateSyntaxError, match="names its values"):
        template("with.html", '{% load kept %}{% kept "foot" with a %}x{% endkept %}')


def test_a_region_kept_by_values_draws_as_it_is_without_an_entry() -> None:
    foot = template("foot.html", '{% load kept %}{% kept "foot" by n %}{{ n }}{% endkept %}')
    assert foot.render(Context({"n": 7})) == "7"

"""The donne form's fields drawn once per process for the players they ask about
(games/templatetags/donne_fields.py)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test.signals import template_rendered
from django.utils import translation

from games.display.drawn import DrawnOnce
from games.display.marque import build_marque
from games.forms import DonneForm
from games.selectors import partie_state
from games.templatetags import donne_fields
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The fields' drawings this test makes, from a memo of its own."""
    monkeypatch.setattr(donne_fields, "ASKED", DrawnOnce(10))
    names: list[str] = []

    def seen(sender, template, **kwargs) -> None:
        if template.name == donne_fields.FIELDS:
            names.append(template.name)

    template_rendered.connect(seen)
    yield names
    template_rendered.disconnect(seen)


def next_form(partie) -> DonneForm:
    return DonneForm.next_donne(build_marque(partie_state(partie, last=1)))


def test_the_next_donnes_fields_are_drawn_once_and_are_what_its_own_form_draws(
    alice, drawn
) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    first_form = next_form(partie)
    first = donne_fields.donne_fields(first_form)
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2 3"))
    partie.refresh_from_db()
    second_form = next_form(partie)
    # Another donne, built on another state: neither is in the fields.
    assert second_form["revision"].value() != first_form["revision"].value()
    second = donne_fields.donne_fields(second_form)
    assert drawn == [donne_fields.FIELDS]
    assert second == first == render_to_string(donne_fields.FIELDS, {"form": second_form})
    assert second.count('class="hand"') == 3 and 'data-joueur="Chloé"' in second


def test_a_renamed_player_or_another_language_is_drawn_anew(alice, drawn) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    french = donne_fields.donne_fields(next_form(partie))
    bruno = partie.joueurs.get(name="Bruno")
    bruno.name = "Bruno-Paul"
    bruno.save()
    renamed = donne_fields.donne_fields(next_form(partie))
    with translation.override("en"):
        english = donne_fields.donne_fields(next_form(partie))
    assert len(drawn) == 3
    assert "Ce qui reste en main" in french and 'data-joueur="Bruno"' in french
    assert 'data-joueur="Bruno-Paul"' in renamed
    assert "What is left in hand" in english


def test_a_posted_form_is_drawn_with_what_was_typed_and_its_errors(alice, drawn) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    donne_fields.donne_fields(next_form(partie))
    bruno = partie.joueurs.get(name="Bruno")
    posted = DonneForm(
        {"win": "rami", f"points_{bruno.pk}": "-4"},
        preset=partie.preset,
        joueurs=list(partie.joueurs.order_by("seat")),
    )
    assert not posted.is_valid()
    html = donne_fields.donne_fields(posted)
    assert len(drawn) == 2
    assert 'value="-4"' in html and "is-invalid" in html
    assert "Touchez le nom du gagnant." in html

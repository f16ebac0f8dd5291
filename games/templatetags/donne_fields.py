"""``{% donne_fields form %}``: what the donne form asks under its head (the winner, how he won,
each loser's hand with its card picker: games/donne_form/_fields.html), drawn once per process
for the players it asks about (games/display/drawn.py). Every donne recorded draws the next
donne's form, and these fields were most of the page's drawing; what changes from one donne to
the next (its number, its dealer, the state it is built on, its key) is drawn around them.

An unbound form, the next donne's, is drawn from its preset, its players (their ids and names)
and the language alone: nothing is typed in it and its initial values are the preset's. A bound
form (posted, perhaps refused, or a donne edited) is drawn as it is, with what was typed and
its errors."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.display.drawn import DrawnOnce, form_part
from games.forms import DonneForm

register = template.Library()
FIELDS = "games/donne_form/_fields.html"
ASKED = DrawnOnce(1_000)  # sets of players: some 13 KB each for four, 22 KB for seven


@register.simple_tag
def donne_fields(form: DonneForm) -> SafeString:
    def draw() -> str:
        return render_to_string(FIELDS, {"form": form})

    key = (get_language(), form.preset.key, tuple((j.pk, j.name) for j in form.joueurs))
    return form_part(ASKED, form, key, draw)

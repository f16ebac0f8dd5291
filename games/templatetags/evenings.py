"""The link from a partie's money to its evening on the Comptes page (games/display/evenings.py):
one money truth, the page of the partie and the evening's naming each other."""

from __future__ import annotations

from django import template
from django.urls import reverse

from games.display.evenings import evening_of
from games.models import Partie

register = template.Library()


@register.filter
def evening_url(partie: Partie) -> str:
    return f"{reverse('evenings_money')}#{evening_of(partie)}"

"""The link from a partie's money to its evening on the Comptes page (games/display/comptes.py):
one money truth, the page of the partie and the evening's naming each other."""

from __future__ import annotations

from django import template
from django.urls import reverse

from games.display.comptes import evening_of
from games.models import Partie

register = template.Library()


@register.filter
def comptes_url(partie: Partie) -> str:
    return f"{reverse('comptes_argent')}#{evening_of(partie)}"

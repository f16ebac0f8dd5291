"""``{% money_fields money_form %}``: the four fields of the money form (the cagnotte's "Modifier
l'argent"), drawn once per process for the values they show (games/display/drawn.py). The page
draws its cagnotte anew after each donne and the money seldom changes; crispy's four fields
were most of that draw. A bound form (posted, perhaps refused) is drawn as it is, with what was
typed and its errors."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.display.drawn import DrawnOnce, form_part
from games.forms import MoneyForm

register = template.Library()
FIELDS = "games/_money_fields.html"
STAKES = DrawnOnce(5_000)  # sets of stakes


@register.simple_tag
def money_fields(form: MoneyForm) -> SafeString:
    def draw() -> str:
        return render_to_string(FIELDS, {"money_form": form})

    key = (get_language(), *(str(form[name].value()) for name in MoneyForm.Meta.fields))
    return form_part(STAKES, form, key, draw)

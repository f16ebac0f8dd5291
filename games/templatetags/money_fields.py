"""``{% money_fields money_form %}``: the four fields of the money form (the cagnotte's "Modifier
l'argent"), drawn once per process for the values they show. The page draws its cagnotte anew
after each donne and the money seldom changes; crispy's four fields were most of that draw.
A bound form (posted, perhaps refused) is drawn as it is, with what was typed and its errors.
The templates do not change while a process runs, so nothing else can make them stale."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.forms import MoneyForm

register = template.Library()
FIELDS = "games/_money_fields.html"
KEPT = 5_000  # sets of stakes; past that the kept ones are dropped and drawn again
_drawn: dict[tuple, SafeString] = {}


@register.simple_tag
def money_fields(form: MoneyForm) -> SafeString:
    if form.is_bound:
        return _draw(form)
    key = (get_language(), *(str(form[name].value()) for name in MoneyForm.Meta.fields))
    html = _drawn.get(key)
    if html is None:
        if len(_drawn) >= KEPT:
            _drawn.clear()
        html = _drawn[key] = _draw(form)
    return html


def _draw(form: MoneyForm) -> SafeString:
    return mark_safe(render_to_string(FIELDS, {"money_form": form}))  # noqa: S308 - escaped

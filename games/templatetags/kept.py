"""``{% kept "name" %}…{% endkept %}``: a region of the partie page that only the partie's state
and the language decide, taken from the page's kept entry (games/views/fragments.py) or drawn
with the placeholder token and kept with it. Without an entry in the context (a page that keeps
nothing), the region is drawn as it is."""

from __future__ import annotations

from django import template
from django.template.base import Node, NodeList, Parser, Token
from django.template.context import Context

from games.views import fragments

register = template.Library()


class KeptNode(Node):
    def __init__(self, name: str, nodelist: NodeList):
        self.name = name
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        entry = context.get("kept")
        if entry is None:
            return self.nodelist.render(context)

        def draw() -> str:
            with context.push(csrf_token=fragments.PLACEHOLDER):
                return self.nodelist.render(context)

        return entry.part(self.name, draw)


@register.tag
def kept(parser: Parser, token: Token) -> KeptNode:
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('{% kept "name" %} takes one quoted name')
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(bits[1][1:-1], nodelist)

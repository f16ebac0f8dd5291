"""``{% kept "name" %}…{% endkept %}``: a region of the partie page that only the partie's state
and the language decide, taken from the page's kept entry (games/views/fragments.py) or drawn
with the placeholder token and kept with it. Without an entry in the context (a page that keeps
nothing), the region is drawn as it is.

``{% kept "name" by a b … %}``: a region that is drawn from ``a``, ``b`` … alone (and the
partie, the language and the address, as every region is), which a donne leaves as they were:
it is also kept under those values, so that a new state's page (a write's answer) takes it
drawn from the state before (``PageEntry.part``'s ``steady``). What the region shows and what
``by`` names are side by side in the template: a value it reads and ``by`` does not name
would be shown stale.

``{% by_language "name" %}…{% endby_language %}``: a region that only the language decides (the
words the JavaScript says), drawn once per process, template and language: the templates, the
translations and the static files' names it holds change only with a deploy, which starts new
processes, or under ``runserver``, which reads an edited template or translation in place and
then has them drawn anew (``_redrawn``)."""

from __future__ import annotations

from django import template
from django.dispatch import receiver
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.template.context import Context
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.views import fragments

register = template.Library()


class KeptNode(Node):
    def __init__(self, name: str, nodelist: NodeList, by: list[FilterExpression] | None = None):
        self.name = name
        self.nodelist = nodelist
        self.by = by

    def render(self, context: Context) -> str:
        entry = context.get("kept")
        if entry is None:
            return self.nodelist.render(context)

        def draw() -> str:
            with context.push(csrf_token=fragments.PLACEHOLDER):
                return self.nodelist.render(context)

        steady = None
        if self.by is not None:
            by = self.by

            def steady() -> str:
                values = [value.resolve(context) for value in by]
                return fragments.region_key(entry.request, context["partie"], self.name, values)

        return entry.part(self.name, draw, steady=steady)


@register.tag
def kept(parser: Parser, token: Token) -> KeptNode:
    bits = token.split_contents()
    by = None
    if len(bits) > 2:
        if bits[2] != "by" or len(bits) == 3:
            raise template.TemplateSyntaxError('{% kept "name" by a b … %} names its values')
        by = [parser.compile_filter(bit) for bit in bits[3:]]
    return KeptNode(*_quoted_name(parser, bits[:2], "endkept"), by=by)


_by_language: dict[tuple[str, str, str], SafeString] = {}


@receiver(file_changed, dispatch_uid="by-language-redrawn")
def _redrawn(sender, file_path, **kwargs) -> None:
    _by_language.clear()


class ByLanguageNode(Node):
    def __init__(self, name: str, nodelist: NodeList):
        self.name = name
        self.nodelist = nodelist

    def render(self, context: Context) -> SafeString:
        key = (self.origin.name, self.name, get_language())
        html = _by_language.get(key)
        if html is None:
            html = _by_language[key] = mark_safe(self.nodelist.render(context))  # noqa: S308
        return html


def _quoted_name(parser: Parser, bits: list[str], end: str) -> tuple[str, NodeList]:
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f'{{% {bits[0]} "name" %}} takes one quoted name')
    nodelist = parser.parse((end,))
    parser.delete_first_token()
    return bits[1][1:-1], nodelist


@register.tag
def by_language(parser: Parser, token: Token) -> ByLanguageNode:
    return ByLanguageNode(*_quoted_name(parser, token.split_contents(), "endby_language"))

"""The donne form as a phone posts it, read from the page (or the htmx fragment) that carries
it: every field a browser would send, the checked radios, and nothing of the app's insides."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    fields: dict[str, str] = field(default_factory=dict)  # what a browser posts as it stands
    choices: dict[str, list[str]] = field(default_factory=dict)  # every radio's values, by name


class _Forms(HTMLParser):
    """Every form of a page, with its fields as a browser would post them: a field outside
    its form that names it (``form="donne-form"``, the dealer's select above the donne form)
    is posted with it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.by_id: dict[str, Form] = {}
        self.named: dict[str, Form] = {}  # the fields that name their form, by its id
        self.current: Form | None = None
        self.owner: Form | None = None  # the form of the select or textarea being read
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.current = Form()
            self.forms.append(self.current)
            if a.get("id"):
                self.by_id[a["id"]] = self.current
            return
        if tag == "option":
            owner, select = self.owner, self.select
            if owner is not None and select and ("selected" in a or select not in owner.fields):
                owner.fields[select] = a.get("value") or ""
            return
        name = a.get("name")
        form = self.named.setdefault(a["form"], Form()) if a.get("form") else self.current
        if form is None or not name:
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            value = a.get("value") or ""
            if kind in ("radio", "checkbox"):
                form.choices.setdefault(name, []).append(value or "on")
                if "checked" in a:
                    form.fields[name] = value or "on"
            elif kind not in ("submit", "button", "reset", "image", "file"):
                form.fields[name] = value
        elif tag == "select":
            self.select, self.owner = name, form
        elif tag == "textarea":
            self.textarea, self.owner = name, form
            form.fields[name] = ""

    def handle_data(self, data: str) -> None:
        if self.owner is not None and self.textarea is not None:
            self.owner.fields[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = self.owner = None
        elif tag == "textarea":
            self.textarea = self.owner = None

    def close(self) -> None:
        super().close()
        for form_id, outside in self.named.items():
            if form_id in self.by_id:
                self.by_id[form_id].fields.update(outside.fields)
                for name, values in outside.choices.items():
                    self.by_id[form_id].choices.setdefault(name, []).extend(values)


def donne_form(html: str) -> Form:
    """The donne form of a page or fragment: the form that offers a winner."""
    parser = _Forms()
    parser.feed(html)
    parser.close()
    form = next((f for f in parser.forms if "winner" in f.choices), None)
    if form is None:
        raise RuntimeError("no donne form in the response")
    return form


def new_donne(html: str, pick: int | random.Random) -> dict[str, str]:
    """The page's donne form filled in as the phone does: a winner (the ``pick``-th player en
    course, or one drawn by ``pick``), one point for every other player en course, the rest of
    the form as it stands (jokers 0, no cards, its idempotency key and state)."""
    form = donne_form(html)
    post = dict(form.fields)
    winners = form.choices["winner"]
    if isinstance(pick, random.Random):
        winner = pick.choice(winners)
    else:
        winner = winners[pick % len(winners)]
    post["winner"] = winner
    players = post.get("players", "").split() or [
        name.removeprefix("points_") for name in post if name.startswith("points_")
    ]
    for pk in players:
        if pk != winner:
            post[f"points_{pk}"] = "1"
    if not post.get("idempotency_key"):
        post["idempotency_key"] = str(uuid.uuid4())
    return post


def as_posted(html: str) -> dict[str, str]:
    """The donne form of an edit page posted back exactly as it stands."""
    return dict(donne_form(html).fields)

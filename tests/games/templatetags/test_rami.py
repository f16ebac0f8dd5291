"""The template filters of games/templatetags/rami.py."""

from __future__ import annotations

import uuid

import pytest
from django import forms

from games.templatetags.rami import hidden


class Hidden(forms.Form):
    key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    revision = forms.CharField(required=False, widget=forms.HiddenInput)


KEY = uuid.UUID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")


@pytest.mark.parametrize(
    "form",
    [
        Hidden(initial={"key": KEY, "revision": 12}),
        Hidden(),
        Hidden({"key": "pas-une-clé", "revision": '"><script>alert(1)</script>'}),
        Hidden({"key": "", "revision": "0"}),
    ],
    ids=["initial", "nothing", "typed-hostile", "empty"],
)
def test_a_hidden_field_is_drawn_as_its_widget_draws_it(form: Hidden) -> None:
    for name in ("key", "revision"):
        assert hidden(form[name]) == str(form[name])


def test_a_hidden_field_escapes_what_was_posted() -> None:
    form = Hidden({"revision": '"><b>'})
    assert hidden(form["revision"]) == (
        '<input type="hidden" name="revision" value="&quot;&gt;&lt;b&gt;" id="id_revision">'
    )

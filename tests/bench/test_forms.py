"""The bench posts the donne form as a browser does (bench/forms.py), on the partie page itself."""

from __future__ import annotations

import pytest

from bench.forms import donne_form, new_donne
from tests.factories import make_partie

pytestmark = pytest.mark.django_db


def test_a_field_outside_its_form_is_posted_with_it():
    html = """
    <select name="dealer" form="donne-form"><option value="1">Anne</option>
      <option value="2" selected>Bruno</option></select>
    <form id="other"><input name="note" value="x"></form>
    <form id="donne-form"><input type="radio" name="winner" value="1">
      <input type="radio" name="winner" value="2"><textarea name="cards">7C</textarea></form>
    <select name="stray" form="nowhere"><option value="9" selected>9</option></select>
    """
    form = donne_form(html)
    assert form.fields == {"dealer": "2", "cards": "7C"}
    assert form.choices == {"winner": ["1", "2"]}


def test_the_page_posts_the_dealer_it_shows(client, django_user_model):
    owner = django_user_model.objects.create_user("anne", password="x")
    partie = make_partie(owner, ["Anne", "Bruno", "Chloé"])
    client.force_login(owner)
    html = client.get(f"/parties/{partie.pk}/").content.decode()
    post = new_donne(html, 1)
    first = partie.joueurs.order_by("seat").first()
    assert post["dealer"] == str(first.pk)
    assert client.post(f"/parties/{partie.pk}/donnes/", post).status_code == 302
    assert partie.donnes.get().dealer_id == first.pk

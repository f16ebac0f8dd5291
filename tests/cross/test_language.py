"""The language switch (Django's set_language, remembered), card letters in the
page's language and accepted in both, money written per language on every page.

Cast: alice owns the parties; the follower is anyone holding the share link."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import services
from games.forms.donne import DonneForm
from games.scoring import Hand, RamiError, parse_card
from games.views.partie_page import load_marque
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}


@pytest.fixture(autouse=True)
def _back_to_french():
    yield
    translation.activate("fr")


@pytest.fixture
def partie(client, alice):
    partie = make_partie(
        alice,
        joueurs=["Anne", "Bruno", "Chloé"],
        mise_initiale=Decimal("1234.50"),
        rachat_price=Decimal("2.00"),
    )
    play(partie, "Anne", "rami", Bruno=hand("K Q 5"), Chloé=hand("9"))
    client.force_login(alice)
    return partie


def ids(partie) -> dict[str, int]:
    return {j.name: j.pk for j in partie.joueurs.all()}


# -- the switch -------------------------------------------------------------------------------


def test_the_switch_posts_to_set_language_with_the_page_to_come_back_to(client, partie) -> None:
    url = reverse("partie_detail", args=[partie.pk])
    body = client.get(url).content.decode()
    action = reverse("set_language")
    assert f'<form method="post" action="{action}" class="language-switch">' in body
    assert f'<input type="hidden" name="next" value="{url}">' in body
    # Each language in its own words, the current one pressed.
    assert (
        '<button class="btn btn-outline-secondary active" name="language" value="fr" lang="fr"'
        ' aria-pressed="true">Français</button>' in body
    )
    assert 'name="language" value="en" lang="en">English</button>' in body


def test_choosing_english_is_remembered_for_a_year(client, partie) -> None:
    url = reverse("partie_detail", args=[partie.pk])
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en" and cookie["max-age"] == 365 * 24 * 3600
    assert cookie["samesite"] == "Lax"
    # The next pages, even with a French browser, speak English, until French is chosen.
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="fr-FR").content.decode()
    assert '<html lang="en">' in body and "Record the deal" in body
    client.post(reverse("set_language"), {"language": "fr", "next": url})
    body = client.get(url).content.decode()
    assert '<html lang="fr">' in body and "Noter la donne" in body


def test_the_switch_refuses_a_foreign_next(client, partie) -> None:
    response = client.post(
        reverse("set_language"), {"language": "en", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_every_page_of_the_site_has_the_menu(client, partie) -> None:
    for url in (
        reverse("home"),
        reverse("evenings_money"),
        reverse("partie_new"),
        reverse("partie_detail", args=[partie.pk]),
    ):
        body = client.get(url).content.decode()
        assert 'id="reglages"' in body and 'class="language-switch"' in body, url
        assert 'data-theme-value="dark"' in body, url
    client.logout()
    body = client.get(reverse("login")).content.decode()
    assert 'class="language-switch"' in body and "Déconnexion" not in body


def test_the_shared_page_has_the_colour_mode_but_no_form(client, partie) -> None:
    services.partie_share(partie=partie)
    partie.refresh_from_db()
    client.logout()
    body = client.get(reverse("partie_follow", args=[partie.share_token])).content.decode()
    assert 'data-theme-value="dark"' in body
    assert "<form" not in body and "language-switch" not in body


# -- card letters ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_engine_reads_both_spellings_whatever_the_language(language) -> None:
    translation.activate(language)
    assert [parse_card(c) for c in ("R", "D", "V", "K", "Q", "J", "r", "d", "v", "k")] == [
        "K", "Q", "J", "K", "Q", "J", "K", "Q", "J", "K",
    ]  # fmt: skip
    assert Hand.of("R D V 10").cards == Hand.of("K Q J 10").cards == ("K", "Q", "J", "10")
    with pytest.raises(RamiError):
        parse_card("C")


@pytest.mark.parametrize(
    ("accept", "typed", "shown"),
    [("fr-FR", "K Q J", "R D V"), ("en-US", "R D V", "K Q J"), ("en-US", "K q v", "K Q J")],
)
def test_a_donne_typed_in_either_letters_is_stored_and_shown_in_the_page_s(
    client, partie, accept, typed, shown
) -> None:
    pk = ids(partie)
    data = {
        "winner": str(pk["Bruno"]),
        "win": "rami",
        f"cards_{pk['Anne']}": typed,
        f"points_{pk['Chloé']}": "4",
    }
    url = reverse("donne_create", args=[partie.pk])
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    donne = partie.donnes.get(number=2)
    assert donne.hands.get(joueur__name="Anne").cards == "K Q J"
    edit = client.get(reverse("donne_edit", args=[partie.pk, 2]), HTTP_ACCEPT_LANGUAGE=accept)
    assert edit.context["form"][f"cards_{pk['Anne']}"].value() == shown


@pytest.mark.parametrize(
    ("language", "keys", "letters"),
    [
        (
            "fr",
            ["A", "R", "D", "V", "10"],
            {"K": "R", "Q": "D", "J": "V", "R": "R", "D": "D", "V": "V"},
        ),
        (
            "en",
            ["A", "K", "Q", "J", "10"],
            {"K": "K", "Q": "Q", "J": "J", "R": "K", "D": "Q", "V": "J"},
        ),
    ],
)
def test_the_card_picker_writes_the_page_s_letters(partie, language, keys, letters) -> None:
    # The keys of the picker, and the table the hand preview's chips read (data-letters):
    # a card typed in the other language's letters shows in this one's.
    translation.activate(language)
    form = DonneForm.next_donne(load_marque(partie))
    assert form.card_keys[:5] == keys
    assert json.loads(form.letters_json) == letters


def test_the_page_hands_the_letters_to_the_picker(client, partie) -> None:
    body = client.get(reverse("partie_detail", args=[partie.pk]), **EN).content.decode()
    assert 'data-letters="{&quot;K&quot;: &quot;K&quot;' in body
    assert "&quot;R&quot;: &quot;K&quot;" in body


# -- money -------------------------------------------------------------------------------------


def test_money_is_written_in_the_page_s_language_everywhere(client, partie) -> None:
    services.partie_share(partie=partie)
    partie.refresh_from_db()
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("9"))
    services.partie_close(partie=partie)
    pages = [
        reverse("partie_detail", args=[partie.pk]),
        reverse("evenings_money"),
        reverse("partie_sheet", args=[partie.pk]),
        reverse("partie_follow", args=[partie.share_token]),
    ]
    for url in pages:
        french = client.get(url).content.decode()
        english = client.get(url, **EN).content.decode()
        # A stake, or what Bruno hands Anne: 1 234,50 €, with the narrow no-break space of
        # the French CLDR data; €1,234.50 in English, and no French amount left.
        assert "1\u202f234,50\u00a0€" in french, url
        assert "€1,234.50" in english, url
        assert ",50\u00a0€" not in english and ",00\u00a0€" not in english, url
    # Anne's net over the evening: the pot of 3 703,50 € less her own stake.
    assert "€2,469.00" in client.get(pages[1], **EN).content.decode()
    assert "2\u202f469,00\u00a0€" in client.get(pages[1]).content.decode()

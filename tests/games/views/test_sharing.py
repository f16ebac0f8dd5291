"""The share link and the read-only live view. Cast: alice owns the partie, bob is
another account, and the follower is an anonymous visitor holding the link."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Partie
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def partie(alice) -> Partie:
    partie = make_partie(alice, name="Mardi chez Alice", joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand(points=7))
    return services.partie_share(partie=partie)


def follow_url(partie: Partie) -> str:
    return reverse("partie_follow", args=[partie.share_token])


def test_sharing_makes_an_unguessable_token_and_sharing_again_replaces_it(alice) -> None:
    partie = make_partie(alice)
    assert partie.share_token is None
    first = services.partie_share(partie=partie).share_token
    second = services.partie_share(partie=partie).share_token
    assert len(first) == 32 and len(second) == 32 and first != second
    partie.refresh_from_db()
    assert partie.share_token == second


def test_the_owner_creates_regenerates_and_revokes_the_link(client, alice) -> None:
    partie = make_partie(alice)
    client.force_login(alice)
    response = client.post(reverse("partie_share", args=[partie.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"/parties/{partie.pk}/?partage#partage"
    partie.refresh_from_db()
    old = partie.share_token
    page = client.get(response["Location"]).content.decode()
    assert '<details class="card mb-3 d-print-none" id="partage" open>' in page
    assert f"http://testserver/suivre/{old}/" in page
    assert '<svg viewBox="0 0' in page and 'class="qr-code"' in page

    client.post(reverse("partie_share", args=[partie.pk]))
    partie.refresh_from_db()
    assert partie.share_token != old
    assert client.get(f"/suivre/{old}/").status_code == 404

    client.post(reverse("partie_unshare", args=[partie.pk]))
    partie.refresh_from_db()
    assert partie.share_token is None
    assert "Créer le lien de partage" in client.get(f"/parties/{partie.pk}/").content.decode()


def test_the_share_controls_refuse_get_and_other_accounts(client, partie) -> None:
    client.force_login(make_user("bob"))
    assert client.post(reverse("partie_share", args=[partie.pk])).status_code == 404
    assert client.post(reverse("partie_unshare", args=[partie.pk])).status_code == 404
    client.force_login(partie.owner)
    assert client.get(reverse("partie_share", args=[partie.pk])).status_code == 405
    token = partie.share_token
    partie.refresh_from_db()
    assert partie.share_token == token


def test_the_follower_sees_the_marque_without_any_edit_control(client, partie) -> None:
    # Another partie of alice's, which the follower must not see.
    make_partie(partie.owner, name="Partie secrète")
    response = client.get(follow_url(partie))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Mardi chez Alice" in body and 'id="scoreboard"' in body and 'id="marque"' in body
    # Bruno's king counts 10, Chloé's 7; Anne, the winner, −10 (docs/rules.md §3.2).
    assert all(f'data-total="{t}"' in body for t in ("-10", "10", "7"))
    assert "<form" not in body and "hx-post" not in body
    assert "/donnes/" not in body and "/parties/" not in body
    assert "alice" not in body.lower().replace("mardi chez alice", "")
    assert "Partie secrète" not in body
    assert "Déconnexion" not in body and "connexion" not in body
    assert 'hx-trigger="every 4s"' in body
    assert response["X-Robots-Tag"] == "noindex"


def test_the_owner_opening_the_link_sees_no_account_either(client, partie) -> None:
    client.force_login(partie.owner)
    body = client.get(follow_url(partie)).content.decode()
    assert "alice" not in body.lower().replace("mardi chez alice", "")
    assert "<form" not in body


def test_a_wrong_or_revoked_token_is_a_404(client, partie) -> None:
    assert client.get("/suivre/pas-le-bon-jeton/").status_code == 404
    url = follow_url(partie)
    services.partie_unshare(partie=partie)
    assert client.get(url).status_code == 404
    # A follower's poll gets the 404 too, and htmx reloads the page to show it.
    response = client.get(url, **HTMX)
    assert response.status_code == 404 and response["HX-Refresh"] == "true"


def test_a_poll_returns_the_live_fragment_then_304_until_something_changes(
    client, partie, django_assert_num_queries
) -> None:
    url = follow_url(partie)
    response = client.get(url, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="suivi"') and "<html" not in body
    assert response["Cache-Control"] == "private, no-cache"
    assert "HX-Request" in response["Vary"]
    etag = response["ETag"]
    assert f'"If-None-Match": "\\"{etag.strip(chr(34))}\\""' in body

    # Measured: one query (the partie and its donne count), no body.
    with django_assert_num_queries(1):
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag
    # As nginx's gzip passes the ETag on: weakened, it still names the same state.
    weakened = client.get(url, HTTP_IF_NONE_MATCH=f"W/{etag}", **HTMX)
    assert weakened.status_code == 304 and weakened["ETag"] == etag

    play(partie, "Bruno", "rami", Anne=hand(points=5), Chloé=hand(points=5))
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert '<th scope="row">2</th>' in changed.content.decode()


def test_the_live_fragment_of_a_new_state_is_drawn_once_for_the_table_s_followers(
    partie, django_assert_num_queries
) -> None:
    url = follow_url(partie)
    phones = [Client() for _ in range(3)]
    etags = [phone.get(url, **HTMX)["ETag"] for phone in phones]
    play(partie, "Bruno", "rami", Anne=hand(points=5), Chloé=hand(points=5))
    first = phones[0].get(url, HTTP_IF_NONE_MATCH=etags[0], **HTMX)
    assert first.status_code == 200 and '<th scope="row">2</th>' in first.content.decode()
    for phone, etag in zip(phones[1:], etags[1:], strict=True):
        # The state and the kept fragment, both from the cache (here the database's table).
        with django_assert_num_queries(2):
            again = phone.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
        assert (again.status_code, again.content) == (200, first.content)
        assert again["ETag"] == first["ETag"]
    # The big screen's fragment is another drawing, and so is the page with every donne.
    grand = phones[0].get(url + "?grand=1", HTTP_IF_NONE_MATCH=etags[0], **HTMX)
    assert grand.content != first.content and 'class="bigscreen"' in grand.content.decode()


def test_a_revoked_link_is_refused_even_where_a_fragment_was_kept(client, partie) -> None:
    url = follow_url(partie)
    etag = client.get(url, **HTMX)["ETag"]
    play(partie, "Bruno", "rami", Anne=hand(points=5), Chloé=hand(points=5))
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200
    services.partie_unshare(partie=partie)
    gone = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert (gone.status_code, gone["HX-Refresh"]) == (404, "true")


def test_every_write_changes_the_etag(client, alice) -> None:
    partie = make_partie(alice, seuil=20)
    partie = services.partie_share(partie=partie)
    url = follow_url(partie)
    seen = {client.get(url, **HTMX)["ETag"]}
    play(partie, "Alice", "rami", Bruno=hand(points=25), Chloé=hand(points=5))  # Bruno crosses
    seen.add(client.get(url, **HTMX)["ETag"])
    decide(partie, "Bruno", True)
    seen.add(client.get(url, **HTMX)["ETag"])
    services.partie_close(partie=partie)
    seen.add(client.get(url, **HTMX)["ETag"])
    assert len(seen) == 4


def test_a_finished_partie_stops_the_polling(client, partie) -> None:
    services.partie_close(partie=partie)
    body = client.get(follow_url(partie), **HTMX).content.decode()
    assert re.match(r'\s*<div id="suivi">', body)
    # No poll any more; the chart's fold still loads when it is opened.
    assert "every 4s" not in body and 'id="suivi" hx-get' not in body
    assert 'id="resultat"' in body and "Rouvrir" not in body and "<form" not in body


def test_the_full_page_and_the_fragment_have_different_etags(client, partie) -> None:
    url = follow_url(partie)
    page = client.get(url)
    fragment = client.get(url, **HTMX)
    assert page["ETag"] != fragment["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=fragment["ETag"]).status_code == 200

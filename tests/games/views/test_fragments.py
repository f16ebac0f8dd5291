"""The parts of the partie page kept rendered by the partie's state (games/views/fragments.py):
never stale (a donne, a rename, the money, a payment ticked, the language), never another
account's, and each form in them carries the token of the browser that asked.

Cast: alice owns the partie, on two phones; bob is another account."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Habitue, Rachat
from games.views.fragments import KEY_PLACEHOLDER, PLACEHOLDER
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db
NAMES = ["Anne", "Bruno", "Chloé"]


@pytest.fixture(autouse=True)
def _back_to_french():
    yield
    translation.activate("fr")


@pytest.fixture
def partie(alice):
    partie = make_partie(
        alice, joueurs=NAMES, mise_initiale=Decimal("1.00"), rachat_price=Decimal("2.00")
    )
    play(partie, "Anne", "rami", Bruno=hand("K Q"), Chloé=hand("5"))
    return partie


def logged_in(username: str = "alice", **options) -> Client:
    client = Client(**options)
    client.login(username=username, password="cartes-sur-table")
    return client


def page(client: Client, partie, **headers) -> str:
    response = client.get(reverse("partie_detail", args=[partie.pk]), **headers)
    assert response.status_code == 200
    # Money is written with a no-break space before the € (games/display/numbers.py).
    return response.content.decode().replace("\xa0", " ").replace("\u202f", " ")


def scoreboard_total(html: str, name: str) -> str:
    pattern = rf'data-joueur="{name}">.*?<span class="total" data-total="(-?\d+)"'
    found = re.search(pattern, html, re.S)
    return found.group(1)


def test_a_donne_recorded_after_the_page_was_kept_is_on_the_next_page(alice, partie) -> None:
    client = logged_in()
    page(client, partie)
    kept = page(client, partie)  # from the cache
    assert kept.count('class="donne-link"') == 1
    assert scoreboard_total(kept, "Bruno") == "20"
    play(partie, "Bruno", "rami", Anne=hand(points=25), Chloé=hand("2"))
    html = page(client, partie)
    assert html.count('class="donne-link"') == 2
    assert scoreboard_total(html, "Anne") == "15"  # −10 as the first winner, then 25
    assert 'title="Modifier">2</a>' in html
    assert "Annuler la dernière donne (2)" in html


def test_a_renamed_player_is_renamed_on_the_kept_page(alice, partie) -> None:
    client = logged_in()
    page(client, partie)
    assert ">Bruno<" in page(client, partie)
    habitue = Habitue.objects.get(owner=alice, name="Bruno")
    services.habitue_rename(habitue=habitue, name="Bruneau")
    html = page(client, partie)
    assert ">Bruneau<" in html
    assert ">Bruno<" not in html


def test_a_new_stake_and_a_ticked_payment_show_on_the_kept_page(alice, partie) -> None:
    client = logged_in()
    page(client, partie)
    assert 'id="cagnotte-total">3,00 €<' in page(client, partie)
    services.partie_update_money(
        partie=partie,
        mise_initiale=Decimal("5.00"),
        rachat_price=Decimal("2.00"),
        point_value=Decimal("0"),
        settlement="gagnant",
    )
    html = page(client, partie)
    assert 'id="cagnotte-total">15,00 €<' in html
    assert 'id="sur-la-table">0,00 €<' in html
    services.mise_mark_paid(joueur=partie.joueurs.get(name="Anne"), paid=True)
    assert 'id="sur-la-table">5,00 €<' in page(client, partie)


def test_a_ticked_rachat_shows_on_the_kept_page(alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand(points=90), Chloé=hand("2"))
    decide(partie, "Bruno", True)
    client = logged_in()
    page(client, partie)
    assert 'id="sur-la-table">0,00 €<' in page(client, partie)
    services.rachat_mark_paid(rachat=Rachat.objects.get(joueur__name="Bruno"), paid=True)
    assert 'id="sur-la-table">2,00 €<' in page(client, partie)


def test_english_and_french_are_kept_apart(alice, partie) -> None:
    client = logged_in()
    english = {"HTTP_ACCEPT_LANGUAGE": "en"}
    for _ in range(2):  # drawn, then kept: each language its own
        french, in_english = page(client, partie), page(client, partie, **english)
        assert ">La marque<" in french and ">Sur la table<" in french
        assert ">Score sheet<" in in_english and ">On the table<" in in_english
        assert "La marque" not in in_english and "Score sheet" not in french
        # The words of the JavaScript, drawn once per language (games/templatetags/kept.py).
        assert 'data-racheter="Se racheter"' in french and "Buy back" not in french
        assert 'data-racheter="Buy back"' in in_english and "Se racheter" not in in_english
        # The foot, kept by what it shows (its language with it).
        assert "Terminer la partie" in french and "End the game" not in french
        assert "End the game" in in_english and "Terminer la partie" not in in_english


def test_another_account_gets_a_404_even_once_the_page_is_kept(alice, partie) -> None:
    page(logged_in(), partie)
    page(logged_in(), partie)
    make_user("bob")
    url = reverse("partie_detail", args=[partie.pk])
    assert logged_in("bob").get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the login page


def test_each_phone_gets_its_own_token_in_the_kept_forms(alice, partie) -> None:
    first, second = (logged_in(enforce_csrf_checks=True) for _ in range(2))
    page(first, partie)
    html = page(second, partie)  # kept by the first phone
    assert PLACEHOLDER not in html
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert tokens and all(len(t) == 64 for t in tokens)
    cagnotte = html[html.index('id="cagnotte-panel"') :]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', cagnotte).group(1)
    anne = partie.joueurs.get(name="Anne")
    url = reverse("mise_paid", args=[partie.pk, anne.pk])
    response = second.post(url, {"paid": "1", "csrfmiddlewaretoken": token})
    assert response.status_code in (200, 302)
    anne.refresh_from_db()
    assert anne.mise_paid is True


def test_the_chart_follows_the_partie(alice, partie) -> None:
    client = logged_in()
    url = reverse("partie_chart", args=[partie.pk])
    before = client.get(url).content
    assert client.get(url).content == before
    play(partie, "Bruno", "rami", Anne=hand("9"), Chloé=hand("2"))
    after = client.get(url).content
    assert after != before
    make_user("bob")
    assert logged_in("bob").get(url).status_code == 404


def test_the_shared_page_keeps_its_own_read_only_parts(alice, partie) -> None:
    owner = logged_in()
    page(owner, partie)
    page(owner, partie)  # the owner's parts, with their edit links and forms, are kept
    shared = services.partie_share(partie=partie)
    follow = reverse("partie_follow", args=[shared.share_token])
    for _ in range(2):
        html = Client().get(follow).content.decode()
        assert "donne-link" not in html and "csrfmiddlewaretoken" not in html
        assert re.findall(r'<th scope="row">(\d+)</th>', html) == ["1"]
    play(partie, "Bruno", "rami", Anne=hand(points=25), Chloé=hand("2"))
    html = Client().get(follow).content.decode()
    assert re.findall(r'<th scope="row">(\d+)</th>', html) == ["1", "2"]


def donne_key(html: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', html).group(1)


def donne_title(html: str) -> str:
    return re.search(r'id="donne-title"[^>]*>([^<]+)<', html).group(1)


def test_the_kept_donne_form_gets_a_fresh_key_on_every_page(alice, partie) -> None:
    client = logged_in()
    keys = [donne_key(page(client, partie)) for _ in range(3)]  # drawn, then kept twice
    assert len(set(keys)) == 3
    assert str(KEY_PLACEHOLDER) not in keys
    html = page(logged_in(), partie, HTTP_HX_REQUEST="true")  # another phone, the same state
    assert donne_key(html) not in keys and donne_title(html) == "Donne 2"


def test_the_kept_donne_form_follows_the_partie(alice, partie) -> None:
    client = logged_in()
    page(client, partie)
    assert donne_title(page(client, partie)) == "Donne 2"
    play(partie, "Bruno", "rami", Anne=hand(points=25), Chloé=hand("2"))
    html = page(client, partie)
    assert donne_title(html) == "Donne 3"
    assert 'data-number="3"' in html
    services.partie_close(partie=partie)
    html = page(client, partie)
    assert 'id="donne-form"' not in html and 'id="rematch"' in html


def test_a_note_written_after_the_page_was_kept_is_on_the_next_page(alice, partie) -> None:
    client = logged_in()
    page(client, partie)
    assert 'id="note-text"' not in page(client, partie)
    services.partie_note_set(partie=partie, note="Chez Anne <3", token=None)
    assert '<p class="partie-note small mb-1" id="note-text">Chez Anne &lt;3</p>' in page(
        client, partie
    )


def test_the_foot_a_donne_leaves_as_it_was_follows_what_it_shows(alice) -> None:
    """The foot (links, share panel, note, actions) is kept by what it is drawn from, not by
    the state: a donne takes it drawn, and what changes it draws it anew."""
    partie = make_partie(alice, joueurs=NAMES)
    client = logged_in()
    html = page(client, partie)
    assert 'id="courbe"' not in html and "Terminer la partie" in html  # no donne, no chart
    play(partie, "Anne", "rami", Bruno=hand("K Q"), Chloé=hand("5"))
    assert 'id="courbe"' in page(client, partie)  # the first donne brings the chart's fold
    play(partie, "Bruno", "rami", Anne=hand("2"), Chloé=hand("5"))
    html = page(client, partie)
    assert "Terminer la partie" in html and 'id="courbe"' in html
    services.partie_close(partie=partie)
    html = page(client, partie)
    assert "Terminer la partie" not in html and 'id="rematch"' in html
    # Another partie with the same foot's values is never this one's.
    other = make_partie(alice, joueurs=NAMES)
    play(other, "Anne", "rami", Bruno=hand("K Q"), Chloé=hand("5"))
    assert f"/parties/{other.pk}/marque/" in page(client, other)


def share_link(html: str) -> str:
    return re.search(r'id="share-url" type="url" value="([^"]+)"', html).group(1)


def test_the_share_link_is_drawn_for_the_host_and_scheme_asked(alice, partie) -> None:
    token = services.partie_share(partie=partie).share_token
    page(logged_in(), partie)
    assert share_link(page(logged_in(HTTP_HOST="localhost"), partie)) == (
        f"http://localhost/suivre/{token}/"
    )
    assert share_link(page(logged_in(), partie, secure=True)) == (
        f"https://testserver/suivre/{token}/"
    )
    assert share_link(page(logged_in(), partie)) == f"http://testserver/suivre/{token}/"


def test_the_kept_share_panel_opens_when_asked_and_follows_a_new_link(alice, partie) -> None:
    client = logged_in()
    old = services.partie_share(partie=partie).share_token
    url = reverse("partie_detail", args=[partie.pk])
    assert '<details class="card mb-3 d-print-none" id="partage">' in page(client, partie)
    opened = client.get(url + "?partage").content.decode()
    assert '<details class="card mb-3 d-print-none" id="partage" open>' in opened
    assert '<details class="card mb-3 d-print-none" id="partage">' in page(client, partie)
    # A new link, then none: the kept panel is never the old one.
    new = services.partie_share(partie=partie).share_token
    assert new != old and share_link(page(client, partie)).endswith(f"/suivre/{new}/")
    services.partie_unshare(partie=partie)
    html = page(client, partie)
    assert 'id="share-url"' not in html and "Créer le lien de partage" in html


def per_request_values_out(html: str) -> str:
    """The page without what each request draws anew: the token, the donne key, the time."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "TOKEN", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "TOKEN", html)
    html = re.sub(r'name="idempotency_key" value="[^"]+"', "KEY", html)
    return re.sub(r'data-rendered="[^"]+"', "RENDERED", html)


def test_the_kept_page_is_the_page_drawn(alice, partie) -> None:
    play(partie, "Anne", "rami", Bruno=hand(points=90), Chloé=hand("2"))  # Bruno to decide
    client = logged_in()
    drawn = per_request_values_out(page(client, partie))
    assert "rachat-card" in drawn and 'id="donne-waits" hidden' in drawn
    assert per_request_values_out(page(client, partie)) == drawn
    assert per_request_values_out(page(logged_in(), partie)) == drawn  # another phone


def test_a_page_after_a_swap_has_what_the_swap_leaves_out(
    alice, partie, django_assert_num_queries
) -> None:
    client = logged_in()
    swapped = page(client, partie, HTTP_HX_REQUEST="true")  # kept without the page around it
    assert 'id="queue-words"' not in swapped
    # The swap kept every region of the entry; the words around it are drawn by language.
    with django_assert_num_queries(4):
        html = page(client, partie)
    assert 'id="queue-words"' in html and 'id="engine-files"' in html
    assert per_request_values_out(page(client, partie)) == per_request_values_out(html)


def record_on_the_page(client: Client, partie, html: str, winner: str, **points: int):
    """The page's donne form posted as htmx posts it: its key, its state, its players."""
    ids = {j.name: j.pk for j in partie.joueurs.all()}
    data = {
        name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)
        for name in ("csrfmiddlewaretoken", "idempotency_key", "revision", "players")
    }
    data.update({"winner": str(ids[winner]), "win": "rami"})
    data.update({f"points_{ids[name]}": str(value) for name, value in points.items()})
    url = reverse("donne_create", args=[partie.pk])
    return client.post(url, data, HTTP_HX_REQUEST="true")


def test_the_page_a_donne_leaves_is_kept_by_its_answer(alice, partie, django_assert_num_queries):
    client = logged_in()
    answer = record_on_the_page(client, partie, page(client, partie), "Bruno", Anne=4, Chloé=9)
    assert answer.status_code == 200 and "Donne 2 notée" in answer.content.decode()
    # The page the phone's worker asks for next is found whole: session, user, then the
    # partie with its players and summary (the key), and the kept entry; no state is read.
    with django_assert_num_queries(4):
        kept = page(client, partie)
    assert scoreboard_total(kept, "Anne") == "-6" and "Donne 3" in donne_title(kept)
    # And it is the page drawn from the database.
    cache.clear()
    drawn = page(client, partie)
    assert per_request_values_out(kept) == per_request_values_out(drawn)


def kept_pages(partie) -> int:
    """How many entries the shared cache holds for the pages of ``partie``."""
    pattern = f"*fragment:page:{partie.pk}:*"
    if isinstance(caches["default"], RedisCache):
        return len(cache._cache.get_client().keys(pattern))
    with connection.cursor() as cursor:
        like = pattern.replace("*", "%")
        cursor.execute("SELECT COUNT(*) FROM ramiscore_cache WHERE cache_key LIKE %s", [like])
        return cursor.fetchone()[0]


def test_an_evening_keeps_one_page_per_table_not_one_per_donne(alice, partie):
    client = logged_in()
    html = page(client, partie)
    for number, (winner, points) in enumerate(
        [("Bruno", {"Anne": 4, "Chloé": 9}), ("Chloé", {"Anne": 2, "Bruno": 7})] * 3, start=2
    ):
        answer = record_on_the_page(client, partie, html, winner, **points)
        assert f"Donne {number} notée" in answer.content.decode()
        html = page(client, partie)
    assert "Donne 8" in donne_title(html)
    # Each donne's page took the place of the last one's: one entry, not seven.
    assert kept_pages(partie) == 1


def test_the_big_screen_and_the_link_keep_their_own_parts(alice, partie):
    # 25 donnes: the link's page shows them all, the big screen the latest 20.
    for number in range(2, 26):
        winner, *losers = NAMES[number % 3 :] + NAMES[: number % 3]
        play(partie, winner, "rami", **{name: hand(points=1) for name in losers})
    follow = reverse("partie_follow", args=[services.partie_share(partie=partie).share_token])
    follower, screen = Client(), Client()

    def rows(client: Client, url: str) -> list[str]:
        html = client.get(url).content.decode()
        return re.findall(r'<th scope="row">(\d+)</th>', html)

    for _ in range(2):
        assert rows(follower, follow) == [str(n) for n in range(1, 26)]
        assert rows(screen, follow + "?grand=1") == [str(n) for n in range(6, 26)]
    # Each kept apart, not one taking the other's place at every poll.
    assert kept_pages(partie) == 2


def test_a_club_of_160_tables_finds_every_page_kept(alice, partie):
    # 160 tables keep 320 entries (a page and its foot each): past Django's 300, the database
    # cache would cull a third of them on every write.
    parties = [partie]
    for index in range(159):
        other = make_partie(alice, name=f"Table {index + 2}", joueurs=NAMES)
        play(other, "Anne", "rami", Bruno=hand("K"), Chloé=hand("5"))
        parties.append(other)
    client = logged_in()
    for each in parties:
        page(client, each)

    def queries(each) -> int:
        with CaptureQueriesContext(connection) as captured:
            page(client, each)
        return len(captured.captured_queries)

    # Found kept: session, user, the partie with its players, the entry.
    assert [queries(each) for each in parties] == [4] * 160


def test_a_link_revoked_while_a_donne_is_on_its_way_is_not_kept_with_its_page(alice, partie):
    client = logged_in()
    token = services.partie_share(partie=partie).share_token
    html = page(client, partie)
    assert token in html

    def other_phone_first(execute, sql, params, many, context):
        # Another phone revokes the link after this write read the partie, just before it
        # claims it: the link is not what the partie's revision follows.
        if sql.startswith('UPDATE "games_partie" SET "updated_at"') and not revoked:
            revoked.append(services.partie_unshare(partie=partie))
        return execute(sql, params, many, context)

    revoked = []
    with connection.execute_wrapper(other_phone_first):
        answer = record_on_the_page(client, partie, html, "Bruno", Anne=4, Chloé=9)
    assert revoked and answer.status_code == 200
    assert token not in answer.content.decode()
    kept = page(client, partie)
    assert token not in kept and "Donne 3" in donne_title(kept)
    cache.clear()
    assert per_request_values_out(kept) == per_request_values_out(page(client, partie))

"""The regular table: habitués remembered across parties, renamed or merged with
every partie following, the rematch prefilled, and the partie's note. Cast: alice owns the
parties, bob is another account."""

from __future__ import annotations

import html
import importlib
from decimal import Decimal

import pytest
from django.apps import apps
from django.urls import reverse

from games import replays, selectors, services
from games.errors import PartieError
from games.models import Habitue, Joueur
from games.scoring import RamiError
from games.services.parties import note_token
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db


def habitues(owner) -> list[tuple[str, int]]:
    return [(h.name, h.joueurs.count()) for h in Habitue.objects.filter(owner=owner)]


def test_players_are_one_habitue_whatever_the_case_accents_and_spaces(alice, bob) -> None:
    make_partie(alice, joueurs=["Chloé", "Bruno"])
    make_partie(alice, joueurs=["chloe", "BRUNO", "Anne"])
    make_partie(bob, joueurs=["Chloé", "Bruno"])
    assert habitues(alice) == [("Anne", 1), ("Bruno", 2), ("Chloé", 2)]
    assert habitues(bob) == [("Bruno", 1), ("Chloé", 1)]


def test_the_new_partie_form_offers_the_habitues_latest_first(client, alice, bob) -> None:
    make_partie(alice, joueurs=["Anne", "Bruno"])
    make_partie(alice, joueurs=["Chloé", "David"])
    make_partie(bob, joueurs=["Zoé", "Yves"])
    client.force_login(alice)
    page = client.get(reverse("partie_new")).content.decode()
    chips = [
        part.split('"')[0]
        for part in page.split('class="btn btn-outline-success habitue-chip" data-name="')[1:]
    ]
    assert chips == ["Chloé", "David", "Anne", "Bruno"]
    assert "Zoé" not in page
    assert '<option value="Anne"></option>' in page  # the datalist, without JavaScript


def test_a_rename_follows_every_partie_and_its_stored_replay(alice) -> None:
    first = make_partie(alice, joueurs=["Jp", "Anne"])
    play(first, "Anne", "rami", Jp=hand("K Q"))
    second = make_partie(alice, joueurs=["Anne", "jp", "Bruno"])
    play(second, "jp", "rami", Anne=hand("5"), Bruno=hand("7"))
    jp = Habitue.objects.get(owner=alice, key="jp")
    services.habitue_rename(habitue=jp, name="  Jean-Pierre ")
    assert [j.name for j in first.joueurs.all()] == ["Jean-Pierre", "Anne"]
    assert [j.name for j in second.joueurs.all()] == ["Anne", "Jean-Pierre", "Bruno"]
    for partie in (first, second):
        partie.refresh_from_db()
        assert replays.agrees(partie)
    second.refresh_from_db()
    stored = selectors.partie_state(second)
    assert stored.states[0].winner == "Jean-Pierre"
    assert stored.summary.final.ranking[0][1] == "Jean-Pierre"
    assert habitues(alice) == [("Anne", 2), ("Bruno", 1), ("Jean-Pierre", 2)]


def test_a_rename_onto_another_habitue_or_a_bad_name_is_refused(alice) -> None:
    make_partie(alice, joueurs=["Anne", "Bruno"])
    bruno = Habitue.objects.get(owner=alice, key="bruno")
    with pytest.raises(PartieError) as refused:
        services.habitue_rename(habitue=bruno, name="ANNE")
    assert refused.value.code == "habitue_existe"
    for bad in ("", "x" * 31, "Bru\x00no"):
        with pytest.raises(Exception) as refused:
            services.habitue_rename(habitue=bruno, name=bad)
        assert refused.value.code in {"nom_invalide", "nom_trop_long", "nom_illisible"}
    assert list(Joueur.objects.values_list("name", flat=True).order_by("seat")) == [
        "Anne",
        "Bruno",
    ]


def test_two_spellings_merge_and_every_partie_follows(alice) -> None:
    first = make_partie(alice, joueurs=["JP", "Anne"])
    play(first, "JP", "rami", Anne=hand("9"))
    second = make_partie(alice, joueurs=["Jean-Pierre", "Anne"])
    jp = Habitue.objects.get(owner=alice, key="jp")
    jean_pierre = Habitue.objects.get(owner=alice, key="jean-pierre")
    services.habitue_merge(habitue=jp, into=jean_pierre)
    assert [j.name for j in first.joueurs.all()] == ["Jean-Pierre", "Anne"]
    assert habitues(alice) == [("Anne", 2), ("Jean-Pierre", 2)]
    first.refresh_from_db()
    assert replays.agrees(first)
    assert selectors.partie_state(first).states[0].winner == "Jean-Pierre"
    assert second.joueurs.get(seat=1).habitue == jean_pierre


def test_two_people_who_played_together_are_not_merged(alice) -> None:
    make_partie(alice, joueurs=["Marc", "Marco"], name="Lundi")
    marc, marco = (Habitue.objects.get(owner=alice, key=k) for k in ("marc", "marco"))
    with pytest.raises(PartieError) as refused:
        services.habitue_merge(habitue=marco, into=marc)
    assert refused.value.code == "habitues_meme_partie"
    assert str(refused.value) == (
        "Marco et Marc jouent ensemble dans « Lundi » : ce sont deux personnes, on ne peut pas "
        "les fusionner."
    )
    assert habitues(alice) == [("Marc", 1), ("Marco", 1)]


def test_the_habitues_page_renames_and_merges_only_the_accounts_own(client, alice, bob) -> None:
    make_partie(alice, joueurs=["Jp", "Anne"])
    make_partie(alice, joueurs=["Jean-Pierre", "Bruno"])
    make_partie(bob, joueurs=["Zoé", "Yves"])
    jp, jean_pierre = (Habitue.objects.get(owner=alice, key=k) for k in ("jp", "jean-pierre"))
    zoe = Habitue.objects.get(owner=bob, key="zoe")
    client.force_login(alice)
    page = client.get(reverse("habitues")).content.decode()
    assert "Jean-Pierre" in page and "Zoé" not in page
    assert client.post(reverse("habitue_rename", args=[zoe.pk]), {"name": "X"}).status_code == 404
    response = client.post(reverse("habitue_merge", args=[jp.pk]), {"into": zoe.pk}, follow=True)
    assert "Choisissez l&#x27;habitué avec qui fusionner Jp." in response.content.decode()
    response = client.post(
        reverse("habitue_merge", args=[jp.pk]), {"into": jean_pierre.pk}, follow=True
    )
    assert "Jp et Jean-Pierre ne font plus qu&#x27;un" in response.content.decode()
    response = client.post(
        reverse("habitue_rename", args=[jean_pierre.pk]), {"name": "Jean-Pierre"}, follow=True
    )
    assert response.status_code == 200
    response = client.post(
        reverse("habitue_rename", args=[jean_pierre.pk]), {"name": "Anne"}, follow=True
    )
    assert "Anne est déjà un habitué de ce compte" in response.content.decode()
    assert Habitue.objects.get(pk=zoe.pk).name == "Zoé"


def test_the_rematch_is_the_same_table_with_the_next_first_dealer(client, alice, bob) -> None:
    partie = make_partie(
        alice,
        joueurs=["Anne", "Bruno", "Chloé"],
        preset="rami40",
        mise_initiale=Decimal("1.50"),
        seuil=120,
        seuil_inclusive=True,
        first_dealer=3,
    )
    client.force_login(alice)
    page = client.get(reverse("partie_new") + f"?rejouer={partie.pk}").content.decode()
    assert "Rejouer avec les mêmes joueurs" in page
    assert 'value="rami40" checked' in page
    for seat, name in enumerate(["Anne", "Bruno", "Chloé"], 1):
        assert f'name="joueurs" value="{name}"' in page, seat
    assert 'name="mise_initiale" value="1,50"' in page
    assert 'name="seuil" value="120"' in page
    assert '<option value="true" selected>' in page
    assert '<option value="1" selected>' in page  # seat 3 → seat 1
    other = make_partie(bob, joueurs=["Zoé", "Yves"])
    page = client.get(reverse("partie_new") + f"?rejouer={other.pk}").content.decode()
    assert "Zoé" not in page and "Nouvelle partie" in page


def test_the_finished_partie_and_the_home_page_offer_the_rematch(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    client.force_login(alice)
    link = reverse("partie_new") + f"?rejouer={partie.pk}"
    # Still being played: neither page offers to play it again.
    assert link not in client.get(reverse("home")).content.decode()
    assert link not in client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    services.partie_close(partie=partie)
    assert link in client.get(reverse("home")).content.decode()
    assert link in client.get(reverse("partie_detail", args=[partie.pk])).content.decode()


def test_the_note_is_written_from_the_partie_page(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    revision = partie.revision
    client.force_login(alice)
    url = reverse("partie_note", args=[partie.pk])
    typed = "  Chez Anne.\r\nBruno a apporté le gâteau. "
    response = client.post(url, {"note": typed, "note_token": note_token("")}, follow=True)
    assert "Note enregistrée." in response.content.decode()
    partie.refresh_from_db()
    assert partie.note == "Chez Anne.\nBruno a apporté le gâteau."
    assert partie.revision == revision  # the marque did not change
    response = client.post(url, {"note": "x" * 2001, "note_token": note_token(partie.note)})
    assert response.status_code == 422
    assert "La note tient en 2000 caractères au plus." in response.content.decode()
    partie.refresh_from_db()
    assert partie.note == "Chez Anne.\nBruno a apporté le gâteau."


def test_the_migration_links_the_joueurs_already_there(alice) -> None:
    make_partie(alice, joueurs=["Chloé", "Bruno"])
    make_partie(alice, joueurs=["CHLOE", "Anne"])
    Joueur.objects.update(habitue=None)
    Habitue.objects.all().delete()
    backfill = importlib.import_module("games.migrations.0009_habitues_backfill").backfill
    backfill(apps, None)
    assert habitues(alice) == [("Anne", 1), ("Bruno", 1), ("Chloé", 2)]


def test_one_habitue_sits_once_at_a_table(client, alice) -> None:
    """docs/rules.md R28 tells "Chloé" and "Chloe" apart at one table; the habitués do not:
    the second seat stays without a habitué rather than one person counted twice."""
    partie = make_partie(alice, joueurs=["Chloé", "Chloe", "Marc"])
    seats = {j.name: j.habitue for j in partie.joueurs.all()}
    assert seats["Chloé"].name == "Chloé" and seats["Chloe"] is None
    assert habitues(alice) == [("Chloé", 1), ("Marc", 1)]
    # Renaming her moves only her seat: no clash with the other spelling, no 500.
    client.force_login(alice)
    response = client.post(reverse("habitue_rename", args=[seats["Chloé"].pk]), {"name": "Zoé"})
    assert response.status_code == 302
    assert sorted(partie.joueurs.values_list("name", flat=True)) == ["Chloe", "Marc", "Zoé"]


def test_a_rename_stores_the_name_as_every_other_path_does(alice) -> None:
    """docs/rules.md R28: trimmed and NFC, counted after NFC (30 "é" typed as e + accent)."""
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    anne = partie.joueurs.get(name="Anne").habitue
    decomposed = "e\u0301" * 30
    renamed = services.habitue_rename(habitue=anne, name=f"  {decomposed} ")
    assert renamed.name == "é" * 30
    assert partie.joueurs.get(seat=1).name == "é" * 30
    with pytest.raises(RamiError) as refused:
        services.habitue_rename(habitue=renamed, name="An\u202ene")
    assert refused.value.code == "nom_invalide"


def test_digits_that_are_not_numbers_are_no_pk(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    client.force_login(alice)
    assert client.get(reverse("partie_new"), {"rejouer": "²"}).status_code == 200
    anne = partie.joueurs.get(name="Anne").habitue
    merge = client.post(reverse("habitue_merge", args=[anne.pk]), {"into": "²"}, follow=True)
    assert "Choisissez l'habitué avec qui fusionner Anne." in html.unescape(merge.content.decode())


def test_a_note_keeps_line_breaks_and_refuses_control_characters(client, alice) -> None:
    partie = make_partie(alice, joueurs=["Anne", "Bruno"])
    client.force_login(alice)
    url = reverse("partie_note", args=[partie.pk])
    posted = client.post(url, {"note": "chez Anne\x00", "note_token": note_token("")})
    page = html.unescape(posted.content.decode())
    assert "La note contient un caractère de contrôle (invisible) : retirez-le" in page
    partie.refresh_from_db()
    assert partie.note == ""
    client.post(url, {"note": "chez Anne\r\n\tle gâteau : Bruno", "note_token": note_token("")})
    partie.refresh_from_db()
    assert partie.note == "chez Anne\n\tle gâteau : Bruno"

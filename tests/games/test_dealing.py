"""Who deals (docs/rules.md §2.4 "Le donneur"): chosen at creation, passed on by the
services, shown and changed on the donne form, stored, printed on the sheet and kept in the
exports. Cast: alice owns the parties; Anne, Bruno, Chloé and David sit at the table."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from games import services
from games.errors import PartieError
from games.models import Donne, Partie
from tests.factories import decide, hand, make_partie, play

pytestmark = pytest.mark.django_db
TABLE = ["Anne", "Bruno", "Chloé", "David"]


def dealers(partie: Partie) -> list[str | None]:
    return [d.dealer.name if d.dealer else None for d in partie.donnes.select_related("dealer")]


def losers(winner: str, names=TABLE, **heavy: int) -> dict:
    return {n: hand(points=heavy.get(n, 5)) for n in names if n != winner}


def test_the_deal_goes_round_from_the_first_dealer(alice) -> None:
    partie = make_partie(alice, joueurs=TABLE, first_dealer=3)
    for _ in range(5):
        play(partie, "Anne", "rami", **losers("Anne"))
    assert dealers(partie) == ["Chloé", "David", "Anne", "Bruno", "Chloé"]


def test_the_deal_skips_a_player_who_left(alice) -> None:
    partie = make_partie(alice, joueurs=TABLE)
    play(partie, "Anne", "rami", **losers("Anne", Bruno=120))  # Anne deals; Bruno crosses
    decide(partie, "Bruno", False)  # and leaves
    play(partie, "Anne", "rami", **losers("Anne", ["Anne", "Chloé", "David"]))
    play(partie, "Anne", "rami", **losers("Anne", ["Anne", "Chloé", "David"]))
    # Bruno would have dealt the second donne: Chloé does, then David.
    assert dealers(partie) == ["Anne", "Chloé", "David"]


def test_a_dealer_chosen_by_hand_counts_and_the_deal_goes_on_from_him(alice) -> None:
    partie = make_partie(alice, joueurs=TABLE)
    joueurs = {j.name: j for j in partie.joueurs.all()}
    play(partie, "Anne", "rami", **losers("Anne"))  # Anne
    services.donne_create(
        partie=partie,
        winner=joueurs["Bruno"],
        win="rami",
        hands={joueurs[n]: hand(points=3) for n in TABLE if n != "Bruno"},
        dealer=joueurs["Chloé"],  # Bruno was skipped
    )
    play(partie, "Anne", "rami", **losers("Anne"))
    assert dealers(partie) == ["Anne", "Chloé", "David"]


def test_a_dealer_who_left_is_refused(alice) -> None:
    partie = make_partie(alice, joueurs=TABLE)
    play(partie, "Anne", "rami", **losers("Anne", Bruno=120))
    decide(partie, "Bruno", False)
    joueurs = {j.name: j for j in partie.joueurs.all()}
    with pytest.raises(PartieError) as refused:
        services.donne_create(
            partie=partie,
            winner=joueurs["Anne"],
            win="rami",
            hands={joueurs[n]: hand(points=3) for n in ("Chloé", "David")},
            dealer=joueurs["Bruno"],
        )
    assert refused.value.code == "donneur_invalide"
    assert partie.donnes.count() == 1


def test_a_first_dealer_off_the_table_is_refused(alice) -> None:
    with pytest.raises(PartieError) as refused:
        make_partie(alice, joueurs=["Anne", "Bruno"], first_dealer=3)
    assert refused.value.code == "premier_donneur_invalide"
    assert not Partie.objects.exists()


def test_the_form_says_who_deals_and_records_a_change(client, alice) -> None:
    partie = make_partie(alice, joueurs=TABLE, first_dealer=2)
    client.force_login(alice)
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    bruno, david = (partie.joueurs.get(name=n).pk for n in ("Bruno", "David"))
    assert "Donne 1" in page and "donneur :" in page
    assert f'<option value="{bruno}" selected>Bruno</option>' in page
    ids = {j.name: j.pk for j in partie.joueurs.all()}
    data = {"winner": ids["Anne"], "win": "rami", "dealer": david}
    data |= {f"points_{ids[n]}": "4" for n in ("Bruno", "Chloé", "David")}
    assert client.post(reverse("donne_create", args=[partie.pk]), data).status_code == 302
    assert dealers(partie) == ["David"]
    page = client.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert f'<option value="{ids["Anne"]}" selected>Anne</option>' in page  # after David


def test_editing_a_donne_changes_its_dealer(client, alice) -> None:
    partie = make_partie(alice, joueurs=TABLE)
    play(partie, "Anne", "rami", **losers("Anne"))
    client.force_login(alice)
    ids = {j.name: j.pk for j in partie.joueurs.all()}
    url = reverse("donne_edit", args=[partie.pk, 1])
    page = client.get(url).content.decode()
    assert f'<option value="{ids["Anne"]}" selected>Anne</option>' in page
    partie.refresh_from_db()
    data = {
        "winner": ids["Anne"],
        "win": "rami",
        "dealer": ids["Chloé"],
        "revision": partie.revision,
    }
    data |= {f"points_{ids[n]}": "5" for n in ("Bruno", "Chloé", "David")}
    assert client.post(url, data).status_code == 302
    assert dealers(partie) == ["Chloé"]


def test_the_sheet_and_the_exports_keep_the_dealer_and_the_note(client, alice) -> None:
    partie = make_partie(alice, joueurs=TABLE, first_dealer=4)
    play(partie, "Anne", "rami", **losers("Anne"))
    play(partie, "Bruno", "rami", **losers("Bruno"))
    services.partie_note_set(partie=partie, note="Chez Chloé. David a apporté le gâteau.")
    client.force_login(alice)
    sheet = client.get(reverse("partie_sheet", args=[partie.pk])).content.decode()
    assert "donneur : David" in sheet and "donneur : Anne" in sheet
    assert "Chez Chloé. David a apporté le gâteau." in sheet
    body = client.get(reverse("partie_export_csv", args=[partie.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body[1:]), delimiter=";"))
    assert rows[0][-1] == "Donneur"
    assert [rows[1][-1], rows[2][-1]] == ["David", "Anne"]
    assert rows[-1] == ["Note", "Chez Chloé. David a apporté le gâteau."]
    exported = json.loads(client.get(reverse("partie_export_json", args=[partie.pk])).content)
    assert exported["donneurs"] == ["David", "Anne"]
    assert exported["premier_donneur"] == 4
    assert exported["note"] == "Chez Chloé. David a apporté le gâteau."
    # Imported again, the copy keeps them.
    copy = services.partie_import(owner=alice, record=exported["record"], name="copie")
    assert dealers(copy) == [None, None]  # a bare record has no dealers
    from games.files import uploaded_record
    from games.services.imports import parties_import

    [again], _skipped = parties_import(owner=alice, records=[uploaded_record(exported)])
    assert dealers(again) == ["David", "Anne"]
    assert again.first_dealer == 4 and again.note == "Chez Chloé. David a apporté le gâteau."


def test_an_old_donne_without_dealer_starts_the_deal_again_from_the_first(alice) -> None:
    partie = make_partie(alice, joueurs=TABLE, first_dealer=2)
    play(partie, "Anne", "rami", **losers("Anne"))
    Donne.objects.filter(partie=partie).update(dealer=None)  # recorded before the app asked
    play(partie, "Anne", "rami", **losers("Anne"))
    assert dealers(partie) == [None, "Bruno"]

"""Short labels of long names (games/display/names.py): distinct, and said in full elsewhere."""

from __future__ import annotations

from games.display.names import short_label, short_labels

SEVEN = ["Maman", "Mamie", "Marie-Christine", "Jean-Baptiste", "Zoé", "Zoë", "Ana"]


def test_long_names_get_a_short_label_and_short_ones_stay_whole() -> None:
    assert short_labels(SEVEN) == {
        "Maman": "Maman",
        "Mamie": "Mamie",
        "Marie-Christine": "Marie-C.",
        "Jean-Baptiste": "Jean-B.",
        "Zoé": "Zoé",
        "Zoë": "Zoë",
        "Ana": "Ana",
    }


def test_labels_of_every_shape() -> None:
    assert short_label("Anne Sophie") == "Anne S."
    assert short_label("Maximilien") == "Maximi."
    assert short_label("Jean-Pierre-Marie") == "Jean-P."
    assert short_label("Christophe-Marie") == "Christ."


def test_two_long_names_alike_keep_their_full_names() -> None:
    labels = short_labels(["Marie-Christine", "Marie-Claire", "Ana"])
    assert labels == {
        "Marie-Christine": "Marie-Christine",
        "Marie-Claire": "Marie-Claire",
        "Ana": "Ana",
    }


def test_a_table_of_four_writes_every_name_whole() -> None:
    four = ["Marie-Christine", "Jean-Baptiste", "Maximilien", "Ana"]
    assert short_labels(four) == {n: n for n in four}

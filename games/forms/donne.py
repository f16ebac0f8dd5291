"""One donne as the scorekeeper types it: the winner, the way he won, and each loser's hand
(a points total, or the cards tapped in the picker, plus the jokers kept). The form knows its
own field names; the engine counts, and refuses what the rules refuse."""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any, NamedTuple

from django import forms
from django.http import QueryDict
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from games.display.numbers import number
from games.errors import translated
from games.models import Donne, Joueur
from games.models import Hand as StoredHand  # the engine's Hand is what a hand holds
from games.scoring import (
    BOX_MAX_POINTS,
    FRENCH_LETTERS,
    TALON_EPUISE,
    Boxes,
    Hand,
    Preset,
    RamiError,
    card_letter,
    explain_hand,
    get_preset,
    hand_penalty,
    hands_needed,
    implausible,
    plausible_max,
    read_typed,
    table_warnings,
    typed_win,
)
from games.scoring.presets import RANKS

if TYPE_CHECKING:
    from games.display.marque import Marque

MAIN_MANQUANTE = _("Il manque les points de %(name)s : tapez-les, ou touchez ses cartes.")
# More than a hand of this preset can hold (games/scoring/hands.py plausible_max): a typo
# until the scorekeeper confirms it, on the same screen.
POINTS_IMPLAUSIBLES = _("%(points)s points pour %(name)s : c'est bien ça ?")
CARTES_IMPLAUSIBLES = _(
    "%(count)s cartes pour %(name)s, plus qu'on ne peut en garder (%(max)s) : c'est bien ça ?"
)
JOKERS_MAX = _("Ce jeu n'a que %(limit_value)s jokers.")
GAGNANT_REQUIS = _("Touchez le nom du gagnant.")

Hands = dict[Joueur, dict[str, Any]]


class Preview(NamedTuple):
    """One loser's live count: ``count`` on his row ("= 64", one short line that never
    grows), ``text`` the engine's explanation and ``warning`` under the save button."""

    joueur: Joueur
    count: str
    text: str
    warning: str


class DonneForm(forms.Form):
    """``joueurs``: the players the donne is dealt to (those en course), in seat order."""

    def __init__(self, *args: Any, preset: Preset | str, joueurs: list[Joueur], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.preset = get_preset(preset)
        self.joueurs = joueurs
        # Hidden: the idempotency key of this form, the state of the partie it was built on,
        # and who it was built for (so a post needs no replay to know the players).
        self.fields["idempotency_key"] = forms.UUIDField(required=False, widget=forms.HiddenInput)
        self.fields["revision"] = forms.CharField(
            required=False, max_length=40, widget=forms.HiddenInput
        )
        self.fields["players"] = forms.CharField(required=False, widget=forms.HiddenInput)
        # Sent by the offline queue only: the key of the queued donne this one was typed after.
        self.fields["after_key"] = forms.UUIDField(required=False, widget=forms.HiddenInput)
        self.fields["force"] = forms.BooleanField(
            label=_("Les mains sont justes : noter quand même"), required=False
        )
        self.table_warning = False
        choices = [(str(j.pk), j.name) for j in joueurs]
        if self.preset.talon_epuise:
            choices.append((TALON_EPUISE, gettext("Personne (talon épuisé)")))
        # docs/rules.md "Le donneur": who deals this donne, one of those it is dealt to.
        self.fields["dealer"] = forms.ChoiceField(
            label=_("Donneur"),
            choices=[("", "—"), *((str(j.pk), j.name) for j in joueurs)],
            required=False,
        )
        self.fields["winner"] = forms.ChoiceField(
            label=_("Gagnant"),
            choices=choices,
            widget=forms.RadioSelect,
            error_messages={"required": GAGNANT_REQUIS},
        )
        self.fields["win"] = forms.ChoiceField(
            label=_("Gagné par"),
            choices=[(k, gettext(v)) for k, v in self.preset.win_types.items()],
            initial=self.preset.default_win,
            widget=forms.RadioSelect,
            required=False,
        )
        for j in joueurs:
            self.fields[self._points(j)] = forms.IntegerField(
                label=_("Points"),
                min_value=0,
                max_value=BOX_MAX_POINTS,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
            )
            self.fields[self._cards(j)] = forms.CharField(
                label=_("Cartes"), max_length=200, required=False
            )
            self.fields[self._jokers(j)] = forms.IntegerField(
                label=_("Jokers en main"),
                min_value=0,
                max_value=self.preset.deck_jokers,
                error_messages={"max_value": JOKERS_MAX},
                initial=0,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields[self._ok(j)] = forms.BooleanField(
                label=_("Oui, c'est bien ça"), required=False
            )

    # -- building the form ----------------------------------------------------------------------

    @classmethod
    def next_donne(cls, marque: Marque, data: QueryDict | None = None) -> DonneForm:
        """The form of the next donne, for the players still en course, and who deals it."""
        form = cls._for(marque, marque.in_race, data)
        dealer = marque.stored.next_dealer([j.name for j in marque.in_race], marque.next_number)
        form.fields["dealer"].initial = str(dealer.pk) if dealer else ""
        return form

    @classmethod
    def from_donne(
        cls,
        marque: Marque,
        donne: Donne,
        data: QueryDict | None = None,
        hands: list[StoredHand] | None = None,
    ) -> DonneForm:
        """The edit form of a stored donne: what was recorded (``hands``, its hands:
        selectors.donne_hands), for those then en course; or what was posted (``data``)."""
        joueurs = marque.in_race_before(donne.number)
        if data is None:
            data = QueryDict(mutable=True)
            data.update(cls._stored(marque, donne, hands or []))
            data["players"] = cls._players(joueurs)
        return cls._for(marque, joueurs, data)

    @classmethod
    def _for(cls, marque: Marque, joueurs: list[Joueur], data: QueryDict | None) -> DonneForm:
        form = cls(data, preset=marque.partie.preset, joueurs=joueurs)
        form.fields["idempotency_key"].initial = uuid.uuid4()
        form.fields["revision"].initial = marque.revision
        form.fields["players"].initial = cls._players(joueurs)
        return form

    @classmethod
    def posted_players(cls, data: QueryDict, joueurs: list[Joueur]) -> list[Joueur] | None:
        """Who the posted form was built for, or None when it does not say (then the replay
        has to)."""
        wanted = set(data.get("players", "").split())
        chosen = [j for j in joueurs if str(j.pk) in wanted]
        return chosen if chosen and len(chosen) == len(wanted) else None

    @classmethod
    def _stored(cls, marque: Marque, donne: Donne, hands: list[StoredHand]) -> dict[str, str]:
        data = {
            "winner": str(donne.winner_id) if donne.winner_id else TALON_EPUISE,
            "dealer": str(donne.dealer_id) if donne.dealer_id else "",
            "win": donne.win,
            "revision": marque.revision,
        }
        by_id = {j.pk: j for j in marque.stored.joueurs}
        for hand in hands:
            joueur = by_id[hand.joueur_id]
            data[cls._jokers(joueur)] = str(hand.jokers)
            if hand.points is not None:
                data[cls._points(joueur)] = str(hand.points)
            else:
                data[cls._cards(joueur)] = " ".join(
                    card_letter(c, get_language() or "fr") for c in hand.cards.split()
                )
        return data

    @classmethod
    def retyped(
        cls, marque: Marque, data: QueryDict, err: RamiError, *, donne: Donne | None = None
    ) -> DonneForm:
        """A stale form (another phone wrote meanwhile): what was typed, moved onto the fresh
        state of the partie, with the refusal on top, for a second look."""
        joueurs = marque.in_race if donne is None else marque.in_race_before(donne.number)
        data = data.copy()
        data["revision"] = marque.revision
        data["players"] = cls._players(joueurs)
        form = cls._for(marque, joueurs, data)
        form.is_valid()
        form.add_error(None, translated(err))
        return form

    # -- field names ------------------------------------------------------------------------

    @staticmethod
    def _players(joueurs: list[Joueur]) -> str:
        """The hidden field naming whom the form was built for (``posted_players`` reads it)."""
        return " ".join(str(j.pk) for j in joueurs)

    @staticmethod
    def _points(joueur: Joueur) -> str:
        return f"points_{joueur.pk}"

    @staticmethod
    def _cards(joueur: Joueur) -> str:
        return f"cards_{joueur.pk}"

    @staticmethod
    def _jokers(joueur: Joueur) -> str:
        return f"jokers_{joueur.pk}"

    @staticmethod
    def _ok(joueur: Joueur) -> str:
        return f"ok_{joueur.pk}"

    def player_fields(self) -> list[tuple[Joueur, Any, Any, Any, Any]]:
        return [
            (
                j,
                self[self._points(j)],
                self[self._cards(j)],
                self[self._jokers(j)],
                self[self._ok(j)],
            )
            for j in self.joueurs
        ]

    def error_summary(self) -> list[tuple[str, str]]:
        """Every problem of a refused form, for the summary at its top: (the id of the field
        to jump to, or "" for the whole donne; the message), in the order of the page."""
        lines = [("", str(e)) for e in self.non_field_errors()]
        order = ["dealer", "winner", "win"]
        for j in self.joueurs:
            order += [self._ok(j), self._points(j), self._jokers(j), self._cards(j)]
        for name in order:
            if name in self.errors:
                # A group of radios is reached through its first button.
                anchor = self[name].id_for_label or f"{self[name].auto_id}_0"
                lines += [(anchor, str(e)) for e in self.errors[name]]
        return lines

    @property
    def no_hand_wins(self) -> list[str]:
        """docs/rules.md R27: the win types whose losers need no hand (the engine says)."""
        return [w for w in self.preset.win_types if not hands_needed(self.preset, w)]

    @property
    def flat_wins(self) -> list[tuple[str, str, int]]:
        """docs/rules.md R17: each flat win, its label and what each loser marks (the engine
        counts it for any hand: a loser keeps at least one card), for the note that replaces
        the hands."""
        any_hand = Hand.of(["2"])
        return [
            (win, gettext(self.preset.win_types[win]), hand_penalty(self.preset, any_hand, win))
            for win in self.no_hand_wins
        ]

    @property
    def points_max(self) -> int:
        return plausible_max(self.preset)

    @property
    def joker_choices(self) -> range:
        return range(self.preset.deck_jokers + 1)

    @property
    def card_keys(self) -> list[str]:
        """The card picker's keys, in the letters of the interface's language."""
        return [card_letter(rank, get_language() or "fr") for rank in RANKS]

    @property
    def letters_json(self) -> str:
        """How the chips of the card picker write a typed card in the page's letters: the
        engine reads K Q J and R D V in any language (docs/rules.md §1), so a French page
        shows a typed K as R, an English page a typed R as K."""
        language = get_language() or "fr"
        letters = {rank: card_letter(rank, language) for rank in FRENCH_LETTERS}
        letters |= {french: card_letter(rank, language) for rank, french in FRENCH_LETTERS.items()}
        return json.dumps(letters)

    # -- cleaning ---------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        dealer_key = cleaned.get("dealer")
        cleaned["dealer_joueur"] = next((j for j in self.joueurs if str(j.pk) == dealer_key), None)
        winner_key = cleaned.get("winner")
        if winner_key is None:
            return cleaned
        winner = next((j for j in self.joueurs if str(j.pk) == winner_key), None)
        cleaned["winner_joueur"] = winner
        # The engine reads the boxes (games/scoring/entry.py): the win type, who keeps a hand.
        cleaned["win"] = typed_win(self.preset, winner_key, cleaned.get("win"))
        boxes = {j: self._boxes(j, cleaned) for j in self.joueurs}
        typed = read_typed(self.preset, self.joueurs, winner, cleaned["win"], boxes)
        for joueur, err in typed.unreadable.items():
            self.add_error(self._cards(joueur), translated(err))
        for joueur in typed.missing:
            if self._points(joueur) not in self.errors:
                self.add_error(self._points(joueur), MAIN_MANQUANTE % {"name": joueur.name})
        for joueur, hand in typed.hands.items():
            self._check_plausible(joueur, hand, cleaned)
        hands: Hands = typed.hands
        cleaned["hands"] = hands
        if not cleaned.get("force"):
            warnings = table_warnings(self.preset, [Hand.from_dict(h) for h in hands.values()])
            for warning in warnings:
                self.add_error(None, translated(warning))
            self.table_warning = bool(warnings)
        return cleaned

    def _boxes(self, joueur: Joueur, cleaned: dict[str, Any]) -> Boxes:
        """What this player's boxes hold, once Django has read each as a number or a text (a
        box it refused reads as empty: its own error is next to it)."""
        return Boxes(
            cards=cleaned.get(self._cards(joueur)) or "",
            points=cleaned.get(self._points(joueur)),
            jokers=cleaned.get(self._jokers(joueur)) or 0,
        )

    def _check_plausible(self, joueur: Joueur, hand: dict[str, Any], cleaned: dict) -> None:
        """A hand above what one player can hold waits for the scorekeeper's "oui"."""
        if cleaned.get(self._ok(joueur)):
            return
        try:
            odd = implausible(self.preset, Hand.from_dict(hand))
        except RamiError:
            return  # the engine names what is wrong with it
        if not odd:
            return
        if "points" in hand:
            message = POINTS_IMPLAUSIBLES % {"points": hand["points"], "name": joueur.name}
        else:
            count = len(hand["cards"]) + hand["jokers"]
            message = CARTES_IMPLAUSIBLES % {
                "count": count,
                "name": joueur.name,
                "max": self.preset.hand_cards,
            }
        self.add_error(self._ok(joueur), message)

    # -- after the engine -------------------------------------------------------------------

    def add_refusal(self, err: RamiError, number: int) -> None:
        """Put a refusal next to the field it concerns. About this donne (``number``) the
        message needs no "Donne 7 :" prefix; about a later one (an edit can break it), it
        does."""
        joueur = next((j for j in self.joueurs if j.name == err.player), None)
        field = self._points(joueur) if joueur else None
        if err.code == "gagnant_hors_course":
            field = "winner"
        self.add_error(field, translated(err, with_donne=err.donne != number))

    def previews(self) -> list[Preview]:
        """Each loser's count as typed, with the engine's explanation, and the warning the
        save would give about it (an implausible hand), before the tap (the live preview)."""
        self.is_valid()
        cleaned = self.cleaned_data
        win = typed_win(self.preset, cleaned.get("winner"), cleaned.get("win"))
        winner = cleaned.get("winner_joueur")
        lines = []
        for joueur in self.joueurs:
            count = text = ""
            hand = cleaned.get("hands", {}).get(joueur)
            if joueur != winner and "winner" in cleaned and hand is not None:
                try:
                    total = hand_penalty(self.preset, hand, win)
                    count = "= " + number(total)
                    text = explain_hand(self.preset, hand, win, translate=gettext)
                    # A bare number explains nothing the row's count does not say.
                    text = "" if text == str(total) else text
                except RamiError as err:
                    count, text = "⚠", translated(err)
            warning = " ".join(str(e) for e in self.errors.get(self._ok(joueur), []))
            lines.append(Preview(joueur, count, text, warning))
        return lines

"""Forms validate and normalise what was typed; the services do the work."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.errors import PartieError
from games.files import uploaded_records
from games.models import Joueur, Partie
from games.scoring import PRESETS, TALON_EPUISE, RamiError, get_preset, parse_card
from games.scoring.errors import N_, not_json
from games.scoring.presets import RANKS

NOM_REQUIS = _("Donnez un nom à chaque joueur.")
NOM_ILLISIBLE = _("Un nom ne peut contenir que des caractères visibles.")
NOM_EN_DOUBLE = _("Deux joueurs s'appellent « %(name)s » : distinguez-les (Anne B., Anne C.).")
NOMBRE_DE_JOUEURS = _(
    "Ce jeu se joue de %(min)s à %(max)s joueurs ; vous en avez inscrit %(count)s."
)
MAIN_MANQUANTE = _("Indiquez les points de %(name)s, ou touchez ses cartes.")
TABLE_JOKERS = _(
    "À la table, %(count)s jokers en main : ce jeu n'en a que %(max)s. Vérifiez les mains."
)
TABLE_RANK = _(
    "À la table, %(count)s cartes « %(card)s » en main : ce jeu n'en a que %(max)s. "
    "Vérifiez les mains."
)
JOKERS_MAX = _("Ce jeu n'a que %(limit_value)s jokers.")
GAGNANT_REQUIS = _("Touchez le nom du gagnant.")
FRENCH = {"K": "R", "Q": "D", "J": "V"}
MAX_POINTS = 5000  # a hand of 13 cards and 4 jokers at ×4 stays far below this
MAX_NAME = 30

MONEY_FIELDS = ("mise_initiale", "prix_rachat", "valeur_point", "prix_rachat_2", "prix_rachat_3")
TRI_STATE = [("", _("selon la variante")), ("true", _("oui")), ("false", _("non"))]


def localize_money(form: forms.Form, names: tuple[str, ...]) -> None:
    """A French keyboard types "1,50": a localized text field accepts it (and "1.50")."""
    for name in names:
        field = form.fields[name]
        field.localize = True
        field.widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
        field.widget.is_localized = True


def _tri_state(value: str) -> bool | None:
    return {"true": True, "false": False}.get(value)


class PartieForm(forms.ModelForm):
    seuil_inclusif = forms.TypedChoiceField(
        label=_("Le seuil atteint pile élimine"),
        choices=TRI_STATE,
        coerce=_tri_state,
        empty_value=None,
        required=False,
    )
    objectif_inclusif = forms.TypedChoiceField(
        label=_("L'objectif atteint pile termine"),
        choices=TRI_STATE,
        coerce=_tri_state,
        empty_value=None,
        required=False,
    )

    class Meta:
        model = Partie
        fields = [
            "name",
            "preset",
            "mise_initiale",
            "prix_rachat",
            "prix_rachat_2",
            "prix_rachat_3",
            "valeur_point",
            "reglement",
            "currency",
            "seuil",
            "seuil_inclusif",
            "max_rachats",
            "nombre_manches",
            "objectif",
            "objectif_inclusif",
        ]
        widgets = {"currency": forms.Select(choices=[(c, c) for c in ("EUR", "CHF", "CAD")])}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = _("Par défaut, la date du jour.")
        self.fields["preset"].widget = forms.RadioSelect(choices=self.fields["preset"].choices[1:])
        self.fields["preset"].initial = "classique"
        localize_money(self, MONEY_FIELDS)
        for name in ("seuil", "max_rachats", "nombre_manches", "objectif"):
            self.fields[name].widget.attrs.update(inputmode="numeric")
        self.fields["prix_rachat_2"].help_text = _("Vide : même prix que le précédent.")
        self.joueurs: list[str] = []

    @staticmethod
    def preset_choices() -> list[tuple[str, Any, Any, dict[str, str]]]:
        """Each preset with its summary and the defaults the advanced options fall back to."""
        yes, no = gettext("oui"), gettext("non")
        return [
            (
                key,
                gettext(p.label),
                gettext(p.summary),
                {
                    "seuil": str(p.threshold or "—"),
                    "seuil_inclusif": (yes if p.inclusive else no) if p.threshold else "—",
                    "max_rachats": str(p.max_rachats if p.threshold else "—"),
                    "nombre_manches": str(p.fixed_manches or "—"),
                    "objectif": str(p.target or "—"),
                    "objectif_inclusif": (yes if p.target_inclusive else no) if p.target else "—",
                },
            )
            for key, p in PRESETS.items()
        ]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        return name or gettext("Partie du %(date)s") % {
            "date": date_format(timezone.localdate(), "d/m/Y")
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [n.strip() for n in self.data.getlist("joueurs") if n.strip()]
        self.joueurs = names
        preset = PRESETS.get(cleaned.get("preset") or "")
        seen: set[str] = set()
        for name in names:
            if len(name) > MAX_NAME:
                self.add_error(None, _("Un nom tient en 30 caractères au plus."))
            if not name.isprintable():
                # A NUL or a control character cannot be stored (PostgreSQL) nor read aloud.
                self.add_error(None, NOM_ILLISIBLE)
            if name.casefold() in seen:
                self.add_error(None, NOM_EN_DOUBLE % {"name": name})
            seen.add(name.casefold())
        if preset and not preset.min_players <= len(names) <= preset.max_players:
            self.add_error(
                None,
                NOMBRE_DE_JOUEURS
                % {"min": preset.min_players, "max": preset.max_players, "count": len(names)},
            )
        return cleaned


class MoneyForm(forms.ModelForm):
    """The stakes of a partie, changeable while it is played (what is owed is replayed)."""

    class Meta:
        model = Partie
        fields = ["mise_initiale", "prix_rachat", "valeur_point", "reglement"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        localize_money(self, ("mise_initiale", "prix_rachat", "valeur_point"))


class DonneForm(forms.Form):
    """One donne: the winner, the way he won, and each loser's hand (cards or points)."""

    def __init__(self, *args: Any, preset: str, joueurs: list[Joueur], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset = get_preset(preset)
        self.joueurs = joueurs
        # Hidden: the idempotency key of this form and the state of the partie it was built on.
        self.fields["cle"] = forms.UUIDField(required=False, widget=forms.HiddenInput)
        self.fields["forcer"] = forms.BooleanField(
            label=_("Les mains sont justes : noter quand même"), required=False
        )
        self.table_warning = False
        self.fields["etat"] = forms.CharField(
            required=False, max_length=40, widget=forms.HiddenInput
        )
        choices = [(str(j.pk), j.name) for j in joueurs]
        if self.preset.talon_epuise:
            choices.append((TALON_EPUISE, gettext("Personne (talon épuisé)")))
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
            self.fields[f"points_{j.pk}"] = forms.IntegerField(
                label=_("Points"),
                min_value=0,
                max_value=MAX_POINTS,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
            )
            self.fields[f"cartes_{j.pk}"] = forms.CharField(
                label=_("Cartes"), max_length=200, required=False
            )
            self.fields[f"jokers_{j.pk}"] = forms.IntegerField(
                label=_("Jokers en main"),
                min_value=0,
                max_value=self.preset.deck_jokers,
                error_messages={"max_value": JOKERS_MAX},
                initial=0,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    @property
    def joker_choices(self) -> range:
        return range(self.preset.deck_jokers + 1)

    @property
    def card_keys(self) -> list[tuple[str, str]]:
        """The card picker's keys, with the French letters a French table reads."""
        return [(FRENCH.get(rank, rank), FRENCH.get(rank, rank)) for rank in RANKS]

    def player_fields(self) -> list[tuple[Joueur, Any, Any, Any]]:
        return [
            (j, self[f"points_{j.pk}"], self[f"cartes_{j.pk}"], self[f"jokers_{j.pk}"])
            for j in self.joueurs
        ]

    def field_for(self, player: str | None) -> str | None:
        joueur = next((j for j in self.joueurs if j.name == player), None)
        return f"points_{joueur.pk}" if joueur else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        winner_key = cleaned.get("winner")
        if winner_key is None:
            return cleaned
        talon = winner_key == TALON_EPUISE
        winner = None if talon else next(j for j in self.joueurs if str(j.pk) == winner_key)
        cleaned["winner_joueur"] = winner
        cleaned["win"] = TALON_EPUISE if talon else cleaned.get("win") or self.preset.default_win
        hands: dict[Joueur, dict[str, Any]] = {}
        for j in self.joueurs:
            if j == winner:
                continue
            hand = self._hand(j, cleaned)
            if hand is not None:
                hands[j] = hand
        cleaned["hands"] = hands
        if not cleaned.get("forcer"):
            for problem in self._table_problems(hands):
                self.add_error(None, problem)
        return cleaned

    def _table_problems(self, hands: dict[Joueur, dict[str, Any]]) -> list[str]:
        """RULES.md R22: the engine checks each hand against the deck, not the hands against
        each other; the table gets a warning it can override (a joker may have been mistyped,
        or the table plays with an extra deck)."""
        problems: list[str] = []
        each = [Counter(hand.get("cards") or []) for hand in hands.values()]
        if any(hand.get("jokers", 0) > self.preset.deck_jokers for hand in hands.values()) or any(
            n > self.preset.max_same_rank for c in each for n in c.values()
        ):
            return problems  # one hand is already impossible: the engine names it
        jokers = sum(hand.get("jokers", 0) for hand in hands.values())
        if jokers > self.preset.deck_jokers:
            problems.append(TABLE_JOKERS % {"count": jokers, "max": self.preset.deck_jokers})
        ranks = Counter(card for hand in hands.values() for card in hand.get("cards") or [])
        for rank, count in ranks.items():
            if count > self.preset.max_same_rank:
                problems.append(
                    TABLE_RANK
                    % {
                        "count": count,
                        "card": FRENCH.get(rank, rank),
                        "max": self.preset.max_same_rank,
                    }
                )
        self.table_warning = bool(problems)
        return problems

    def _hand(self, joueur: Joueur, cleaned: dict[str, Any]) -> dict[str, Any] | None:
        points = cleaned.get(f"points_{joueur.pk}")
        jokers = cleaned.get(f"jokers_{joueur.pk}") or 0
        text = cleaned.get(f"cartes_{joueur.pk}", "")
        if text.strip():
            try:
                cards = [parse_card(card) for card in text.replace(",", " ").split()]
            except RamiError as err:
                self.add_error(f"cartes_{joueur.pk}", gettext(err.template) % err.params)
                return None
            return {"cards": cards, "jokers": jokers}
        if points is not None:
            return {"points": points, "jokers": jokers}
        if jokers:
            return {"cards": [], "jokers": jokers}
        if f"points_{joueur.pk}" not in self.errors:
            self.add_error(f"points_{joueur.pk}", MAIN_MANQUANTE % {"name": joueur.name})
        return None


MAX_IMPORT_BYTES = 2_000_000  # a 200-donne partie of 8 players is about 150 kB


class ImportForm(forms.Form):
    """A JSON file: ramiscore's export, or a bare game record as ``rami score`` reads it."""

    fichier = forms.FileField(label=_("Fichier JSON de la partie"))
    name = forms.CharField(
        label=_("Nom de la partie"),
        max_length=80,
        required=False,
        help_text=_("Laissé vide : le nom enregistré dans le fichier."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("fichier")
        if upload is None:
            return cleaned
        try:
            if upload.size > MAX_IMPORT_BYTES:
                raise RamiError("enregistrement_invalide", detail=N_("le fichier dépasse 2 Mo"))
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise RamiError(
                    "enregistrement_invalide", detail=N_("il n'est pas en UTF-8")
                ) from None
            try:
                data = json.loads(text)
            except json.JSONDecodeError as err:
                raise RamiError("enregistrement_invalide", detail=not_json(err)) from None
            records = uploaded_records(data)
        except RamiError as err:
            self.add_error(
                "fichier", forms.ValidationError(str(PartieError.from_rami(err)), code=err.code)
            )
            return cleaned
        if len(records) == 1 and cleaned.get("name"):
            records = [replace(records[0], name=cleaned["name"])]
        cleaned["records"] = records
        return cleaned

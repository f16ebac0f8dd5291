"""A new partie (its preset, players in seat order, money and rule options) and the money
options changed while it is played."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import ErrorDict
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.errors import translated
from games.models import Partie
from games.scoring import MAX_SEATS, PRESETS, RamiError, player_problems, stored_name
from games.scoring.config import RULE_OPTIONS
from games.scoring.dealer import check_first_seat
from games.validators import note_text, validate_note

MONEY_FIELDS = ("mise_initiale", "rachat_price", "point_value", "rachat_price_2", "rachat_price_3")
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
    seuil_inclusive = forms.TypedChoiceField(
        label=_("Le seuil atteint pile élimine"),
        choices=TRI_STATE,
        coerce=_tri_state,
        empty_value=None,
        required=False,
    )
    target_inclusive = forms.TypedChoiceField(
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
            *MONEY_FIELDS,
            "settlement",
            "currency",
            *RULE_OPTIONS,
            "first_dealer",
        ]
        widgets = {"currency": forms.Select(choices=[(c, c) for c in ("EUR", "CHF", "CAD")])}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = _("Par défaut, la date du jour.")
        self.fields["preset"].widget = forms.RadioSelect(choices=self.fields["preset"].choices[1:])
        self.fields["preset"].initial = "classique"
        localize_money(self, MONEY_FIELDS)
        for name in ("seuil", "max_rachats", "fixed_manches", "target"):
            self.fields[name].widget.attrs.update(inputmode="numeric")
        self.fields["rachat_price_2"].help_text = _("Vide : même prix que le précédent.")
        self.joueurs: list[str] = []
        # docs/rules.md "Le donneur": a seat; static/js/habitues.js writes the names in.
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("Premier donneur"),
            choices=[(seat, _("Joueur %(n)s") % {"n": seat}) for seat in range(1, MAX_SEATS + 1)],
            coerce=int,
            initial=1,
            required=False,
            empty_value=1,  # a form posted without it (a script, an old page): the first seat
        )

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
                    "seuil": str(p.seuil or "—"),
                    "seuil_inclusive": (
                        (yes if p.seuil_inclusive else no) if p.has_elimination else "—"
                    ),
                    # docs/rules.md §5: no rachat without a seuil to cross.
                    "max_rachats": str(p.rachats_offered) if p.has_elimination else "—",
                    "fixed_manches": str(p.fixed_manches or "—"),
                    "target": str(p.target or "—"),
                    "target_inclusive": (yes if p.target_inclusive else no) if p.target else "—",
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
        # docs/rules.md R28: a name is stored trimmed and NFC-normalised; an empty row of the
        # form is a seat left free, not a player without a name.
        self.joueurs = [stored_name(n) for n in self.data.getlist("joueurs") if n.strip()]
        preset = PRESETS.get(cleaned.get("preset") or "")
        if preset is not None:
            # docs/rules.md R28 and §8: the engine says who can sit at this table.
            for problem in player_problems(preset, self.joueurs):
                self.add_error(None, forms.ValidationError(translated(problem), code=problem.code))
        seat = cleaned.get("first_dealer")
        if seat and self.joueurs:
            # docs/rules.md "Le donneur": the engine says which seats may deal first.
            try:
                check_first_seat(seat, len(self.joueurs))
            except RamiError as problem:
                self.add_error("first_dealer", translated(problem))
        return cleaned


class MoneyForm(forms.ModelForm):
    """The stakes of a partie, changeable while it is played (what is owed is replayed)."""

    class Meta:
        model = Partie
        fields = ["mise_initiale", "rachat_price", "point_value", "settlement"]

    # The partie's revision the form was built on (games/services/locked.py ensure_fresh).
    revision = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        localize_money(self, ("mise_initiale", "rachat_price", "point_value"))
        self.fields["revision"].initial = str(self.instance.revision)

    @classmethod
    def refused(cls, partie: Partie, message: str) -> MoneyForm:
        """The form on the partie's current money, with why the posted one was refused
        (another phone changed it meanwhile): what the table now plays for, to check."""
        form = cls(instance=partie)
        form._errors, form.cleaned_data = ErrorDict(), {}
        form.add_error(None, message)
        return form


class NoteForm(forms.Form):
    """The partie's note, with the token of the note it was built on (``note_token``): named
    apart from the revision every other form of the page carries as ``revision``."""

    note = forms.CharField(
        label=_("Note de la partie"), required=False, strip=False, widget=forms.Textarea
    )
    note_token = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A NUL gets the note's own message (validate_note), as in a file, not Django's.
        self.fields["note"].validators = []

    def clean_note(self) -> str:
        note = note_text(self.cleaned_data["note"])
        validate_note(note)  # the same validator as the imports (the model's)
        return note

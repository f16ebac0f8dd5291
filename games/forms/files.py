"""Importing a file: a partie exported by ramiscore, a bare game record, or a backup."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.errors import translated
from games.files import MAX_UPLOAD_BYTES, read_upload
from games.scoring import RamiError
from games.validators import validate_partie_name


class ImportForm(forms.Form):
    fichier = forms.FileField(label=_("Fichier JSON de la partie"))
    name = forms.CharField(
        label=_("Nom de la partie"),
        max_length=80,
        required=False,
        validators=[validate_partie_name],  # the model's, as the new-partie form
        help_text=_("Laissé vide : le nom enregistré dans le fichier."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("fichier")
        if upload is None:
            return cleaned
        try:
            # The size first: a file too large is not read at all.
            raw = upload.read() if upload.size <= MAX_UPLOAD_BYTES else b""
            records = read_upload(raw, size=upload.size)
        except RamiError as err:
            self.add_error("fichier", forms.ValidationError(translated(err), code=err.code))
            return cleaned
        if len(records) == 1 and cleaned.get("name"):
            records = [replace(records[0], name=cleaned["name"])]
        cleaned["records"] = records
        return cleaned

"""What a donne or a decision did, in plain sentences: who left the partie and why, and how
the partie ended (issue "table-proof recording"). It only words what the replay derived."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.display.marque import Marque
from games.scoring import DonneState
from games.scoring.presets import END_REASONS


def end_reason(marque: Marque) -> str:
    """Why the partie ended, e.g. "tous les joueurs ont franchi le seuil"."""
    return _(END_REASONS.get(marque.summary.end_reason or "manual", END_REASONS["manual"]))


def end_sentence(marque: Marque) -> str:
    """ "Partie terminée : Anne gagne (tous les joueurs ont franchi le seuil)." """
    if not marque.over:
        return ""
    names = marque.winners
    return ngettext(
        "Partie terminée : %(names)s gagne (%(reason)s).",
        "Partie terminée : %(names)s partagent la victoire (%(reason)s).",
        len(names),
    ) % {"names": _(" et ").join(names), "reason": end_reason(marque)}


def left_sentence(state: DonneState, name: str) -> str:
    """Why ``name`` left the partie at this donne ("" if he did not)."""
    reason = state.eliminated.get(name)
    if reason == "definitive_exclusion":
        # docs/rules.md R8: past the last rachat there is no choice.
        return _("%(name)s franchit le seuil sans rachat possible : exclusion définitive.") % {
            "name": name
        }
    if reason == "declined":
        return _("%(name)s abandonne et quitte la partie, à %(total)s points.") % {
            "name": name,
            "total": state.totals.get(name, 0),
        }
    return ""


def donne_sentences(marque: Marque, number: int) -> list[str]:
    """What donne ``number`` did beyond its points: exclusions, then the end of the partie."""
    state = next((s for s in marque.states if s.number == number), None)
    if state is None:
        return []
    lines = [left_sentence(state, name) for name in state.eliminated]
    if state.partie_over:
        lines.append(end_sentence(marque))
    return [line for line in lines if line]

"""What a donne or a decision did, in plain sentences: who left the partie and why, and how
the partie ended (issue "table-proof recording"). It only words what the replay derived."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.centimes import from_centimes
from games.display.marque import Marque
from games.display.numbers import format_money, number, ordinal
from games.scoring import DonneState, gave_up
from games.scoring.presets import END_REASONS


def end_reason(marque: Marque) -> str:
    """Why the partie ended, e.g. "tous les joueurs ont franchi le seuil"."""
    return _(END_REASONS.get(marque.summary.end_reason or "manual", END_REASONS["manual"]))


def end_sentence(marque: Marque) -> str:
    """ "Partie terminée : Anne gagne (tous les joueurs ont franchi le seuil)." A partie the
    table ended says so once: "Partie terminée par la table : Anne gagne." """
    if not marque.over:
        return ""
    names = marque.winners
    values = {"names": _(" et ").join(names), "reason": end_reason(marque)}
    if (marque.summary.end_reason or "manual") == "manual":
        return (
            ngettext(
                "Partie terminée par la table : %(names)s gagne.",
                "Partie terminée par la table : %(names)s partagent la victoire.",
                len(names),
            )
            % values
        )
    return (
        ngettext(
            "Partie terminée : %(names)s gagne (%(reason)s).",
            "Partie terminée : %(names)s partagent la victoire (%(reason)s).",
            len(names),
        )
        % values
    )


def rachat_sentence(state: DonneState, name: str, currency: str = "EUR") -> str:
    """ "Papi se rachète (1er rachat, 2,00 €) et repart à 85." ("" if he did not buy back at
    this donne): which rachat, its price into the cagnotte and the restart, docs/rules.md R6."""
    info = state.rachats.get(name)
    if info is None:
        return ""
    return _("%(name)s se rachète (%(nth)s rachat, %(price)s) et repart à %(restart)s.") % {
        "name": name,
        "nth": ordinal(info.number),
        "price": format_money(from_centimes(info.price), currency),
        "restart": number(info.restart),
    }


def left_sentence(state: DonneState, name: str) -> str:
    """Why ``name`` left the partie at this donne ("" if he did not)."""
    reason = state.eliminated.get(name)
    if reason == "definitive_exclusion":
        # docs/rules.md R8: past the last rachat there is no choice.
        return _("%(name)s franchit le seuil sans rachat possible : exclusion définitive.") % {
            "name": name
        }
    if gave_up(reason or ""):
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

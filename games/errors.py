"""Refusals, in the interface's language. One path: the engine raises ``RamiError`` and a
service raises ``PartieError`` (a ``RamiError`` with the app's own codes); a view or a form
turns either into a sentence with ``translated``, next to the field it concerns."""

from __future__ import annotations

from django.utils.translation import get_language, gettext

from games.scoring import RamiError, card_letter
from games.scoring.errors import DONNE_PREFIX, N_, Detail
from games.scoring.errors import MESSAGES as ENGINE_MESSAGES

MESSAGES: dict[str, str] = {
    "decision_en_attente": N_(
        "Décidez d'abord des rachats en attente avant de noter une autre donne."
    ),
    "partie_terminee": N_(
        "La partie est terminée : rouvrez-la ou modifiez une donne pour continuer."
    ),
    "etat_perime": N_(
        "La partie a changé ailleurs (un autre téléphone, un autre onglet) pendant que vous "
        "saisissiez : voici la marque à jour. Vérifiez, puis validez à nouveau si c'est "
        "toujours juste."
    ),
    # A donne recorded offline and sent later (docs/decisions.md "Offline"): it follows the
    # donne it was typed after, or it is shown back to the scorekeeper.
    "donne_intercalee": N_(
        "Une autre donne a été notée entre-temps (sur un autre téléphone) : vérifiez cette "
        "donne avant de l'envoyer."
    ),
    "joueurs_changes": N_(
        "Les joueurs en course ont changé depuis que cette donne a été saisie : vérifiez-la "
        "avant de l'envoyer."
    ),
    # The key of a deleted donne stays used: a queue that sends it again records nothing.
    "donne_supprimee": N_("Cette donne a été supprimée."),
    "pas_de_decision": N_("%(player)s n'a pas de rachat à décider."),
    "pas_terminee": N_("La partie n'a pas été terminée à la main : il n'y a rien à rouvrir."),
    "deja_terminee": N_("La partie est déjà terminée."),
    "pas_de_mise": N_("Cette partie se joue sans mise : il n'y a rien à payer."),
    "rachat_refuse": N_("%(player)s a refusé ce rachat : il n'y a rien à payer."),
    "import_invalide": N_("Fichier de partie refusé : %(detail)s"),
    # A backup holds many parties: say which one was refused, and why.
    "partie_refusee": N_("Partie %(n)s « %(name)s » : %(cause)s"),
    # The limits of a file and of an account (README "Limits"): which one, and what to do.
    "fichier_trop_gros": N_(
        "Ce fichier dépasse %(max)s Mo, le plus qu'on puisse importer à la fois : découpez "
        "la sauvegarde en plusieurs fichiers."
    ),
    "trop_de_parties": N_(
        "Ce fichier contient %(count)s parties ; importez-en au plus %(max)s à la fois "
        "(découpez la sauvegarde)."
    ),
    "trop_de_donnes": N_(
        "Ce fichier contient %(count)s donnes en tout ; importez-en au plus %(max)s à la fois "
        "(découpez la sauvegarde)."
    ),
    "compte_plein": N_(
        "Ce compte garde déjà %(count)s parties, et un compte en garde au plus %(max)s : pour "
        "en créer ou en importer d'autres, ouvrez un autre compte."
    ),
    "compte_presque_plein": N_(
        "Ce fichier ajouterait %(adding)s parties à ce compte, qui en garde déjà %(count)s ; "
        "un compte en garde au plus %(max)s : importez-en au plus %(room)s (découpez la "
        "sauvegarde) ou ouvrez un autre compte."
    ),
    # The regular table: the habitués of an account, who deals, the note.
    "habitue_existe": N_(
        "%(player)s est déjà un habitué de ce compte : pour n'en faire qu'un, fusionnez-les."
    ),
    "habitue_nom_pris": N_(
        "%(partie)s : un autre joueur s'appelle déjà %(player)s à cette table ; choisissez "
        "un autre nom."
    ),
    "habitues_meme_partie": N_(
        "%(player)s et %(other)s jouent ensemble dans « %(partie)s » : ce sont deux "
        "personnes, on ne peut pas les fusionner."
    ),
    "habitue_disparu": N_(
        "Cet habitué vient d'être renommé ou fusionné ailleurs : rechargez la page."
    ),
    "habitue_lui_meme": N_("Choisissez un autre habitué que %(player)s pour la fusion."),
    "donneur_invalide": N_("Le donneur doit être un joueur encore en course à cette donne."),
    "note_illisible": N_(
        "La note contient un caractère de contrôle (invisible) : retirez-le, puis enregistrez."
    ),
    "note_trop_longue": N_("La note tient en %(max)s caractères au plus."),
    # The engine's own refusal (games/scoring/dealer.py), raised by the services too.
    "premier_donneur_invalide": ENGINE_MESSAGES["premier_donneur_invalide"],
}
NOM_IMPORT = N_("Partie importée")


class PartieError(RamiError):
    """A write refused by the app rather than by the rules (see ``MESSAGES``)."""

    messages = MESSAGES


def _translated_value(value: object) -> object:
    # The engine's details are N_ messages too, or a Detail built from one.
    if isinstance(value, Detail):
        return gettext(value.template) % value.values
    if isinstance(value, str):
        return gettext(value)
    return value


def translated(err: RamiError, *, with_donne: bool = True) -> str:
    """The refusal in the interface's language; ``with_donne=False`` leaves out the
    "Donne 7 :" prefix, for a message shown inside the form of that very donne."""
    params = dict(err.params)
    if "card" in params:
        # The engine writes K Q J; a French table reads R D V (docs/rules.md §1).
        params["card"] = card_letter(str(params["card"]), get_language() or "fr")
    for key in ("detail", "reason", "field"):
        if key in params:
            params[key] = _translated_value(params[key])
    if isinstance(params.get("cause"), RamiError):
        params["cause"] = translated(params["cause"])
    if err.player is None:
        params["player"] = gettext(params["player"])  # "ce joueur"
    text = gettext(err.template) % params
    if with_donne and err.donne is not None:
        return gettext(DONNE_PREFIX) % {"donne": err.donne, "message": text}
    return text

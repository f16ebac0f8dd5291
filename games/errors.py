"""The errors a write can be refused with, in the interface's language."""

from __future__ import annotations

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from games.scoring import RamiError
from games.scoring.errors import DONNE_PREFIX, Detail

DECISION_EN_ATTENTE = _("Décidez d'abord des rachats en attente avant de noter une autre donne.")
PARTIE_FINIE = _("La partie est terminée : rouvrez-la ou modifiez une donne pour continuer.")
ETAT_PERIME = _(
    "La partie a changé ailleurs (un autre téléphone, un autre onglet) pendant que vous "
    "saisissiez : voici la marque à jour. Vérifiez, puis validez à nouveau si c'est toujours "
    "juste."
)
PAS_DE_DECISION = _("%(player)s n'a pas de rachat à décider.")
PAS_FINIE = _("La partie n'a pas été terminée à la main : il n'y a rien à rouvrir.")
DEJA_FINIE = _("La partie est déjà terminée.")
PAS_DE_MISE = _("Cette partie se joue sans mise : il n'y a rien à payer.")
RACHAT_REFUSE = _("%(player)s a refusé ce rachat : il n'y a rien à payer.")
JOUEUR_EN_DOUBLE = _("Le joueur %(player)s apparaît deux fois à la table.")
IMPORT_INVALIDE = _("Fichier de partie refusé : %(detail)s")
PARTIE_N = _("Partie %(n)s « %(name)s » :")
NOM_IMPORT = _("Partie importée")


FRENCH_RANKS = {"K": "R", "Q": "D", "J": "V"}


class PartieError(Exception):
    """A write refused with a French message; ``player`` names the field it belongs to."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "",
        player: str | None = None,
        donne: int | None = None,
        detail: str = "",
    ) -> None:
        super().__init__(message)
        self.message = str(message)
        self.code = code
        self.player = player
        self.donne = donne
        self.detail = detail or self.message  # without the "Donne 7 :" prefix

    @classmethod
    def from_rami(cls, err: RamiError) -> PartieError:
        params = dict(err.params)
        if "card" in params and (get_language() or "fr").startswith("fr"):
            # The engine writes K Q J; a French table reads R D V (RULES.md §1).
            params["card"] = FRENCH_RANKS.get(params["card"], params["card"])
        for key in ("detail", "reason"):
            # The engine's details are N_ messages too (or a Detail built from one).
            if isinstance(params.get(key), Detail):
                params[key] = gettext(params[key].template) % params[key].values
            elif isinstance(params.get(key), str):
                params[key] = gettext(params[key])
        if err.player is None:
            params["player"] = gettext(params["player"])  # "ce joueur"
        detail = gettext(err.template) % params
        text = detail
        if err.donne is not None:
            text = gettext(DONNE_PREFIX) % {"donne": err.donne, "message": detail}
        return cls(text, code=err.code, player=err.player, donne=err.donne, detail=detail)

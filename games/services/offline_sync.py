"""The decisions the phone took offline, sent from its queue (static/js/queue.js) in order
with its donnes: a crosser's rachat (docs/rules.md R5) and the end of the partie by hand
(R21). Each goes through the same service as online (rachat_decide, partie_close); what this
module adds is that a resend records once.

A queued decision's key is what it decides: the partie, the donne of the crossing and the
crosser (a Rachat is unique on donne and joueur), or the partie's end. A decision sent twice
(the answer lost on the way) finds itself already recorded and is answered as sent; a
decision that another phone took otherwise meanwhile is refused with the server's words.
"""

from __future__ import annotations

from django.db import transaction

from games.errors import PartieError
from games.models import Joueur, Partie, Rachat
from games.services.donnes import rachat_decide
from games.services.locked import locked
from games.services.parties import partie_close


@transaction.atomic
def rachat_decide_queued(
    *, partie: Partie, joueur: Joueur, accepted: bool, donne_number: int
) -> Rachat:
    """The crosser's answer at donne ``donne_number``, as decided on the phone."""
    partie, summary = locked(partie)
    existing = (
        Rachat.objects.filter(donne__partie=partie, donne__number=donne_number, joueur=joueur)
        .select_related("donne", "joueur")
        .first()
    )
    if existing is not None:
        if existing.accepted == accepted:
            return existing  # sent before, its answer lost: recorded once
        raise PartieError("etat_perime")  # another phone answered otherwise
    pending = next((p for p in summary.pending if p.player == joueur.name), None)
    if pending is None or pending.donne != donne_number:
        raise PartieError("pas_de_decision", player=joueur.name)
    return rachat_decide(partie=partie, joueur=joueur, accepted=accepted)


@transaction.atomic
def partie_close_queued(*, partie: Partie) -> Partie:
    """ "Terminer la partie" tapped offline: a partie already over (sent before, or ended by
    the engine meanwhile) is answered as closed."""
    partie, summary = locked(partie)
    if summary.over:
        return partie
    return partie_close(partie=partie)

"""The decisions the phone took offline, sent from its queue (static/js/queue.js) in order
with its donnes: a crosser's rachat (docs/rules.md R5) and the end of the partie by hand
(R21). Each goes through the same service as online (rachat_decide, partie_close); what this
module adds is that a resend records once.

"Rejouer avec les mêmes joueurs" tapped offline starts the next partie on the phone under an
id it made (a UUID): sent at reconnection, the server creates it as the rematch form would
(same preset, options and players, the first dealer one seat on), once for that id.

A queued decision's key is what it decides: the partie, the donne of the crossing and the
crosser (a Rachat is unique on donne and joueur), or the partie's end. A decision sent twice
(the answer lost on the way) finds itself already recorded and is answered as sent; a
decision that another phone took otherwise meanwhile is refused with the server's words.
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from games.errors import PartieError
from games.forms.partie import MONEY_FIELDS
from games.models import Joueur, Partie, Rachat
from games.scoring.config import RULE_OPTIONS
from games.scoring.dealer import rematch_seat
from games.services.donnes import rachat_decide
from games.services.locked import locked
from games.services.parties import partie_close, partie_create


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
    return rachat_decide(partie=partie, joueur=joueur, accepted=accepted).rachat


@transaction.atomic
def partie_close_queued(*, partie: Partie) -> Partie:
    """ "Terminer la partie" tapped offline: a partie already over (sent before, or ended by
    the engine meanwhile) is answered as closed."""
    partie, summary = locked(partie)
    if summary.over:
        return partie
    return partie_close(partie=partie)


def _rematch_options(source: Partie, seats: int) -> dict:
    """What "Rejouer" copies (games/views/parties.py ``_rematch``): the preset's options and
    the money, the first dealer one seat on (docs/rules.md "Le donneur")."""
    fields = (*MONEY_FIELDS, "settlement", "currency", *RULE_OPTIONS)
    options = {name: getattr(source, name) for name in fields}
    options["first_dealer"] = rematch_seat(source.first_dealer, seats)
    return options


def partie_rematch_queued(*, source: Partie, client_id: uuid.UUID) -> tuple[Partie, dict[int, int]]:
    """The partie the phone started offline after ``source``, with the same players; and each
    of source's players' key → the same player's key in the new partie (the phone's queued
    donnes name players by their key). Sent twice, the partie made the first time."""
    partie = Partie.objects.filter(client_id=client_id).first()
    if partie is None:
        joueurs = [j.name for j in source.joueurs.all()]
        # The name an online rematch gets when it is left blank (PartieForm.clean_name).
        name = gettext("Partie du %(date)s") % {"date": date_format(timezone.localdate(), "d/m/Y")}
        try:
            with transaction.atomic():
                partie = partie_create(
                    owner=source.owner,
                    name=name,
                    preset=source.preset,
                    joueurs=joueurs,
                    **_rematch_options(source, len(joueurs)),
                )
                Partie.objects.filter(pk=partie.pk).update(client_id=client_id)
        except IntegrityError:
            # The same id sent at once by the page and the worker: the other one made it.
            partie = Partie.objects.get(client_id=client_id)
    if partie.owner_id != source.owner_id:
        raise PartieError("etat_perime")
    new = {j.name: j.pk for j in partie.joueurs.all()}
    return partie, {j.pk: new[j.name] for j in source.joueurs.all() if j.name in new}

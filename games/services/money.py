"""Money writes: payment ticks and the stakes of a partie (docs/rules.md §2 "Money", R11)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction

from games import errors
from games.centimes import from_centimes
from games.errors import PartieError
from games.models import Joueur, Partie, Rachat
from games.services.locked import (
    Repriced,
    locked,
    rachat_prices,
    replayed,
)

Hands = dict[Joueur, dict[str, Any]]


@transaction.atomic
def mise_mark_paid(*, joueur: Joueur, paid: bool) -> Joueur:
    """The scorekeeper ticks a stake when its money is on the table."""
    partie = Partie.objects.select_for_update().get(pk=joueur.partie_id)
    if paid and not partie.mise_initiale:
        raise PartieError(errors.PAS_DE_MISE, code="pas_de_mise")
    joueur = Joueur.objects.get(pk=joueur.pk, partie=partie)
    joueur.mise_payee = paid
    joueur.save(update_fields=["mise_payee"])
    partie.save(update_fields=["updated_at"])
    return joueur


@transaction.atomic
def rachat_mark_paid(*, rachat: Rachat, paid: bool) -> Rachat:
    """The scorekeeper ticks a rachat when its price is on the table."""
    partie = Partie.objects.select_for_update().get(pk=rachat.donne.partie_id)
    rachat = Rachat.objects.select_related("joueur", "donne").get(pk=rachat.pk)
    if paid and not rachat.accepted:
        # Declining costs nothing (RULES.md §2 step 9): there is no price to pay.
        raise PartieError(
            errors.RACHAT_REFUSE % {"player": rachat.joueur.name}, code="rachat_refuse"
        )
    rachat.paid = paid
    rachat.save(update_fields=["paid"])
    partie.save(update_fields=["updated_at"])
    return rachat


@transaction.atomic
def partie_update_money(
    *,
    partie: Partie,
    mise_initiale: Decimal,
    prix_rachat: Decimal,
    valeur_point: Decimal,
    reglement: str,
) -> list[Repriced]:
    """Change the stakes of a partie, even in progress. Nothing owed is stored: the next
    replay recomputes it. Returns the payments already marked whose amount changed."""
    data = locked(partie)
    before = replayed(data, data.inputs(), ended=data.partie.ended)
    old_mise = data.partie.mise_initiale
    stored = data.partie
    stored.mise_initiale, stored.prix_rachat = mise_initiale, prix_rachat
    stored.valeur_point, stored.reglement = valeur_point, reglement
    stored.full_clean()
    after = replayed(data, data.inputs(), ended=stored.ended)  # the engine checks the options
    stored.save(
        update_fields=["mise_initiale", "prix_rachat", "valeur_point", "reglement", "updated_at"]
    )
    repriced = [
        Repriced(j.name, None, old_mise, stored.mise_initiale)
        for j in data.joueurs
        if j.mise_payee and old_mise != stored.mise_initiale
    ]
    old_prices, new_prices = rachat_prices(data, before), rachat_prices(data, after)
    for donne in data.donnes:
        for rachat in data.rachats_of(donne):
            key = (donne.pk, rachat.joueur.name)
            if rachat.paid and old_prices.get(key, 0) != new_prices.get(key, 0):
                repriced.append(
                    Repriced(
                        rachat.joueur.name,
                        donne.number,
                        from_centimes(old_prices.get(key, 0)),
                        from_centimes(new_prices.get(key, 0)),
                    )
                )
    return repriced

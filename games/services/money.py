"""Money writes: payment ticks and the stakes of a partie (docs/rules.md §2 "Money", R11)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from games import replays
from games.centimes import from_centimes
from games.errors import PartieError
from games.models import Joueur, Partie, Rachat
from games.options import config_of
from games.selectors import states_of
from games.services.locked import locked, rachat_prices


@dataclass(frozen=True)
class Repriced:
    """A payment ticked before a price change: it was ``old``, it is now ``new``."""

    name: str
    donne: int | None  # None for the stake
    old: Decimal
    new: Decimal


@transaction.atomic
def mise_mark_paid(*, joueur: Joueur, paid: bool) -> Joueur:
    """The scorekeeper ticks a stake when its money is on the table."""
    partie = Partie.objects.select_for_update().get(pk=joueur.partie_id)
    if paid and not partie.mise_initiale:
        raise PartieError("pas_de_mise")
    joueur = Joueur.objects.get(pk=joueur.pk, partie=partie)
    joueur.mise_paid = paid
    joueur.save(update_fields=["mise_paid"])
    partie.save(update_fields=["updated_at"])
    return joueur


@transaction.atomic
def rachat_mark_paid(*, rachat: Rachat, paid: bool) -> Rachat:
    """The scorekeeper ticks a rachat when its price is on the table."""
    partie = Partie.objects.select_for_update().get(pk=rachat.donne.partie_id)
    rachat = Rachat.objects.select_related("joueur", "donne").get(pk=rachat.pk)
    if paid and not rachat.accepted:
        # Declining costs nothing (docs/rules.md §2 step 9): there is no price to pay.
        raise PartieError("rachat_refuse", player=rachat.joueur.name)
    rachat.paid = paid
    rachat.save(update_fields=["paid"])
    partie.save(update_fields=["updated_at"])
    return rachat


MONEY_FIELDS = ("mise_initiale", "rachat_price", "point_value", "settlement")


@transaction.atomic
def partie_update_money(
    *,
    partie: Partie,
    mise_initiale: Decimal,
    rachat_price: Decimal,
    point_value: Decimal,
    settlement: str,
    revision: str | None = None,
) -> list[Repriced]:
    """Change the stakes of a partie, even in progress. Nothing owed is stored: the next
    replay recomputes it. Returns the payments already ticked whose amount changed.
    ``revision``: the revision the form was built on; a price changed meanwhile on another phone
    (or a donne) refuses it, rather than putting the old price back."""
    partie, _summary = locked(partie, revision)
    old_mise = partie.mise_initiale
    before = rachat_prices(states_of(partie))
    partie.mise_initiale, partie.rachat_price = mise_initiale, rachat_price
    partie.point_value, partie.settlement = point_value, settlement
    partie.full_clean()
    config_of(partie)  # the engine checks the options
    partie.save(update_fields=[*MONEY_FIELDS, "updated_at"])
    # Prices change the pot and the money of every rachat: the whole partie is replayed.
    data, _result, _summary = replays.rebuild(partie)
    after = rachat_prices(states_of(partie))
    repriced = [
        Repriced(j.name, None, old_mise, partie.mise_initiale)
        for j in data.joueurs
        if j.mise_paid and old_mise != partie.mise_initiale
    ]
    for donne in data.donnes:
        for rachat in data.rachats_of(donne):
            key = (donne.number, rachat.joueur.name)
            if rachat.paid and before.get(key, 0) != after.get(key, 0):
                repriced.append(
                    Repriced(
                        rachat.joueur.name,
                        donne.number,
                        from_centimes(before.get(key, 0)),
                        from_centimes(after.get(key, 0)),
                    )
                )
    return repriced

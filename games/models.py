"""What happened at the table. Totals, eliminations and rankings are never stored: every page
replays the donnes through games.scoring, so editing an old donne is always safe.

The table options have the names of the engine's ``Config`` (games/scoring/config.py)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from games.scoring import MAX_SEATS, PRESETS
from games.validators import MAX_NOTE, validate_joueur_name, validate_note, validate_partie_name

# The labels are the engine's N_ messages: translated when shown.
PRESET_CHOICES = [(key, _(preset.label)) for key, preset in PRESETS.items()]
MONEY = {"max_digits": 9, "decimal_places": 2, "validators": [MinValueValidator(Decimal("0"))]}


class Partie(models.Model):
    class Settlement(models.TextChoices):
        GAGNANT = "gagnant", _("Les perdants paient le gagnant")
        CROISE = "croise", _("Chaque paire règle sa différence")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="parties"
    )
    name = models.CharField(_("nom"), max_length=80, validators=[validate_partie_name])
    preset = models.CharField(_("variante"), max_length=16, choices=PRESET_CHOICES)
    currency = models.CharField(_("devise"), max_length=3, default="EUR")
    mise_initiale = models.DecimalField(_("mise initiale"), default=Decimal("0"), **MONEY)
    rachat_price = models.DecimalField(_("prix du rachat"), default=Decimal("0"), **MONEY)
    # docs/rules.md R11: a table may escalate the 2nd and 3rd rachat; empty means the same price.
    rachat_price_2 = models.DecimalField(_("prix du 2e rachat"), null=True, blank=True, **MONEY)
    rachat_price_3 = models.DecimalField(_("prix du 3e rachat"), null=True, blank=True, **MONEY)
    point_value = models.DecimalField(_("valeur du point"), default=Decimal("0"), **MONEY)
    settlement = models.CharField(
        _("règlement des points"), max_length=8, choices=Settlement, default=Settlement.GAGNANT
    )
    # Rule overrides (docs/rules.md §8 "table options"); empty means the preset's default.
    seuil = models.PositiveIntegerField(_("seuil"), null=True, blank=True)
    seuil_inclusive = models.BooleanField(_("le seuil atteint élimine"), null=True, blank=True)
    max_rachats = models.PositiveSmallIntegerField(
        _("rachats maximum"), null=True, blank=True, validators=[MaxValueValidator(3)]
    )
    fixed_manches = models.PositiveSmallIntegerField(_("nombre de manches"), null=True, blank=True)
    target = models.PositiveIntegerField(_("objectif"), null=True, blank=True)
    target_inclusive = models.BooleanField(_("l'objectif atteint termine"), null=True, blank=True)
    # docs/rules.md R21: the table may end the partie by hand.
    ended = models.BooleanField(_("terminée à la main"), default=False)
    # docs/rules.md "Le donneur": the seat (1 = the first) that deals the first donne; §8: no
    # preset seats more than MAX_SEATS.
    first_dealer = models.PositiveSmallIntegerField(
        _("premier donneur"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SEATS)],
    )
    # Free text: where, who brought the cake, a dispute settled. Not read by the replay.
    # The same validator for the note form and every import (games/validators.py).
    note = models.TextField(_("note"), max_length=MAX_NOTE, blank=True, validators=[validate_note])
    # An unguessable token (secrets.token_urlsafe) for the read-only live view
    # /suivre/<token>/; empty means the partie is not shared.
    share_token = models.CharField(
        _("jeton de partage"), max_length=64, unique=True, null=True, blank=True, editable=False
    )
    # Moved on by the database itself (triggers of migration 0006) whenever something the
    # replay reads changes: a donne, a hand, a rachat decision, a player, an option, the end.
    # A stored replay is tagged with the revision it was derived from (games/replays.py).
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    # A partie started on the phone offline ("Rejouer avec les mêmes joueurs", queued): the
    # id the phone made for it, so that its creation sent twice makes one partie
    # (games/services/offline_sync.py). Empty for a partie made online.
    client_id = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("partie")
        verbose_name_plural = _("parties")
        constraints = [
            # A partial unique index: SQLite adds it without rebuilding the table (which
            # would drop the revision triggers of migration 0006).
            models.UniqueConstraint(
                fields=["client_id"],
                condition=models.Q(client_id__isnull=False),
                name="partie_client_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Habitue(models.Model):
    """A regular player of an account, the same person across its parties. ``key`` is the
    name as the Comptes page matches it (case, accents and spaces ignored:
    games.scoring.players.person_key); ``name`` is how it is written at the table."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="habitues"
    )
    name = models.CharField(_("nom"), max_length=30, validators=[validate_joueur_name])
    key = models.CharField(max_length=120, editable=False)
    # His colour and marker on every page (games/display/colours.py), chosen once, when he
    # first sits at a table: one not taken there (docs/decisions.md "Player colours").
    colour = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]
        verbose_name = _("habitué")
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="habitue_key_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Joueur(models.Model):
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="joueurs")
    name = models.CharField(_("nom"), max_length=30, validators=[validate_joueur_name])
    seat = models.PositiveSmallIntegerField(_("place"))
    # The regular player this seat is (set by the services when the partie is created).
    habitue = models.ForeignKey(
        Habitue, on_delete=models.SET_NULL, null=True, blank=True, related_name="joueurs"
    )
    # docs/rules.md R11: the stake goes into the cagnotte; ticked when the money is on the table.
    mise_paid = models.BooleanField(_("mise payée"), default=False)

    class Meta:
        ordering = ["seat"]
        verbose_name = _("joueur")
        constraints = [
            models.UniqueConstraint(fields=["partie", "seat"], name="joueur_seat_unique"),
            models.UniqueConstraint(Lower("name"), "partie", name="joueur_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Donne(models.Model):
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="donnes")
    number = models.PositiveIntegerField(_("numéro"))
    # Empty only for a donne without winner (talon épuisé, rami52_7).
    winner = models.ForeignKey(
        Joueur, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    win = models.CharField(_("type de gain"), max_length=20)
    # docs/rules.md "Le donneur": who dealt this donne; empty for donnes recorded before the
    # app asked (and never read by the replay).
    dealer = models.ForeignKey(
        Joueur, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The form's idempotency key: a double tap or a resend records the donne once.
    idempotency_key = models.UUIDField(
        _("clé du formulaire"), null=True, blank=True, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("donne")
        constraints = [
            models.UniqueConstraint(fields=["partie", "number"], name="donne_number_unique"),
            models.UniqueConstraint(
                fields=["partie", "idempotency_key"], name="donne_idempotency_key_unique"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="donne_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.partie} — donne {self.number}"


class DeletedDonneKey(models.Model):
    """The idempotency key of a deleted donne, kept: the phone that recorded it may send it
    again (its offline queue retries what got no answer), and that resend must be refused,
    not recorded as a new donne (docs/decisions.md "Offline")."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="deleted_keys")
    idempotency_key = models.UUIDField(_("clé du formulaire"), editable=False)
    deleted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("clé de donne supprimée")
        constraints = [
            models.UniqueConstraint(
                fields=["partie", "idempotency_key"], name="deleted_donne_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.partie} — {self.idempotency_key}"


class Hand(models.Model):
    """The hand a player kept at the end of a donne: cards, or a points total, plus jokers."""

    donne = models.ForeignKey(Donne, on_delete=models.CASCADE, related_name="hands")
    joueur = models.ForeignKey(Joueur, on_delete=models.CASCADE, related_name="+")
    cards = models.CharField(_("cartes"), max_length=200, blank=True)
    points = models.PositiveIntegerField(_("points"), null=True, blank=True)
    jokers = models.PositiveSmallIntegerField(_("jokers"), default=0)

    class Meta:
        verbose_name = _("main")
        constraints = [
            models.UniqueConstraint(fields=["donne", "joueur"], name="hand_unique"),
            models.CheckConstraint(
                condition=models.Q(points__isnull=True) | models.Q(cards=""),
                name="hand_points_or_cards",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.joueur}: {self.cards or self.points} + {self.jokers} joker(s)"


class Rachat(models.Model):
    """A crosser's decision after a donne (docs/rules.md R5): buy back, or decline and leave."""

    donne = models.ForeignKey(Donne, on_delete=models.CASCADE, related_name="rachats")
    joueur = models.ForeignKey(Joueur, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField(_("se rachète"))
    paid = models.BooleanField(_("payé"), default=False)

    class Meta:
        verbose_name = _("rachat")
        constraints = [
            models.UniqueConstraint(fields=["donne", "joueur"], name="rachat_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.joueur} — donne {self.donne.number}"


class PartieResult(models.Model):
    """What the engine derived from a partie, stored so that a page need not replay it: the
    summary (final ranking and money, end, pending decisions, the state fingerprint) and, in
    DonneResult, the state after each donne. Never the source of truth: tagged with the
    engine's version and the partie's revision, rebuilt when either moved."""

    partie = models.OneToOneField(Partie, on_delete=models.CASCADE, related_name="result")
    engine = models.CharField(max_length=20)
    revision = models.PositiveBigIntegerField()
    # JSON as text, not PostgreSQL's jsonb, which sorts the keys: the seat order of what the
    # engine derived is part of it (the fewest transfers are found in that order).
    summary = models.TextField()

    def __str__(self) -> str:
        return f"{self.partie} — résultat r{self.revision}"


class DonneResult(models.Model):
    """The marque after donne ``number``, as the engine gave it (DonneState.to_storage)."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="donne_results")
    number = models.PositiveIntegerField()
    state = models.TextField()  # JSON as text, in seat order (see PartieResult.summary)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["partie", "number"], name="donne_result_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.partie} — état après la donne {self.number}"


class TokenBucket(models.Model):
    """A token bucket of the login, sign-up and cost limits (games/throttle.py)."""

    key = models.CharField(max_length=100, unique=True)
    tokens = models.FloatField()
    # Seconds since the epoch (time.time()) of the last take: the database computes with it.
    stamp = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.tokens:.2f}"


class UsernameKey(models.Model):
    """The key of an account's username (NFKC, then case-folded: games/usernames.py), unique:
    one account per key, whatever the spelling. Kept by a post_save signal of the user model
    (games/apps.py), so that every path that creates or renames an account keeps it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_key",
    )
    # Text: NFKC and case folding may lengthen a name (ß gives ss).
    key = models.TextField(unique=True)
    # Shared its key with an older account before keys were unique (migration
    # 0012_username_keys): its key is followed by " #<id>" (games/usernames.py flagged_key).
    flagged = models.BooleanField(default=False)

    def __str__(self) -> str:
        return self.key


class LoginLock(models.Model):
    """A counter of recent failed password checks and the lock they set (games/lockout.py)."""

    key = models.CharField(max_length=100, unique=True)
    # Failures at ``stamp``; one is forgotten every ``forget`` seconds of the counter's kind.
    failures = models.FloatField()
    # Seconds since the epoch (games.lockout.clock) of the last counted attempt, and of the end
    # of the lock it set (0: none).
    stamp = models.FloatField(db_index=True)
    locked_until = models.FloatField(default=0)

    def __str__(self) -> str:
        return f"{self.key}: {self.failures:.2f}"


class KnownAddress(models.Model):
    """An address an account logged in from (games/login_limits.py): a browser there that the site
    does not know yet is not counted by the account's lock of every address."""

    # An HMAC of the account's id and the address (games.login_limits.address_key): says neither.
    key = models.CharField(max_length=64, unique=True)
    seen = models.FloatField(db_index=True)  # seconds since the epoch (games.lockout.clock)

    def __str__(self) -> str:
        return self.key

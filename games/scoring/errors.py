"""The one exception of the scoring engine, with stable codes and French messages.

Messages are module-level templates marked with ``N_`` (a no-op, like ``gettext_noop``) so
``makemessages --keyword=N_`` finds them while this package never imports Django. The web
interface translates ``err.template`` and formats it with ``err.params``.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:  # noqa: N802 - gettext_noop style marker
    return message


class Detail(str):
    """A detail written from an ``N_`` template: it reads as the French text, and keeps the
    template and its values so that the interface can translate it (``games.errors``)."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Detail:
        self = super().__new__(cls, template % values)
        self.template = template
        self.values = values
        return self


DONNE_PREFIX = N_("Donne %(donne)s : %(message)s")


def not_json(err: Any) -> Detail:
    """The detail for a ``json.JSONDecodeError``: where the file stops being JSON."""
    return Detail(
        N_("ce n'est pas du JSON (ligne %(line)s, colonne %(column)s)"),
        line=err.lineno,
        column=err.colno,
    )


# A hand checked on its own has no player yet: "La main de ce joueur …".
CE_JOUEUR = N_("ce joueur")

MESSAGES: dict[str, str] = {
    # Configuration and players.
    "preset_inconnu": N_("Le jeu « %(preset)s » n'existe pas."),
    "option_invalide": N_("Option « %(option)s » invalide : %(detail)s"),
    "nombre_de_joueurs": N_(
        "Ce jeu se joue de %(min)s à %(max)s joueurs ; la table en compte %(count)s."
    ),
    "joueurs_en_double": N_("Le joueur %(player)s apparaît deux fois à la table."),
    # docs/rules.md R28: two names that cannot be told apart at a glance (same skeleton).
    "joueurs_semblables": N_(
        "« %(player)s » et « %(other)s » se ressemblent trop pour être deux joueurs de la "
        "même table (%(char)s) : écrivez-les autrement."
    ),
    # docs/rules.md R28: one code for every refused name; ``detail`` says what is wrong.
    "nom_invalide": N_("Nom de joueur refusé : %(detail)s."),
    "joueur_inconnu": N_("%(player)s ne joue pas à cette table."),
    # Hands.
    "carte_inconnue": N_("La carte « %(card)s » n'existe pas (A R D V 10 9 … 2, ou A K Q J …)."),
    "points_invalides": N_("Le total de la main de %(player)s doit être un nombre entier positif."),
    "jokers_invalides": N_("Le nombre de jokers de %(player)s doit être un entier positif."),
    "main_invalide": N_("La main de %(player)s est illisible : %(detail)s"),
    "main_vide": N_("La main de %(player)s est vide : un perdant garde au moins une carte."),
    "trop_de_jokers": N_("La main de %(player)s a %(jokers)s jokers ; ce jeu n'en a que %(max)s."),
    "trop_de_cartes_de_meme_rang": N_(
        "La main de %(player)s a %(count)s cartes « %(card)s » ; ce jeu n'en a que %(max)s."
    ),
    # docs/rules.md R22: the hands of a donne together, a warning the table may override.
    "table_trop_de_jokers": N_(
        "À la table, %(count)s jokers en main : ce jeu n'en a que %(max)s. Vérifiez les mains."
    ),
    "table_trop_de_cartes": N_(
        "À la table, %(count)s cartes « %(card)s » en main : ce jeu n'en a que %(max)s. "
        "Vérifiez les mains."
    ),
    "type_de_gain_inconnu": N_("« %(win)s » n'est pas une façon de gagner à ce jeu."),
    # Donnes.
    "donne_invalide": N_("Donne illisible : %(detail)s"),
    "talon_epuise_non_compte": N_(
        "À ce jeu, un talon épuisé se reforme avec la défausse : la donne continue et "
        "quelqu'un finit par la gagner."
    ),
    "gagnant_manquant": N_("Indiquez qui a gagné la donne."),
    "gagnant_inattendu": N_(
        "Talon épuisé : personne ne gagne la donne, %(player)s ne peut pas être gagnant."
    ),
    "gagnant_hors_course": N_("%(player)s est éliminé et ne peut pas gagner la donne."),
    "main_en_trop": N_("%(player)s ne doit pas avoir de main dans cette donne (%(reason)s)."),
    "mains_incompletes": N_("Il manque la main de %(player)s."),
    "decision_en_attente": N_(
        "Décidez d'abord des rachats en attente avant de noter une autre donne."
    ),
    "partie_terminee": N_("La partie est terminée : on ne peut plus ajouter de donne."),
    # docs/rules.md "Le donneur": the first dealer is one of the players seated.
    "premier_donneur_invalide": N_(
        "Le premier donneur doit être l'un des %(count)s joueurs de la table."
    ),
    # Rachats.
    "decision_invalide": N_("Le rachat de %(player)s doit être oui ou non."),
    "decision_manquante": N_(
        "%(player)s a atteint %(total)s : rachat (retour à %(restart)s) ou abandon ?"
    ),
    "pas_de_rachat": N_("%(player)s n'a pas franchi le seuil : il n'y a pas de rachat à décider."),
    "pas_de_rachat_apres_la_derniere_manche": N_(
        "C'était la dernière manche : %(player)s ne se rachète pas, il est classé à son total."
    ),
    # docs/rules.md R23: the message fits the ending, which need not be the last manche.
    "pas_de_rachat_objectif_atteint": N_(
        "La partie s'est terminée sur l'objectif : %(player)s ne se rachète pas, il est classé "
        "à son total."
    ),
    "pas_de_reference": N_(
        "Tous les joueurs ont franchi le seuil : personne ne peut se racheter, la partie est finie."
    ),
    "rachat_impossible": N_(
        "%(player)s a franchi le seuil pour la %(crossing)se fois : il est définitivement exclu, "
        "sans rachat possible."
    ),
    # Records (CLI and import).
    "enregistrement_invalide": N_("Fichier de partie illisible : %(detail)s"),
    # docs/rules.md R28: what no table can produce; ``detail`` says the limit in words.
    "valeur_hors_limites": N_("Valeur hors limites pour « %(field)s » : %(detail)s."),
}


class RamiError(ValueError):
    """A refused input: ``code`` is stable, ``message`` is the French text for a player.

    The app refuses a few things the engine cannot know about (a form built on an older
    state, a payment where nothing is due): its subclass brings its own ``messages``."""

    messages: dict[str, str] = MESSAGES

    def __init__(
        self, code: str, donne: int | None = None, player: str | None = None, **params: Any
    ) -> None:
        if code not in self.messages:
            raise KeyError(f"unknown {type(self).__name__} code {code!r}")
        self.code = code
        self.donne = donne
        self.player = player
        self.extra = params
        super().__init__(self.message)

    @property
    def template(self) -> str:
        return self.messages[self.code]

    @property
    def params(self) -> dict[str, Any]:
        player = self.player if self.player is not None else CE_JOUEUR
        return {"player": player, "donne": self.donne, **self.extra}

    @property
    def message(self) -> str:
        text = self.template % self.params
        if self.donne is not None:
            return DONNE_PREFIX % {"donne": self.donne, "message": text}
        return text

    def at(self, donne: int | None = None, player: str | None = None) -> RamiError:
        """Fill in the donne and the player when the raiser did not know them."""
        if self.donne is None:
            self.donne = donne
        if self.player is None:
            self.player = player
        self.args = (self.message,)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "donne": self.donne,
            "player": self.player,
            "message": self.message,
        }

    def __str__(self) -> str:
        return self.message

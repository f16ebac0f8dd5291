"""Who may open what: every URL of the project × every kind of visitor.

Cast: alice owns the partie (with one donne, shared), bob is another account, an anonymous
visitor has no account, the follower is an anonymous visitor holding the share link, and the
guest is the account made by a first partie without one (games/services/guests.py).
A URL added to games/urls.py without a row in TABLE fails test_every_url_has_a_row."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services
from games.models import Partie, Rachat
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db

LOGIN = "login"  # a 302 to the login page, with ?next=
ACTORS = ("anonymous", "other", "owner", "follower", "guest")


@dataclass(frozen=True)
class World:
    partie: Partie
    token: str
    rachat: int  # Chloé's rachat after donne 2

    @property
    def pk(self) -> int:
        return self.partie.pk

    def joueur(self, name: str) -> int:
        return self.partie.joueurs.get(name=name).pk


@dataclass(frozen=True)
class Case:
    """One URL: how to request it, and the status each actor gets (LOGIN: sent to log in)."""

    args: Callable[[World], tuple[Any, ...]] = lambda w: ()
    method: str = "get"
    anonymous: int | str = 200
    other: int | str = 200
    owner: int | str = 200
    follower: int | str | None = None  # None: same as anonymous (no account either)
    guest: int | str | None = None  # None: same as other (an account, not alice's)
    accepts_post: bool = False  # then test_every_post_needs_the_csrf_token covers it
    data: dict[str, str] = field(default_factory=dict)

    def expected(self, actor: str) -> int | str:
        value = getattr(self, actor)
        if value is None:
            return self.other if actor == "guest" else self.anonymous
        return value


def owner_page(args, method="get", owner=200, **kw) -> Case:
    # An owner page: log in first; another account gets a 404, never a 403 (that would
    # confirm that the partie exists).
    return Case(args, method, anonymous=LOGIN, other=404, owner=owner, **kw)


def account_page(method="get", **kw) -> Case:
    return Case(method=method, anonymous=LOGIN, **kw)


TABLE: dict[str, Case] = {
    "home": Case(),
    # The healthcheck answers everyone (monitoring has no account).
    "health": Case(),
    # What makes the app installable and usable offline answers everyone; the
    # token of the offline queue says 401 (log in first) without an account.
    "service_worker": Case(),
    "manifest": Case(),
    "offline": Case(),
    "csrf_token": Case(anonymous=401),
    # A guest is sent to "Garder mes parties": a new account would leave its parties behind.
    "signup": Case(accepts_post=True, guest=302),
    "login": Case(accepts_post=True),
    # Django's LogoutView is POST only; it redirects everyone home.
    "logout": Case(method="post", anonymous=302, other=302, owner=302, accepts_post=True),
    # The language switch answers everyone (a redirect back, the cookie set).
    "set_language": Case(
        method="post",
        anonymous=302,
        other=302,
        owner=302,
        accepts_post=True,
        data={"language": "en", "next": "/"},
    ),
    "password_change": account_page(accepts_post=True),
    "password_change_done": account_page(),
    # Play first, sign up later: the form answers everyone; its partie makes a guest.
    "partie_new": Case(accepts_post=True),
    "partie_list": account_page(),
    # "Garder mes parties": a guest's only; an account is sent home.
    "guest_claim": account_page(other=302, owner=302, guest=200, accepts_post=True),
    "partie_detail": owner_page(lambda w: (w.pk,)),
    # An empty donne is refused with the form shown again.
    "donne_create": owner_page(lambda w: (w.pk,), "post", owner=422, accepts_post=True),
    "donne_preview": owner_page(lambda w: (w.pk,), "post", accepts_post=True),
    "donne_edit": owner_page(lambda w: (w.pk, 1), accepts_post=True),
    "donne_delete": owner_page(lambda w: (w.pk, 1), accepts_post=True),
    "rachat_decide": owner_page(
        lambda w: (w.pk, w.joueur("Bruno")), "post", owner=302, accepts_post=True
    ),
    # Changing Chloé's answer at donne 2 (issue "table-proof"): a redirect to the partie.
    "rachat_change": owner_page(
        lambda w: (w.pk, 2, w.joueur("Chloé")), "post", owner=302, accepts_post=True
    ),
    "partie_close": owner_page(lambda w: (w.pk,), "post", owner=302, accepts_post=True),
    # The offline queue's decisions, end and rematch (JSON); posted empty, refused (422).
    "rachat_queued": owner_page(
        lambda w: (w.pk, w.joueur("Bruno")), "post", owner=422, accepts_post=True
    ),
    "close_queued": owner_page(lambda w: (w.pk,), "post", owner=200, accepts_post=True),
    "rematch_queued": owner_page(lambda w: (w.pk,), "post", owner=422, accepts_post=True),
    # The partie's note, the habitués (renamed, merged) and the statistics.
    # Posted without the token of the note it was built on: stale, refused (409).
    "partie_note": owner_page(lambda w: (w.pk,), "post", owner=409, accepts_post=True),
    "habitues": account_page(),
    "habitue_rename": owner_page(
        lambda w: (w.partie.joueurs.get(name="Bruno").habitue_id,),
        "post",
        owner=302,
        accepts_post=True,
        data={"name": "Bruno"},
    ),
    "habitue_merge": owner_page(
        lambda w: (w.partie.joueurs.get(name="Bruno").habitue_id,),
        "post",
        owner=302,
        accepts_post=True,
    ),
    "statistics": account_page(),
    "partie_reopen": owner_page(lambda w: (w.pk,), "post", owner=302, accepts_post=True),
    "partie_share": owner_page(lambda w: (w.pk,), "post", owner=302, accepts_post=True),
    "partie_unshare": owner_page(lambda w: (w.pk,), "post", owner=302, accepts_post=True),
    # Money. An empty money form is shown again with its errors (422); ticks
    # without JavaScript redirect to the panel.
    "partie_money": owner_page(lambda w: (w.pk,), "post", owner=422, accepts_post=True),
    "mise_paid": owner_page(
        lambda w: (w.pk, w.joueur("Bruno")), "post", owner=302, accepts_post=True
    ),
    "rachat_paid": owner_page(lambda w: (w.pk, w.rachat), "post", owner=302, accepts_post=True),
    "evenings_money": account_page(),
    "backup_download": account_page(),
    # The marque sheet and its files.
    "partie_sheet": owner_page(lambda w: (w.pk,)),
    "partie_chart": owner_page(lambda w: (w.pk,)),
    "partie_sheet_pdf": owner_page(lambda w: (w.pk,)),
    # The result picture to share: the owner's (the provisional result before the end).
    "partie_result_png": owner_page(lambda w: (w.pk,)),
    "partie_export_csv": owner_page(lambda w: (w.pk,)),
    "partie_export_json": owner_page(lambda w: (w.pk,)),
    "partie_import": account_page(accepts_post=True),
    "blank_sheet_pdf": account_page(),
    # Anyone holding the link reads the partie; a wrong token is a 404 (below).
    "partie_follow": Case(lambda w: (w.token,)),
    "partie_follow_chart": Case(lambda w: (w.token,)),
}
WRONG_TOKEN_CASE = Case(lambda w: ("pas-le-bon-jeton",), anonymous=404, other=404, owner=404)


def url_names(patterns=None, prefix: str = "") -> dict[str, str]:
    """Every named URL of the project: name → route, through includes."""
    names = {}
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            ns = f"{entry.namespace}:" if entry.namespace else ""
            names.update(url_names(entry.url_patterns, prefix + ns))
        elif isinstance(entry, URLPattern) and entry.name:
            names[prefix + entry.name] = str(entry.pattern)
    return names


@pytest.fixture
def world() -> World:
    alice = make_user("alice")
    make_user("bob")
    partie = make_partie(alice, joueurs=["Anne", "Bruno", "Chloé"])
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand("2"))
    play(partie, "Anne", "rami", Bruno=hand("K"), Chloé=hand(points=120))
    decide(partie, "Chloé", True)
    partie = services.partie_share(partie=partie)
    return World(partie=partie, token=partie.share_token, rachat=Rachat.objects.get().pk)


GUEST_PLAYERS = ["Gaspard", "Hortense"]


def client_for(actor: str, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if actor == "guest":
        partie = services.guest_partie_create(
            name="Chez l'invité", preset="classique", joueurs=GUEST_PLAYERS
        )
        client.force_login(partie.owner)
    if actor in ("other", "owner"):
        client.login(username="bob" if actor == "other" else "alice", password="cartes-sur-table")
    return client


def request(client: Client, case: Case, world: World, name: str):
    url = reverse(name, args=case.args(world))
    return getattr(client, case.method)(url, case.data)


def test_every_url_has_a_row() -> None:
    missing = sorted(set(url_names()) - set(TABLE))
    assert not missing, (
        f"URL(s) without a row in tests/security/test_access.py TABLE: {', '.join(missing)}. "
        "Add each with the status that anonymous, other, owner and follower get."
    )
    stale = sorted(set(TABLE) - set(url_names()))
    assert not stale, f"TABLE rows for URLs that no longer exist: {', '.join(stale)}"


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("name", sorted(TABLE))
def test_access(name: str, actor: str, world: World) -> None:
    case = TABLE[name]
    response = request(client_for(actor), case, world, name)
    expected = case.expected(actor)
    where = f"{case.method.upper()} {name} as {actor}"
    if expected == LOGIN:
        assert response.status_code == 302, where
        assert response["Location"].startswith("/comptes/connexion/?next="), where
    else:
        assert response.status_code == expected, where


@pytest.mark.parametrize("actor", ACTORS)
def test_a_wrong_share_token_is_a_404_for_everyone(actor: str, world: World) -> None:
    response = request(client_for(actor), WRONG_TOKEN_CASE, world, "partie_follow")
    assert response.status_code == 404


def csrf_token_from(body: str) -> str:
    # The token htmx sends as X-CSRFToken, set once on <body hx-headers=…> (_base.html).
    headers = re.search(r"<body hx-headers='([^']*)'", body)
    assert headers, "no <body hx-headers=…> on the page"
    return json.loads(headers.group(1))["X-CSRFToken"]


POSTS = sorted(name for name, case in TABLE.items() if case.accepts_post)


@pytest.mark.parametrize("name", POSTS)
def test_every_post_needs_the_csrf_token(name: str, world: World) -> None:
    case = TABLE[name]
    actor = "anonymous" if case.anonymous != LOGIN else "owner"
    client = client_for(actor, enforce_csrf_checks=True)
    url = reverse(name, args=case.args(world))
    refused = client.post(url, case.data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403, f"POST {name} without a CSRF token"

    page = client.get(reverse("partie_detail", args=[world.pk]) if actor == "owner" else "/")
    token = csrf_token_from(page.content.decode())
    accepted = client.post(url, case.data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code != 403, f"POST {name} with the page's X-CSRFToken"


# Every page of an account, as the guest sees it: its own partie, nothing of alice's.
ACCOUNT_PAGES = (
    "home",
    "partie_list",
    "evenings_money",
    "statistics",
    "habitues",
    "backup_download",
    "partie_new",
)


@pytest.mark.parametrize("name", ACCOUNT_PAGES)
def test_a_guest_sees_nothing_of_anyone_else(name: str, world: World) -> None:
    client = client_for("guest")
    response = client.get(reverse(name))
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode()
    for alices in ("Mardi soir", "Anne", "Bruno", "Chloé", "alice"):
        assert alices not in text, f"{name} shows {alices!r} to a guest"
    own = "Chez l&#x27;invité" if name == "evenings_money" else "Gaspard"
    if name not in ("partie_new", "statistics"):
        assert own in text, f"{name} does not show the guest's own partie"

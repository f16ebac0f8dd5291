"""In a browser: a phone usable all evening. The dark theme that follows the phone,
the language switch, the share button, the screen kept awake while a partie runs, and the
big-screen live view for a TV or a tablet on the wall.

Cast: alice keeps the score; a follower opens the share link without an account."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.models import Partie
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.factories import decide, hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

DARK_BG = "rgb(33, 37, 41)"  # Bootstrap 5.3's --bs-body-bg in dark mode
LIGHT_BG = "rgb(255, 255, 255)"

# Wraps the browser's own navigator.wakeLock.request: each call is recorded, then the real
# request is made; the sentinel it returns is kept so that the test can release it as the
# browser does when the page is hidden.
WAKE_LOCK_SPY = """
window.wakeLockCalls = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = function (type) {
    window.wakeLockCalls.push(type);
    return request(type).then(function (sentinel) {
      window.wakeLockSentinel = sentinel;
      return sentinel;
    });
  };
}
"""

# A phone's share sheet, for Chromium on Linux, which has no Web Share API: it records what
# the page hands it.
SHARE_SHEET = """
Object.defineProperty(navigator, "share", {
  configurable: true,
  value: function (data) { window.sharedData = data; return Promise.resolve(); },
});
"""


@pytest.fixture
def alice():
    return make_user("alice")


def vendredi(owner, **options) -> Partie:
    """Three donnes of a 4-player table with money: Bruno crossed and bought back."""
    partie = make_partie(
        owner,
        joueurs=["Anne", "Bruno", "Chloé", "David"],
        name="Vendredi au club",
        mise_initiale=Decimal("2.00"),
        rachat_price=Decimal("3.00"),
        **options,
    )
    play(partie, "Anne", "rami", Bruno=hand("K Q 5"), Chloé=hand("9 8"), David=hand("4"))
    play(partie, "Chloé", "rami", Anne=hand("5 2"), Bruno=hand(points=90), David=hand("7"))
    decide(partie, "Bruno", True)
    play(partie, "David", "rami", Anne=hand("3"), Bruno=hand("A"), Chloé=hand("6 6"))
    services.mise_mark_paid(joueur=partie.joueurs.get(name="Anne"), paid=True)
    services.partie_share(partie=partie)
    partie.refresh_from_db()
    return partie


@pytest.fixture
def partie(alice) -> Partie:
    return vendredi(alice)


@pytest.fixture
def phone(chromium, live_server) -> Iterator:
    """A factory of phones: a browser context at 390×844, light or dark, logged in or not."""
    contexts = []

    def make(*, dark: bool = False, user=None, viewport=PHONE, init: str = ""):
        context = chromium.new_context(
            viewport=viewport,
            locale="fr-FR",
            base_url=live_server.url,
            color_scheme="dark" if dark else "light",
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME]
            context.add_cookies(
                [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
            )
        if init:
            context.add_init_script(init)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"night-{name}.png"), full_page=full_page)


def theme(page) -> str:
    return page.evaluate("document.documentElement.getAttribute('data-bs-theme')")


def body_bg(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def open_menu(page) -> None:
    page.locator("#reglages > summary").click()
    expect(page.locator(".display-menu-panel")).to_be_visible()


# -- dark theme --------------------------------------------------------------------------------


def test_a_dark_phone_gets_the_dark_theme_and_can_switch(phone, alice, partie) -> None:
    page = phone(dark=True, user=alice)
    page.goto(f"/parties/{partie.pk}/")
    assert theme(page) == "dark" and body_bg(page) == DARK_BG
    # The leader's cell and the scoreboard use Bootstrap's variables: no light patch in dark.
    leader = page.locator("#scoreboard .player.is-leader")
    assert leader.evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(254, 243, 199)"
    shot(page, "partie-dark")
    open_menu(page)
    expect(page.locator("[data-theme-value='auto']")).to_have_attribute("aria-pressed", "true")
    shot(page, "menu-dark", full_page=False)
    page.locator("[data-theme-value='light']").click()
    assert theme(page) == "light" and body_bg(page) == LIGHT_BG
    # Remembered on this phone, whatever the phone's own setting.
    page.reload()
    assert theme(page) == "light"
    open_menu(page)
    expect(page.locator("[data-theme-value='light']")).to_have_attribute("aria-pressed", "true")
    page.locator("[data-theme-value='auto']").click()
    assert theme(page) == "dark"
    page.locator("[data-theme-value='dark']").click()
    page.goto("/argent/")
    assert theme(page) == "dark"


def test_a_light_phone_chooses_dark(phone, alice, partie) -> None:
    page = phone(user=alice)
    page.goto("/")
    assert theme(page) == "light" and body_bg(page) == LIGHT_BG
    open_menu(page)
    page.locator("[data-theme-value='dark']").click()
    assert theme(page) == "dark" and body_bg(page) == DARK_BG


def test_printing_and_the_marque_sheet_stay_light(phone, alice, partie) -> None:
    page = phone(dark=True, user=alice)
    page.goto(f"/parties/{partie.pk}/")
    assert theme(page) == "dark"
    page.emulate_media(media="print")
    page.wait_for_function("() => document.documentElement.dataset.bsTheme === 'light'")
    assert body_bg(page) == LIGHT_BG
    page.emulate_media(media="screen")
    page.wait_for_function("() => document.documentElement.dataset.bsTheme === 'dark'")
    # The printed marque has its own stylesheet, always black on white.
    page.goto(f"/parties/{partie.pk}/marque/")
    assert body_bg(page) == LIGHT_BG
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"
    shot(page, "sheet-dark-phone")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_each_screen(phone, alice, partie, dark) -> None:
    mode = "dark" if dark else "light"
    # A finished partie of the same evening, for the Comptes' list of who gives what to whom.
    jeudi = make_partie(alice, joueurs=["Anne", "Bruno", "Gérard"], mise_initiale=Decimal("12.00"))
    services.mise_mark_paid(joueur=jeudi.joueurs.get(name="Bruno"), paid=True)
    play(jeudi, "Gérard", "rami", Anne=hand("K 5"), Bruno=hand("9"))
    services.partie_close(partie=jeudi)
    page = phone(dark=dark, user=alice)
    for name, url in [
        ("home", "/"),
        ("partie", f"/parties/{partie.pk}/"),
        ("comptes", "/argent/"),
        ("nouvelle", "/parties/nouvelle/"),
    ]:
        page.goto(url)
        assert theme(page) == mode
        shot(page, f"{name}-{mode}")
    page.goto(f"/parties/{partie.pk}/")
    # The card picker and its chips.
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Anne$")).click()
    page.locator("#donne-form .hand[data-joueur='Bruno'] .picker-toggle").click()
    page.locator("#donne-form .hand[data-joueur='Bruno'] [data-card]").first.click()
    page.locator("#donne-form .hand[data-joueur='Bruno']").scroll_into_view_if_needed()
    shot(page, f"picker-{mode}", full_page=False)
    page.goto(f"/parties/{partie.pk}/?partage#partage")
    page.locator("#partage").scroll_into_view_if_needed()
    shot(page, f"share-{mode}", full_page=False)
    follower = phone(dark=dark)
    follower.goto(f"/suivre/{partie.share_token}/")
    assert theme(follower) == mode
    shot(follower, f"follow-{mode}")


# -- language ----------------------------------------------------------------------------------


def test_the_language_switch_is_remembered(phone, alice, partie) -> None:
    page = phone(user=alice)
    page.goto(f"/parties/{partie.pk}/")
    expect(page.get_by_role("button", name="Noter la donne")).to_be_visible()
    assert page.locator("#donne-form .card-key").first.inner_text() == "A"
    open_menu(page)
    page.locator(".language-switch button[value='en']").click()
    page.wait_for_url(re.compile(f"/parties/{partie.pk}/$"))
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.get_by_role("button", name="Record the deal")).to_be_visible()
    # The card picker in English letters; the money in English.
    keys = page.locator("#donne-form .hand[data-joueur='Bruno'] .card-key").all_inner_texts()
    assert keys[:4] == ["A", "K", "Q", "J"]
    assert page.locator("#cagnotte").inner_text() == "€11.00"
    # A French letter typed on an English page shows as the English one.
    page.locator("#donne-form .hand[data-joueur='Bruno'] .picker-toggle").click()
    page.locator("#donne-form .hand[data-joueur='Bruno'] .cards-input").fill("R 5")
    chips = page.locator("#donne-form .hand[data-joueur='Bruno'] .chip")
    expect(chips).to_have_text(["K ✕", "5 ✕"])
    shot(page, "partie-english")
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "en"
    open_menu(page)
    page.locator(".language-switch button[value='fr']").click()
    page.wait_for_url(re.compile("/$"))
    assert page.locator("html").get_attribute("lang") == "fr"


# -- share -------------------------------------------------------------------------------------


def test_share_copies_the_link_without_a_share_sheet(phone, alice, partie, live_server) -> None:
    page = phone(user=alice)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(f"/parties/{partie.pk}/?partage#partage")
    assert page.evaluate("typeof navigator.share") == "undefined"  # Chromium on Linux
    url = page.locator("#share-url").input_value()
    assert url == f"{live_server.url}/suivre/{partie.share_token}/"
    button = page.get_by_role("button", name="Partager", exact=True)
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("#share-status")).to_have_text("Lien copié")
    assert page.evaluate("navigator.clipboard.readText()") == url
    shot(page, "share-copied", full_page=False)
    # The confirmation goes away by itself.
    expect(page.locator("#share-status")).to_have_text("", timeout=6000)


def test_share_opens_the_phone_s_share_sheet(phone, alice, partie, live_server) -> None:
    page = phone(user=alice, init=SHARE_SHEET)
    page.goto(f"/parties/{partie.pk}/?partage#partage")
    page.get_by_role("button", name="Partager", exact=True).click()
    page.wait_for_function("() => window.sharedData !== undefined")
    assert page.evaluate("window.sharedData") == {
        "title": "Vendredi au club",
        "text": "La marque en direct",
        "url": f"{live_server.url}/suivre/{partie.share_token}/",
    }
    assert page.locator("#share-status").inner_text() == ""


def test_the_share_panel_without_javascript_keeps_the_link(chromium, live_server, alice, partie):
    context = chromium.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    client = Client()
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"/parties/{partie.pk}/?partage#partage")
    assert page.locator("#share-button").is_hidden()
    assert page.locator("#share-url").is_visible()
    context.close()


# -- wake lock ---------------------------------------------------------------------------------


def test_the_screen_stays_awake_while_the_partie_runs(phone, alice) -> None:
    partie = vendredi(alice, fixed_manches=4)  # the next donne is the last
    page = phone(user=alice, init=WAKE_LOCK_SPY)
    page.goto(f"/parties/{partie.pk}/")
    page.wait_for_function("() => window.wakeLockSentinel !== undefined")
    assert page.evaluate("window.wakeLockCalls") == ["screen"]
    assert page.evaluate("window.wakeLockSentinel.released") is False
    # The browser lets the lock go when the page is hidden (another tab in front); visible
    # again, the page asks again.
    other = page.context.new_page()
    other.goto("/")
    other.bring_to_front()
    page.evaluate("window.wakeLockSentinel.release()")
    page.bring_to_front()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.wakeLockCalls.length === 2")
    page.wait_for_function("() => window.wakeLockSentinel.released === false")
    # The last manche recorded (htmx swaps the page's body): the partie is over, the
    # screen may sleep again.
    page.locator("#donne-form .winner-grid label", has_text=re.compile("^Anne$")).click()
    for name, points in (("Bruno", 5), ("Chloé", 6), ("David", 7)):
        page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input").fill(str(points))
    page.get_by_role("button", name="Noter la donne").click()
    expect(page.locator("#resultat")).to_be_visible()
    page.wait_for_function("() => window.wakeLockSentinel.released === true")
    assert page.evaluate("window.wakeLockCalls.length") == 2
    assert page.locator("[data-keep-awake]").count() == 0


def test_the_follower_s_screen_stays_awake_too(phone, partie) -> None:
    page = phone(init=WAKE_LOCK_SPY)
    page.goto(f"/suivre/{partie.share_token}/")
    page.wait_for_function("() => window.wakeLockSentinel !== undefined")
    assert page.evaluate("window.wakeLockCalls") == ["screen"]


def test_a_finished_partie_lets_the_screen_sleep(phone, alice, partie) -> None:
    services.partie_close(partie=partie)
    page = phone(user=alice, init=WAKE_LOCK_SPY)
    page.goto(f"/parties/{partie.pk}/")
    expect(page.locator("#resultat")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.wakeLockCalls") == []


# -- big screen --------------------------------------------------------------------------------


@pytest.fixture
def club_night(alice) -> Partie:
    """6 players × 20 donnes: each wins in turn, the others keep a 2 or a 3."""
    names = ["Anne", "Bruno", "Chloé", "David", "Émile", "Françoise"]
    partie = make_partie(
        alice, joueurs=names, name="Tournoi du club", mise_initiale=Decimal("5.00")
    )
    for number in range(20):
        winner = names[number % 6]
        hands = {n: hand("2" if (number + i) % 2 else "3") for i, n in enumerate(names)}
        del hands[winner]
        play(partie, winner, "rami", **{n.replace(" ", "_"): h for n, h in hands.items()})
    services.partie_share(partie=partie)
    partie.refresh_from_db()
    return partie


@pytest.mark.parametrize(
    "screen",
    [{"width": 1920, "height": 1080}, {"width": 1280, "height": 800}],
    ids=["tv", "tablet"],
)
def test_the_big_screen_shows_everything_without_scrolling(phone, club_night, screen) -> None:
    page = phone(viewport=screen, dark=screen["width"] == 1920)
    page.goto(f"/suivre/{club_night.share_token}/")
    page.locator("#grand-ecran").click()
    page.wait_for_url(re.compile(r"\?grand=1$"))
    expect(page.locator("#suivi.bigscreen")).to_be_visible()
    shot(page, f"bigscreen-{screen['width']}", full_page=False)
    assert page.evaluate("document.scrollingElement.scrollHeight") <= screen["height"]
    players = page.locator("#scoreboard .player")
    assert players.count() == 6
    for i in range(6):
        box = players.nth(i).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= screen["height"]
    # Every one of the 20 donnes is in view, the latest at the bottom, nothing cut.
    rows = page.locator("#marque tbody tr")
    assert rows.count() == 20
    assert rows.first.locator("th").inner_text() == "1"
    assert rows.last.locator("th").inner_text() == "20"
    header = page.locator("#marque thead").bounding_box()
    first, last = rows.first.bounding_box(), rows.last.bounding_box()
    assert first["y"] >= header["y"] + header["height"] - 1
    assert last["y"] + last["height"] <= screen["height"]
    # Large digits: a total is at least 7 % of the screen's height.
    size = players.first.locator(".total").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 0.07 * screen["height"]
    # A partie that goes on keeps polling in big-screen mode.
    assert page.locator("#suivi").get_attribute("hx-get").endswith("?grand=1")


@pytest.fixture
def sunday(alice) -> Partie:
    """6 players at 92 to 104 (a seuil of 150) after two donnes, ended by the table."""
    names = ["Mamie", "Papi", "Marcel", "Françoise", "Josiane", "Lucienne"]
    partie = make_partie(alice, joueurs=names, name="Dimanche chez Mamie", seuil=150)
    play(partie, "Lucienne", "rami", Mamie=hand(points=93), Papi=hand(points=88),
         Marcel=hand(points=97), Françoise=hand(points=89), Josiane=hand(points=98))  # fmt: skip
    play(partie, "Lucienne", "rami", Mamie=hand(points=2), Papi=hand(points=16),
         Marcel=hand(points=1), Françoise=hand(points=3), Josiane=hand(points=1))  # fmt: skip
    services.partie_close(partie=partie)
    services.partie_share(partie=partie)
    partie.refresh_from_db()
    return partie


@pytest.mark.parametrize(
    "screen", [PHONE, {"width": 844, "height": 390}], ids=["upright", "on-its-side"]
)
def test_the_big_screen_reads_on_a_phone(phone, sunday, screen) -> None:
    page = phone(viewport=screen, dark=screen["width"] > screen["height"])
    page.goto(f"/suivre/{sunday.share_token}/?grand=1")
    expect(page.locator("#suivi.bigscreen")).to_be_visible()
    shot(page, f"bigscreen-phone-{screen['width']}", full_page=False)
    # Nothing cut: no name, total or marque cell wider than its box ("Ma…", "+6…").
    cut = page.locator("#scoreboard .name, #scoreboard .total, #marque th, #marque td")
    assert cut.evaluate_all("es => es.filter(e => e.scrollWidth > e.clientWidth + 1).length") == 0
    # The totals do not run into each other: each stays inside its player's box.
    players = page.locator("#scoreboard .player")
    for i in range(6):
        box, total = players.nth(i).bounding_box(), players.nth(i).locator(".total").bounding_box()
        assert box["x"] <= total["x"] and total["x"] + total["width"] <= box["x"] + box["width"]
    assert players.nth(1).locator(".total").inner_text() == "104"
    # The latest donne is in view; buttons can be tapped; the ranking is phone-size text.
    latest = page.locator("#marque tbody tr").last.bounding_box()
    assert latest["y"] + latest["height"] <= screen["height"]
    assert page.get_by_role("link", name="Vue normale").bounding_box()["height"] >= 44
    # The browser can fill the screen: static/js/fullscreen.js shows its button.
    expect(page.get_by_role("button", name="Plein écran")).to_be_visible()
    rank = page.locator("#resultat li").first
    assert rank.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 15

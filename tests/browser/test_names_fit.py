"""Seven names that fit on the narrowest phone (360×740) and on 390×844, upright and on its
side, light and dark: no element of the scoreboard, the marque or the donne form is cut
(its content is never wider than its box), and names that start alike stay told apart."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.models import Partie
from tests.factories import hand, make_partie, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

SEVEN = ["Maman", "Mamie", "Marie-Christine", "Jean-Baptiste", "Zoé", "Zoë", "Ana"]
SCREENS = {
    "360": {"width": 360, "height": 740},
    "390": {"width": 390, "height": 844},
    "360-side": {"width": 740, "height": 360},
    "390-side": {"width": 844, "height": 390},
}
AREAS = ["#scoreboard", "#marque", "#donne-card", ".rachat-card"]

# Every element of the areas whose content is wider than its box (1 px of rounding allowed).
CLIPPED = """(areas) => {
  const cut = [];
  for (const area of areas) {
    for (const root of document.querySelectorAll(area)) {
      for (const el of [root, ...root.querySelectorAll("*")]) {
        if (!el.getClientRects().length || el.closest("[hidden], .visually-hidden")) continue;
        if (getComputedStyle(el).visibility === "hidden") continue;
        if (el.matches("select, option, input, svg, svg *")) continue;
        if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
          const text = (el.textContent || "").trim().slice(0, 30);
          const sizes = `${el.scrollWidth}>${el.clientWidth}`;
          cut.push(`${area} ${el.tagName}.${el.className} «${text}» ${sizes}`);
        }
      }
    }
  }
  return cut;
}"""


def _open(chromium, live_server, user, partie: Partie, screen: str, scheme: str):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(
        viewport=SCREENS[screen], locale="fr-FR", base_url=live_server.url, color_scheme=scheme
    )
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"/parties/{partie.pk}/")
    return context, page


def _seven_with_a_decision(owner) -> Partie:
    """Seven players, a leader (★), 4-digit totals, and Marie-Christine to decide (décide)."""
    partie = make_partie(owner, joueurs=SEVEN, preset="rami52_6")
    play(partie, "Ana", "rami", **{n: hand(points=9) for n in SEVEN[:6]})
    play(
        partie, "Ana", "rami", **{n: hand(points=7) for n in SEVEN[:6]} | {"Mamie": hand(points=3)}
    )
    play(
        partie,
        "Ana",
        "rami",
        **{n: hand(points=8) for n in SEVEN[:6]} | {"Marie-Christine": hand(points=990)},
    )
    return partie


def _seven_in_play(owner) -> Partie:
    partie = make_partie(owner, joueurs=SEVEN, preset="rami52_6")
    play(partie, "Ana", "rami", **{n: hand(points=9) for n in SEVEN[:6]})
    play(partie, "Zoé", "rami", **{n: hand(points=7) for n in SEVEN if n != "Zoé"})
    return partie


def _five_with_a_talon(owner) -> Partie:
    partie = make_partie(owner, joueurs=SEVEN[:5], preset="rami52_7")
    play(partie, "Maman", "rami", **{n: hand(points=9) for n in SEVEN[1:5]})
    return partie


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_seven_names_fit_and_nothing_is_cut(chromium, live_server, screen, scheme) -> None:
    from tests.browser.conftest import SCREENSHOTS

    owner = make_user("alice")
    parties = {
        "decision": _seven_with_a_decision(owner),
        "play": _seven_in_play(owner),
        "talon": _five_with_a_talon(owner),
    }
    SCREENSHOTS.mkdir(exist_ok=True)
    for state, partie in parties.items():
        context, page = _open(chromium, live_server, owner, partie, screen, scheme)
        try:
            if state != "decision":
                page.wait_for_selector("#donne-form[data-ready]")
            assert page.evaluate("document.documentElement.dataset.bsTheme") == scheme
            name = f"fit-{state}-{screen}-{scheme}"
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
            assert page.evaluate(CLIPPED, AREAS) == [], name
            # Nothing wider than the screen: no sideways scroll.
            assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["width"]
        finally:
            context.close()

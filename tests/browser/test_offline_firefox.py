"""The offline queue in Firefox ESR as well (Debian's firefox-esr, driven over WebDriver BiDi
by puppeteer-core from the npm registry: no browser download; tests/browser/firefox/). The
same relay cuts the network for the page and the service worker. Firefox has no Background
Sync: there the page sends the queue itself.

Skipped with a message where Node, the driver's node_modules or Firefox are missing, except
in CI (.ci/run installs them)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from games.models import Donne
from tests.browser import test_offline
from tests.browser.test_offline import FOUR, _session_cookie, stored
from tests.factories import hand, make_partie, play

pytestmark = pytest.mark.django_db(transaction=True)

FIREFOX = "/usr/bin/firefox-esr"
DRIVER = Path(__file__).parent / "firefox"

alice = test_offline.alice
relay = test_offline.relay


class Firefox:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(DRIVER / "driver.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "FIREFOX": FIREFOX},
        )
        assert json.loads(self.process.stdout.readline()) == {"ready": True}

    def __call__(self, op: str, **args):
        self.process.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if not answer["ok"]:
            raise AssertionError(f"{op} {args}: {answer['error']}")
        return answer.get("value")

    def wait(self, js: str, ms: int = 30_000):
        return self("wait", js=js, ms=ms)

    def record(self, winner: str, **points: int) -> None:
        fill = json.dumps(points)
        self(
            "eval",
            js=f"""() => {{
                const form = document.getElementById("donne-form");
                [...form.querySelectorAll(".winner-grid label")]
                    .find(l => l.textContent.trim() === {json.dumps(winner)}).click();
                for (const [name, value] of Object.entries({fill})) {{
                    const hand = form.querySelector(`.hand[data-joueur='${{name}}']`);
                    const input = hand.querySelector(".points-input");
                    input.value = String(value);
                    input.dispatchEvent(new Event("input", {{ bubbles: true }}));
                }}
                document.getElementById("donne-save").click();
                return true;
            }}""",
        )

    def close(self) -> None:
        with contextlib.suppress(AssertionError, json.JSONDecodeError, BrokenPipeError):
            self("close")
        self.process.wait(timeout=20)


# Once a CI run, on its SQLite pass: what this test checks is Firefox's service worker and
# queue, not the database's (the Chromium offline tests run on both).
ONCE = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="Firefox runs on the SQLite pass of the suite"
)


@pytest.fixture
def firefox(relay, alice):
    missing = [
        what
        for what, there in (
            ("Node", shutil.which("node")),
            ("Firefox ESR", Path(FIREFOX).exists()),
            ("puppeteer-core", (DRIVER / "node_modules" / "puppeteer-core").exists()),
        )
        if not there
    ]
    if missing:
        message = (
            f"{', '.join(missing)} missing: apt-get install firefox-esr nodejs npm; "
            "cd tests/browser/firefox && PUPPETEER_SKIP_DOWNLOAD=1 npm ci"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    browser = Firefox()
    cookie = _session_cookie(alice, relay.url)
    session = {"name": cookie["name"], "value": cookie["value"], "domain": "127.0.0.1", "path": "/"}
    browser("cookie", cookie=session)
    yield browser
    browser.close()


QUEUED = "document.querySelectorAll('#marque tr.queued[data-cle]').length"
EMPTY_QUEUE = "() => RamiQueue.items().then(items => items.length === 0)"


def count_is(text: str) -> str:
    line = "document.querySelector('#partie-body h1 + small').textContent"
    return f"() => {line} === {json.dumps(text)}"


def reload_kept_page(firefox: Firefox) -> None:
    """Reload with no network: the kept marque, from the service worker. Firefox ESR drops
    the worker's registration after three "navigation faults" (its fault mitigation), and
    the reload then gets the browser's error page: the worker never fails an answer
    (static/js/sw.js ``unreachable``), so this holds with Firefox's defaults."""
    firefox("reload")
    firefox.wait("() => document.body.dataset.served === 'cache'", ms=10_000)


@ONCE
def test_the_offline_queue_in_firefox(firefox, relay, alice):
    partie = make_partie(alice, joueurs=FOUR)
    firefox("goto", url=f"{relay.url}/parties/{partie.pk}/")
    firefox.wait("() => navigator.serviceWorker.ready.then(() => true)")
    firefox("reload")
    firefox.wait("() => Boolean(navigator.serviceWorker.controller)")
    firefox.wait("() => Boolean(document.querySelector('#donne-form[data-ready]'))")

    # A refused donne on top, in red, and the next one not held behind it.
    relay.stop()
    firefox.record("Anne", Bruno=12, Chloé=7, David=30)
    firefox.wait(f"() => {QUEUED} === 1")
    play(partie, "David", "rami", Anne=hand(points=1), Bruno=hand(points=2), Chloé=hand(points=3))
    relay.start()
    firefox("eval", js="() => RamiOffline.send().then(() => true)")
    firefox.wait(
        "() => document.querySelector('#offline-banner.alert-danger .refusal-block')"
        "?.textContent.includes('Donne 1 refusée : La partie a changé ailleurs')"
    )
    firefox.wait(count_is("1 donne"))
    firefox.record("Bruno", Anne=4, Chloé=5, David=6)
    firefox.wait(count_is("2 donnes"))
    assert [n for n, _w, _h in stored(partie)] == [1, 2]
    firefox("click", selector="#offline-banner .refusal-block .queue-drop")
    firefox("click", selector="#offline-banner .refusal-block .queue-drop")
    firefox.wait(f"() => {QUEUED} === 0")

    # A catch-up from the kept page: the server's marque within 2 s.
    relay.stop()
    firefox.record("Chloé", Anne=1, Bruno=2, David=3)
    firefox.wait(f"() => {QUEUED} === 1")
    reload_kept_page(firefox)
    relay.start()
    firefox("eval", js="() => { window.dispatchEvent(new Event('online')); return true; }")
    firefox.wait(EMPTY_QUEUE, ms=15_000)
    firefox.wait(count_is("3 donnes"), ms=2000)
    firefox.wait("() => RamiOffline.drawn().then(() => true)")

    # Changed and dropped offline; undo takes the last waiting one.
    relay.stop()
    firefox.record("Anne", Bruno=10, Chloé=11, David=12)
    firefox.wait(f"() => {QUEUED} === 1")
    firefox.record("Bruno", Anne=20, Chloé=21, David=22)
    firefox.wait(f"() => {QUEUED} === 2")
    firefox.record("David", Anne=30, Bruno=31, Chloé=32)
    firefox.wait(f"() => {QUEUED} === 3")
    firefox("click", selector="#marque tr.queue-actions .queue-edit")  # the first one
    firefox.wait(
        "() => document.getElementById('donne-title').textContent"
        " === 'Modifier la donne 4 (en attente)'"
    )
    firefox(
        "eval",
        js="""() => {
        const hand = document.querySelector("#donne-form .hand[data-joueur='David']");
        const input = hand.querySelector(".points-input");
        input.value = "15";
        input.dispatchEvent(new Event("input", { bubbles: true }));
        document.getElementById("donne-save").click();
        return true;
    }""",
    )
    firefox.wait(
        "() => [...document.querySelectorAll('#marque tr.queued[data-cle]')][0]"
        "?.textContent.includes('15')"
    )
    # Supprimer, then Supprimer again on the button that now asks to be sure. A redraw of the
    # waiting rows between the two taps gives a fresh button: tapped again, as a person would.
    rows = "[...document.querySelectorAll('#marque tr.queue-actions')]"
    firefox.wait(
        f"() => {{ const drop = {rows}[1].querySelector('.queue-drop');"
        " const sure = Boolean(drop.dataset.sure); drop.click(); return sure; }"
    )
    firefox.wait(f"() => {QUEUED} === 2")
    firefox.wait(
        "() => document.querySelector('#annuler summary').textContent"
        " === 'Annuler la dernière donne (5, en attente)'"
    )
    firefox("eval", js="() => { document.querySelector('#annuler').open = true; return true; }")
    firefox("click", selector="#annuler button")
    firefox.wait(f"() => {QUEUED} === 1")
    # A form posted with no network (the note): ramiscore's offline page, never the
    # browser's error.
    firefox(
        "eval", js="() => { document.querySelector('#note details').open = true; return true; }"
    )
    firefox("fill", selector="#id_note", value="Chez Anne")
    firefox("click", selector="#note form button")
    firefox.wait("() => document.querySelector('#offline-page h1')?.textContent === 'Hors ligne'")
    # It lists the partie kept on this phone for this account.
    firefox.wait(
        "() => [...document.querySelectorAll('#kept-parties a')].map(a => a.textContent)"
        ".join() === 'Mardi soir'"
    )
    test_offline.SCREENSHOTS.mkdir(exist_ok=True)
    firefox("screenshot", path=str(test_offline.SCREENSHOTS / "firefox-offline-page.png"))

    relay.start()
    firefox("goto", url=f"{relay.url}/parties/{partie.pk}/")
    firefox.wait(EMPTY_QUEUE, ms=15_000)
    firefox.wait(count_is("4 donnes"), ms=5000)
    assert stored(partie)[-1] == (4, "Anne", {"Bruno": 10, "Chloé": 11, "David": 15})
    assert Donne.objects.filter(partie=partie).count() == 4

    # Kept pages belong to one account: without the marker, the kept marque is not shown.
    firefox(
        "eval",
        js="() => { document.cookie = 'ramiscore_compte=; max-age=0; path=/'; return true; }",
    )
    relay.stop()
    firefox("goto", url=f"{relay.url}/parties/{partie.pk}/")
    firefox.wait(
        "() => Boolean(document.querySelector('#offline-page, #kept-other-account'))"
        " && !document.querySelector('#partie-body')"
    )

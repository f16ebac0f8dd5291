"""The engine on the phone, measured in Chromium at 390×844 against the bench's gunicorn
(docs/decisions.md "One engine, two runtimes"):

- the bytes the service worker fetches in the background (Pyodide, the engine zip, the
  worker), as whitenoise serves them to ``Accept-Encoding: gzip, br``;
- the time for the engine's Web Worker to be ready, the network cut (relay of the browser
  tests), its files from the service worker's cache: median of a few page loads;
- the time from "Noter la donne" offline to the new totals on screen, the worker ready
  (static/js/provisional.js writes it in ``body[data-provisional-ms]``): median of a few donnes.

Skipped (None) where Chromium or Playwright is missing. ``python -m bench.offline_engine``
measures these alone, on a fresh site, without the rest of ``make bench``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
from typing import Any

from bench.environment import HOST
from bench.parties import NAMES, World
from bench.serving import Http, check
from games import services
from games.offline_record import background_files

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
LOADS = 3
DONNES = 5


def kept(files: list[str]) -> str:
    """A function whose promise says whether the service worker's caches hold all these files
    (by the end of their URLs)."""
    return f"""() => caches.keys()
    .then(keys => Promise.all(keys.map(key => caches.open(key)
        .then(cache => cache.keys()).then(requests => requests.map(r => r.url)))))
    .then(lists => lists.flat())
    .then(urls => {json.dumps(files)}.every(file => urls.some(url => url.endsWith(file))))"""


def polled(check: str, every_ms: int = 500) -> str:
    """A promise fulfilled once ``check`` (a function returning a promise of a boolean) says
    true, asked again every ``every_ms``. Not page.wait_for_function: it takes a promise as a
    truthy answer and returns after the first one, whatever it resolves to, so the network
    was cut while the service worker was still fetching the engine's files."""
    again = f"setTimeout(ask, {every_ms})"
    return (
        f"new Promise(ok => {{ const ask = () => ({check})()"
        f".then(yes => yes ? ok(true) : {again}, () => {again}); ask(); }})"
    )


def within(promise: str, what: str, *, before: str = "", seconds: int = 90) -> str:
    """A function for page.evaluate that awaits the promise for so long at most: page.evaluate
    itself waits forever, so a service worker or an engine that never gets ready would hold
    the whole bench without a word."""
    late = f"new Error({what!r} + ' is not ready after {seconds} s')"
    timer = f"new Promise((_ok, fail) => setTimeout(() => fail({late}), {seconds * 1000}))"
    return f"() => {{ {before} return Promise.race([{promise}, {timer}]); }}"


def background_bytes(world: World, port: int) -> dict[str, int]:
    http_client = Http(port, world.cookies)
    sizes = {}
    for url in background_files():
        status, _headers, content = http_client.request(
            "GET", url, **{"Accept-Encoding": "gzip, br"}
        )
        check(status, 200, url)
        sizes[url] = len(content)
    return sizes


def measure_offline_engine(world: World, port: int) -> dict[str, Any]:
    sizes = background_bytes(world, port)
    result: dict[str, Any] = {
        "background_bytes": sum(sizes.values()),
        "background_files": sizes,
        "worker_ready_ms": None,
        "donne_to_totals_ms": None,
    }
    if not shutil.which(CHROMIUM):
        print("  Chromium missing: the engine's times in the browser are not measured")
        return result
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("  Playwright missing: the engine's times in the browser are not measured")
        return result
    from tests.browser.relay import Relay

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    owner = world.writers_partie.owner
    partie = services.partie_create(
        owner=owner, name="Banc hors ligne", preset="classique", joueurs=NAMES[:4]
    )
    relay = Relay(port)
    relay.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context(viewport=PHONE, locale="fr-FR", base_url=relay.url)
            context.set_default_timeout(120_000)
            context.add_cookies(
                [
                    {"name": name, "value": value, "domain": HOST, "path": "/"}
                    for name, value in world.cookies.items()
                ]
            )
            page = context.new_page()
            try:
                result.update(_in_the_browser(page, relay, partie, list(sizes)))
            except PlaywrightError as error:
                # The rest of the bench's figures stand: this one is said missing, and why.
                result["error"] = str(error).splitlines()[0]
                print(f"  the engine's times in the browser are not measured: {result['error']}")
            browser.close()
    finally:
        relay.stop()
    return result


def _in_the_browser(page, relay, partie, files: list[str]) -> dict[str, Any]:
    url = f"/parties/{partie.pk}/"
    page.goto(url)
    page.wait_for_selector("#donne-form[data-ready]")
    page.evaluate(within("navigator.serviceWorker.ready.then(() => true)", "the service worker"))
    page.reload()
    page.wait_for_selector("#donne-form[data-ready]")
    names = [f.rsplit("/", 1)[1] for f in files]
    page.evaluate(within(polled(kept(names)), "the engine's files in the service worker's cache"))
    relay.stop()
    ready = []
    for _ in range(LOADS):
        page.reload()
        page.wait_for_selector("#donne-form[data-ready]")
        # Offline, the page starts the worker itself as it loads (provisional.js,
        # warmWhenOffline): the time runs from the fetch of its script, when there is one.
        started = (
            "const worker = performance.getEntriesByType('resource')"
            ".find(e => e.name.includes('/engine-worker.'));"
            " const t = worker ? worker.startTime : performance.now();"
        )
        engine = "RamiProvisional.engine().then(() => performance.now() - t)"
        ready.append(page.evaluate(within(engine, "the engine's worker", before=started)))
    totals = []
    for number in range(1, DONNES + 1):
        winner = NAMES[number % 4]
        page.locator("#donne-form .winner-grid label", has_text=winner).first.click()
        for name in NAMES[:4]:
            if name != winner:
                hand = page.locator(f"#donne-form .hand[data-joueur='{name}'] .points-input")
                hand.fill(str(number + 2))
        page.locator("#donne-save").click()
        page.locator("#marque tr.queued.provisional").nth(number - 1).wait_for()
        totals.append(float(page.evaluate("document.body.dataset.provisionalMs")))
    relay.start()
    return {
        "worker_ready_ms": round(statistics.median(ready)),
        "worker_ready_all_ms": [round(t) for t in ready],
        "donne_to_totals_ms": round(statistics.median(totals)),
        "donne_to_totals_all_ms": [round(t) for t in totals],
    }


def print_offline_engine(result: dict[str, Any]) -> None:
    kb = result["background_bytes"] / 1024
    print(f"\nThe engine on the phone: {kb:.0f} KB fetched in the background (gzip/br);")
    print(
        f"worker ready offline {result['worker_ready_ms']} ms (median of {LOADS} loads),"
        f" 'Noter la donne' offline to new totals {result['donne_to_totals_ms']} ms"
        f" (median of {DONNES} donnes)"
    )


def main() -> None:
    from bench.serving import free_port, prepare, start_server, stop_server, test_client

    prepare()
    from bench.app import User

    owner = User.objects.create_user("banc-hors-ligne", password="x-" + os.urandom(8).hex())
    partie = services.partie_create(
        owner=owner, name="Banc écritures", preset="classique", joueurs=NAMES[:4]
    )
    client, cookies = test_client(owner, f"/parties/{partie.pk}/")
    port = free_port()
    server = start_server(port)
    try:
        world = World(client, cookies, {}, partie)
        result = measure_offline_engine(world, port)
        print(json.dumps(result, indent=2))
        print_offline_engine(result)
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()

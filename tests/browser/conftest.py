"""Playwright driving Debian's Chromium against pytest-django's live_server, at phone size."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Playwright's sync API runs an event loop in the test thread; the ORM calls that the
# tests make there are ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    if not shutil.which(CHROMIUM):
        message = "Chromium is missing: install it with `apt-get install -y chromium`."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class InFlight:
    """The live server's application, counting the requests it is still answering."""

    def __init__(self, app) -> None:
        self.app = app
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.count += 1
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.count -= 1


@pytest.fixture(autouse=True)
def _live_server_quiet_before_flush(request, _django_db_helper) -> Iterator[None]:
    """After a test, wait for the live server to finish the requests a closed page left it
    (a poll, the service worker's refresh) before the database is emptied: on PostgreSQL the
    flush's TRUNCATE and a query still running deadlock, the flush fails and the next test
    finds the last one's accounts. Set up after the database, so torn down before its flush."""
    if "live_server" not in request.fixturenames:
        yield
        return
    httpd = request.getfixturevalue("live_server").thread.httpd
    if not isinstance(httpd.get_app(), InFlight):
        httpd.set_app(InFlight(httpd.get_app()))
    yield
    deadline = time.monotonic() + 10
    while httpd.get_app().count and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    report = yield
    if report.when == "call":
        item.call_failed = report.failed
    return report


# What the page showed when a test failed, for a failure seen only in CI: where it was, what
# served it, what its status lines said, and what its scripts logged.
STATE_OF_THE_PAGE = """() => ({
    url: location.href,
    body: Object.assign({}, document.body.dataset),
    status: Array.from(document.querySelectorAll(
        "[role=status], [role=alert], .alert, .offline-banner"
    )).map(el => (el.id || el.className) + ": " + el.innerText.trim()).filter(Boolean),
    worker: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
})"""


def tell_what_the_page_showed(page, console: list[str]) -> None:
    try:
        state = page.evaluate(STATE_OF_THE_PAGE)
    except Exception as error:  # noqa: BLE001 - a closed or crashed page says why
        state = f"(page unreadable: {error})"
    print("The page when the test failed:", state)
    print("Its console and answers:", *console[-40:], sep="\n  ")


def answered(console: list[str], response) -> None:
    if "/static/" not in response.url:
        console.append(f"answer: {response.request.method} {response.url} {response.status}")


@pytest.fixture
def page(request, chromium, live_server) -> Iterator[object]:
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("requestfailed", lambda r: console.append(f"failed: {r.method} {r.url} {r.failure}"))
    page.on("response", lambda r: answered(console, r))
    yield page
    if getattr(request.node, "call_failed", False):
        tell_what_the_page_showed(page, console)
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a phone-size screenshot in the ignored screenshots/ folder, to look at."""

    def take(name: str, *, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take

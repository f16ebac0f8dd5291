"""The scoreboard's totals as the page shows them, and a wait for the expected ones: the page
may draw them a moment after the row it tested for (the engine replays offline in a Web
Worker, htmx swaps online), so a test waits for the totals rather than reading them once."""

from __future__ import annotations

import contextlib

from playwright.sync_api import Error as PlaywrightError

READ = """() => Object.fromEntries(Array.from(document.querySelectorAll("#scoreboard li.player"))
    .map(li => [li.dataset.joueur, Number(li.querySelector(".total").dataset.total)]))"""


def totals(page) -> dict[str, int]:
    return page.evaluate(READ)


def expect_totals(page, expected: dict[str, int], *, timeout: float = 20_000) -> None:
    """Wait until the scoreboard shows exactly these totals; on timeout, fail with the diff."""
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(
            f"expected => JSON.stringify(({READ})()) === JSON.stringify(expected)",
            arg=expected,
            timeout=timeout,
        )
    assert totals(page) == expected

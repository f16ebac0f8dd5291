"""Bytes sent for each partie page, compressed: the HTML gzipped here as a proxy would (Django's
GZipMiddleware level; the app does not gzip its HTML), the CSS and JavaScript as whitenoise
serves them to ``Accept-Encoding: gzip, br``."""

from __future__ import annotations

import gzip
import re
from typing import Any

from bench.parties import World
from bench.serving import Http, check

GZIP_LEVEL = 6  # GZipMiddleware's


def measure_sizes(world: World, port: int) -> dict[str, Any]:
    """By partie key: the HTML, its gzip, its CSS and JavaScript; under "assets", each CSS or
    JavaScript file's encoding and bytes."""
    http_client = Http(port, world.cookies)
    sizes: dict[str, Any] = {}
    assets: dict[str, dict[str, Any]] = {}
    for key, partie in world.parties.items():
        status, _h, body = http_client.request("GET", f"/parties/{partie.pk}/")
        check(status, 200, "page for sizes")
        html = body.decode()
        urls = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        urls += re.findall(r'<script src="([^"]+)"', html)
        for url in urls:
            if url not in assets:
                status, headers, content = http_client.request(
                    "GET", url, **{"Accept-Encoding": "gzip, br"}
                )
                check(status, 200, url)
                assets[url] = {
                    "encoding": headers.get("Content-Encoding", "identity"),
                    "bytes": len(content),
                }
        html_gz = len(gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0))
        static = sum(assets[url]["bytes"] for url in urls)
        sizes[key] = {
            "html_bytes": len(body),
            "html_gzip_bytes": html_gz,
            "static_bytes": static,
            "total_bytes": html_gz + static,
            "assets": urls,
        }
    sizes["assets"] = assets
    return sizes

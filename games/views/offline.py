"""What lets the phone keep the marque when the wifi drops (docs/decisions.md
"Offline"): the web app manifest, the service worker, the page shown for a page never
opened before, and a fresh CSRF token for the queue of donnes sent on reconnection."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render, resolve_url
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.offline_record import background_files, pyodide_version

# Kept by the service worker when it installs: the shell of every page. Other static files
# (a chart's script, the sheet's stylesheet) are kept the first time they are fetched.
SHELL = [
    "vendor/bootstrap/bootstrap.min.css",
    "css/ramiscore.css",
    "css/table.css",
    "js/theme.js",
    "js/ramiscore.js",
    "js/keep-awake.js",
    "js/share.js",
    "js/fullscreen.js",
    "js/queue.js",
    "js/offline.js",
    "js/provisional.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
    "icons/icon-192.png",
]
ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
]
THEME = "#14532d"  # the felt of the navbar (static/css/ramiscore.css)


SAMPLE = 987654321


def _pattern(name: str, *args: int) -> str:
    """The regular expression (JavaScript's) of a URL's path, its pk any number."""
    return "^" + re.escape(reverse(name, args=args)).replace(str(SAMPLE), r"\d+") + "$"


@cache
def _worker_source() -> str:
    path = finders.find("js/sw.js")
    with open(path, encoding="utf-8") as source:
        return source.read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js, from the site root so that it controls every page, with what it
    must know about this deployment (the hashed static names) written in front. Its version
    changes with them: a new deployment installs a new worker."""
    config = {
        "shell": [static(name) for name in SHELL],
        "queue": static("js/queue.js"),
        # The prefix, not static(""): the manifest storage of production has no entry for
        # "" and raises, where the development storage answers the prefix.
        "static": settings.STATIC_URL,
        "offline": reverse("offline"),
        # Pyodide and the engine, fetched after the page is interactive (static/js/sw-engine.js).
        "engine": {
            "script": static("js/sw-engine.js"),
            "files": background_files(),
            "cache": f"ramiscore-engine-{pyodide_version()}",
        },
        # The pages kept as last seen: the home page and each partie's page.
        "pages": [_pattern("home"), _pattern("partie_detail", SAMPLE)],
    }
    source = _worker_source()
    version = hashlib.sha256((json.dumps(config) + source).encode()).hexdigest()[:12]
    config["version"] = version
    body = f"self.RAMISCORE = {json.dumps(config)};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit: never an old one from a cache.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: ramiscore on the home screen, opened without the browser bar."""
    data = {
        "name": "ramiscore",
        "short_name": "ramiscore",
        "description": _("La marque du rami, tenue sur un téléphone."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": THEME,
        "icons": [
            {"src": static(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for src, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker, offline, for a page this phone never opened."""
    return render(request, "offline.html")


@never_cache
@require_GET
def csrf_token(request: HttpRequest) -> JsonResponse:
    """A fresh CSRF token for the queue of donnes (its page may be hours old); 401 with the
    login address when the session has expired: the queue then waits for the login."""
    if not request.user.is_authenticated:
        return JsonResponse({"login": resolve_url("login")}, status=401)
    # The account: the queue sends only the donnes typed under it (static/js/queue.js).
    return JsonResponse({"csrf": get_token(request), "account": request.user.pk})

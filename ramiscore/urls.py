from __future__ import annotations

from django.urls import include, path

from games.views import offline

urlpatterns = [
    # From the root: a service worker controls only the pages under its own path.
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("hors-ligne/", offline.offline, name="offline"),
    path("jeton/", offline.csrf_token, name="csrf_token"),
    path("", include("games.urls")),
    # The language switch of the ⚙ menu (set_language, a POST with the CSRF token).
    path("i18n/", include("django.conf.urls.i18n")),
]

# The database lost outside a view (a middleware reading the session): 503, not 500.
handler500 = "ramiscore.unavailable.server_error"

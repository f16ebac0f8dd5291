"""The Statistiques page: the account's habitués across their finished parties."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from games.display.statistics import PERIODS, Filters, build_statistics
from games.scoring import PRESETS
from games.selectors import statistics_parties


@login_required
@never_cache
def statistics(request: HttpRequest) -> HttpResponse:
    filters = Filters.from_query(request.GET)
    parties = statistics_parties(request.user, preset=filters.preset, since=filters.since())
    context = {
        "stats": build_statistics(filters, *parties),
        "presets": [(key, _(preset.label)) for key, preset in PRESETS.items()],
        "periods": [(key, str(label)) for key, label in PERIODS.items()],
    }
    return render(request, "games/statistics.html", context)

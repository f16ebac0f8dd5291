"""The share link of a partie and its QR code, drawn on the server."""

from __future__ import annotations

from functools import lru_cache

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.models import Partie

register = template.Library()


@register.simple_tag(takes_context=True)
def share_url(context, partie: Partie) -> str:
    # Absolute, so it can be copied or scanned; https behind the proxy (SECURE_PROXY_SSL_HEADER).
    return context["request"].build_absolute_uri(
        reverse("partie_follow", args=[partie.share_token])
    )


@register.simple_tag
def qr_svg(url: str) -> SafeString:
    """Inline SVG markup: no image request, no external QR service that would see the token.
    segno draws with presentation attributes only (no style=), which the CSP allows."""
    return _qr_markup(url)


@lru_cache(maxsize=512)
def _qr_markup(url: str) -> SafeString:
    # Drawing the code cost ~4 ms of every partie page; a link's code never changes.
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=4, border=2, omitsize=True, svgclass="qr-code", light="#fff")
    return mark_safe(svg)  # noqa: S308 - path data and colours only, nothing from the user

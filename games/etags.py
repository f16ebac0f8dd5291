"""If-None-Match compared as HTTP compares it: weakly (RFC 9110 §13.1.2), so that ``W/"x"``
matches ``"x"``. A compressing proxy weakens the ETags it passes on (nginx's gzip does,
deploy/nginx.conf), and a client revalidates with the ETag it was given: compared strongly,
every revalidation behind nginx would be answered whole."""

from __future__ import annotations

from django.utils.http import parse_etags


def none_match(etag: str, header: str | None) -> bool:
    """Whether ``header`` (an If-None-Match) names ``etag``, weak or strong."""
    if not header:
        return False
    return _strong(etag) in {_strong(tag) for tag in parse_etags(header)}


def _strong(tag: str) -> str:
    return tag.removeprefix("W/")

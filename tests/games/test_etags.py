"""If-None-Match compared weakly (games/etags.py): what a compressing proxy weakened still
matches, and nothing else does."""

from __future__ import annotations

import pytest

from games.etags import none_match

ETAG = '"0123456789abcdef0123456789abcdef"'


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        (ETAG, True),
        (f"W/{ETAG}", True),  # nginx's gzip passed it on weakened
        (f'"autre", W/{ETAG}', True),
        ('"0123456789abcdef0123456789abcdee"', False),
        ("0123456789abcdef0123456789abcdef", False),  # not quoted: not an ETag
        ("", False),
        (None, False),
    ],
)
def test_a_weakened_etag_matches_its_strong_one(header: str | None, matches: bool) -> None:
    assert none_match(ETAG, header) is matches
    assert none_match(f"W/{ETAG}", header) is matches

"""HTML to PDF with WeasyPrint (Debian's Pango underneath; see README.md)."""

from __future__ import annotations


def _no_fetch(url: str, *args, **kwargs):
    # The sheet inlines its stylesheet and its chart: nothing is ever fetched, so a name typed
    # by a player can never make the server request a URL.
    raise ValueError(f"ramiscore's PDF fetches nothing ({url})")


def html_to_pdf(html: str) -> bytes:
    import weasyprint  # imported here: it loads Pango, which only the PDF views need

    return weasyprint.HTML(string=html, url_fetcher=_no_fetch).write_pdf()

"""HTML to PDF with WeasyPrint (Debian's Pango underneath; see README.md)."""

from __future__ import annotations

from django.contrib.staticfiles import finders


def _no_fetch(url: str, *args, **kwargs):
    # The stylesheet is handed over and the chart is inline: nothing is ever fetched, so a
    # name typed by a player can never make the server request a URL.
    raise ValueError(f"ramiscore's PDF fetches nothing ({url})")


def html_to_pdf(html: str) -> bytes:
    import weasyprint  # imported here: it loads Pango, which only the PDF views need

    stylesheet = weasyprint.CSS(filename=finders.find("css/sheet.css"), url_fetcher=_no_fetch)
    return weasyprint.HTML(string=html, url_fetcher=_no_fetch).write_pdf(stylesheets=[stylesheet])

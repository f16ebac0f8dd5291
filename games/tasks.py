"""Work done outside the requests, by the task runner (django-tasks, its database backend and
`manage.py db_worker`; docs/decisions.md "PDFs off the request path").

A partie's PDF is rendered when first asked for, then again as soon as each later write to
the partie is committed, so that a request only ever serves a finished file: a long partie's
render takes seconds of CPU, which no web worker may spend (games/views/sheet_cache.py
answers "en préparation" meanwhile). A partie nobody asked the PDF of costs no render."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import cache_places, sheet_files
from games.models import Partie
from games.render_slots import render_slot

try:  # Django 6 has the framework itself; 5.2 has its backport.
    from django.tasks import task
except ImportError:
    from django_tasks import task

log = logging.getLogger(__name__)

# How long a render waits for a free slot (games/render_slots.py) before giving up; the next
# request for the file asks again.
SLOT_WAIT_SECONDS = 60.0


@task()
def render_sheet_pdf(partie_pk: int, language: str) -> str:
    """Render and keep the PDF of the partie's current state; what it did, for the logs."""
    with render_slot(wait=SLOT_WAIT_SECONDS) as slot:
        if slot is None:
            cache.delete(sheet_files.pending_key(partie_pk, language))
            return "busy"
        # Whatever is committed from here on asks for a render of its own.
        cache.delete(sheet_files.pending_key(partie_pk, language))
        partie = Partie.objects.filter(pk=partie_pk).first()
        if partie is None:
            return "gone"
        place = sheet_files.key("pdf", partie, language)
        if cache_places.holds(place):
            return "kept"
        pdf = sheet_files.render_pdf(partie, language)
        # Changed while it rendered: that change's own render may be kept already, and this
        # older file must not take its place (its stamp is no use to any read now).
        now = Partie.objects.filter(pk=partie_pk).first()
        if now is None or sheet_files.key("pdf", now, language) != place:
            return "outdated"
        cache_places.keep(place, pdf, sheet_files.KEPT_SECONDS)
        return "rendered"


def render_if_wanted(partie_pk: int, language: str) -> bool:
    """After a write: a new render if someone asked this partie's PDF lately."""
    return sheet_files.is_wanted(partie_pk, language) and ask_render(partie_pk, language)


def ask_render(partie_pk: int, language: str) -> bool:
    """Queue a render unless one is already waiting; True when one was queued."""
    if not sheet_files.mark_pending(partie_pk, language):
        return False
    try:
        render_sheet_pdf.enqueue(partie_pk, language)
    except Exception:
        cache.delete(sheet_files.pending_key(partie_pk, language))
        raise
    return True


@receiver(post_save, sender=Partie, dispatch_uid="games.tasks.render_on_change")
def render_on_change(sender, instance: Partie, created: bool, raw: bool = False, **kwargs):
    """Every service write saves the partie (its updated_at, or its revision): once that is
    committed, its new PDF is queued in the site's language if it is wanted. A failure to
    queue is logged, never turned into an error for a write that is already stored
    (robust=True)."""
    if raw or not settings.PDF_RENDER_ON_CHANGE:
        return
    pk = instance.pk
    transaction.on_commit(lambda: render_if_wanted(pk, settings.LANGUAGE_CODE), robust=True)

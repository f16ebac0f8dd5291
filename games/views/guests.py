"""Play first, sign up later (games/services/guests.py): the guest made by the first
"Nouvelle partie" without an account, and "Garder mes parties", its claim."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games import services
from games.login_limits import SIGNUP, client_ip, remember_device
from games.models import Partie
from games.services.guests import guest_expires, is_guest
from games.throttle import Limit, minutes, take
from games.views.accounts import SIGNUP_FORM

# Guests made from one address: as many as accounts (the sign-up's limit), in a bucket of their
# own, so that neither way of making an account is a way around the other's limit.
GUEST = Limit("guest-address", capacity=SIGNUP.capacity, seconds=SIGNUP.seconds)


def guest_refused(request: HttpRequest) -> str | None:
    """None when this address may make one more guest (and counts it), else the message."""
    wait = take(GUEST.bucket(client_ip(request)))
    if not wait:
        return None
    n = minutes(wait)
    return ngettext(
        "Trop de parties sans compte commencées depuis cette adresse : réessayez dans "
        "%(n)s minute, ou créez un compte.",
        "Trop de parties sans compte commencées depuis cette adresse : réessayez dans "
        "%(n)s minutes, ou créez un compte.",
        n,
    ) % {"n": n}


def guest_login(request: HttpRequest, partie: Partie) -> None:
    """This browser is the new guest, for as long as its parties are kept."""
    guest = partie.owner
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    request.session.set_expiry(guest_expires(guest))


@login_required
@require_http_methods(["GET", "POST"])
def guest_claim(request: HttpRequest) -> HttpResponse:
    """ "Garder mes parties": the sign-up form, for the guest's own row."""
    if not is_guest(request.user):
        return redirect("home")
    # A copy: an invalid form writes the username it was given on its instance.
    guest = get_user_model().objects.get(pk=request.user.pk)
    form = SIGNUP_FORM(request.POST or None, instance=guest, initial={"username": ""})
    if request.method == "POST" and form.is_valid():
        user = services.guest_claim(guest=guest, form=form)
        if user is None:
            return redirect("home")
        update_session_auth_hash(request, user)  # the new password: this session stays
        request.session.set_expiry(None)  # an account's session, no longer the guest's
        messages.success(
            request,
            _("Compte %(name)s créé : vos parties sont gardées.") % {"name": user.get_username()},
        )
        response = redirect("home")
        remember_device(response, user)
        return response
    context = {"form": form, "expires": guest_expires(request.user)}
    return render(request, "registration/guest_claim.html", context)

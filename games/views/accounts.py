"""Sign-up and login, each with its limits (games/login_limits.py)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games.forms.accounts import LoginForm, SignupForm
from games.login_limits import SIGNUP, client_ip, remember_device
from games.services.accounts import create_account
from games.services.guests import is_guest
from games.throttle import minutes, take

# The sign-up form, also the one that turns a guest into an account (games/views/guests.py):
# whatever it checks of a username or a password, a claimed guest is checked the same way.
SIGNUP_FORM = SignupForm


class LoginView(auth_views.LoginView):
    authentication_form = LoginForm

    def form_valid(self, form: LoginForm) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(response, form.get_user())
        return response

    def form_invalid(self, form: LoginForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many"):
            response.status_code = 429
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if is_guest(request.user):  # a new account would leave the guest's parties behind
        return redirect("guest_claim")
    form = SIGNUP_FORM(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        # Counted per address, only for an account about to be created: a typo costs nothing.
        wait = take(SIGNUP.bucket(client_ip(request)))
        if not wait:
            user = create_account(form)
            if user is None:
                # The name was taken meanwhile: the form says so next to the field.
                return render(request, "registration/signup.html", {"form": form})
            login(request, user)
            response = redirect("partie_new")
            remember_device(response, user)
            return response
        n = minutes(wait)
        message = ngettext(
            "Trop de comptes créés depuis cette adresse : réessayez dans %(n)s minute.",
            "Trop de comptes créés depuis cette adresse : réessayez dans %(n)s minutes.",
            n,
        )
        form.add_error(None, message % {"n": n})
        status = 429
    return render(request, "registration/signup.html", {"form": form}, status=status)

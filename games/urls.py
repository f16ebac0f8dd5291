from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from games import views
from games.login import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("comptes/inscription/", views.signup, name="signup"),
    path(
        "comptes/connexion/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("comptes/deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "comptes/mot-de-passe/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "comptes/mot-de-passe/change/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("parties/nouvelle/", views.partie_new, name="partie_new"),
    path("parties/<int:pk>/", views.partie_detail, name="partie_detail"),
    path("parties/<int:pk>/donnes/", views.donne_create, name="donne_create"),
    path("parties/<int:pk>/donnes/apercu/", views.donne_preview, name="donne_preview"),
    path("parties/<int:pk>/donnes/<int:number>/", views.donne_edit, name="donne_edit"),
    path(
        "parties/<int:pk>/donnes/<int:number>/supprimer/",
        views.donne_delete,
        name="donne_delete",
    ),
    path("parties/<int:pk>/rachats/<int:joueur_pk>/", views.rachat_decide, name="rachat_decide"),
    path("parties/<int:pk>/terminer/", views.partie_close, name="partie_close"),
    path("parties/<int:pk>/rouvrir/", views.partie_reopen, name="partie_reopen"),
    path("parties/<int:pk>/partage/", views.partie_share, name="partie_share"),
    path("parties/<int:pk>/partage/revoquer/", views.partie_unshare, name="partie_unshare"),
    path("suivre/<str:token>/", views.partie_follow, name="partie_follow"),
]

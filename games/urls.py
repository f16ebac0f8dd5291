from __future__ import annotations

from django.urls import include, path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("comptes/inscription/", views.signup, name="signup"),
    path("comptes/", include("django.contrib.auth.urls")),
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
    path(
        "parties/<int:pk>/rachats/<int:joueur_pk>/", views.rachat_decide, name="rachat_decide"
    ),
    path("parties/<int:pk>/terminer/", views.partie_close, name="partie_close"),
    path("parties/<int:pk>/rouvrir/", views.partie_reopen, name="partie_reopen"),
]

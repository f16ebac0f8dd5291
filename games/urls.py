from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.generic import RedirectView

from games.forms.accounts import GuardedPasswordChangeForm
from games.views import (
    accounts,
    donnes,
    files,
    guests,
    habitues,
    money,
    parties,
    sharing,
    sheet,
    statistics,
)
from games.views.health import health
from games.views.offline_sync import close_queued, rachat_queued, rematch_queued
from games.views.result_picture import partie_result_png

urlpatterns = [
    path("", parties.home, name="home"),
    path("sante/", health, name="health"),
    path("comptes/inscription/", accounts.signup, name="signup"),
    path("comptes/garder/", guests.guest_claim, name="guest_claim"),
    path("comptes/connexion/", accounts.LoginView.as_view(), name="login"),
    path("comptes/deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "comptes/mot-de-passe/",
        auth_views.PasswordChangeView.as_view(form_class=GuardedPasswordChangeForm),
        name="password_change",
    ),
    path(
        "comptes/mot-de-passe/change/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("parties/", parties.partie_list, name="partie_list"),
    path("parties/nouvelle/", parties.partie_new, name="partie_new"),
    path("parties/importer/", files.partie_import, name="partie_import"),
    path("parties/marque-vierge.pdf", sheet.blank_sheet_pdf, name="blank_sheet_pdf"),
    path("parties/<int:pk>/", parties.partie_detail, name="partie_detail"),
    path("parties/<int:pk>/donnes/", donnes.donne_create, name="donne_create"),
    path("parties/<int:pk>/donnes/apercu/", donnes.donne_preview, name="donne_preview"),
    path("parties/<int:pk>/donnes/<int:number>/", donnes.donne_edit, name="donne_edit"),
    path(
        "parties/<int:pk>/donnes/<int:number>/supprimer/",
        donnes.donne_delete,
        name="donne_delete",
    ),
    path("parties/<int:pk>/rachats/<int:joueur_pk>/", donnes.rachat_decide, name="rachat_decide"),
    path(
        "parties/<int:pk>/donnes/<int:number>/rachats/<int:joueur_pk>/",
        donnes.rachat_change,
        name="rachat_change",
    ),
    path("parties/<int:pk>/terminer/", parties.partie_close, name="partie_close"),
    # The phone's offline queue: its decisions, in order with its donnes.
    path(
        "parties/<int:pk>/hors-ligne/rachats/<int:joueur_pk>/",
        rachat_queued,
        name="rachat_queued",
    ),
    path("parties/<int:pk>/hors-ligne/terminer/", close_queued, name="close_queued"),
    path("parties/<int:pk>/hors-ligne/rejouer/", rematch_queued, name="rematch_queued"),
    path("parties/<int:pk>/rouvrir/", parties.partie_reopen, name="partie_reopen"),
    path("parties/<int:pk>/note/", parties.partie_note, name="partie_note"),
    path("habitues/", habitues.habitues, name="habitues"),
    path("habitues/<int:pk>/renommer/", habitues.habitue_rename, name="habitue_rename"),
    path("habitues/<int:pk>/fusionner/", habitues.habitue_merge, name="habitue_merge"),
    path("statistiques/", statistics.statistics, name="statistics"),
    path("parties/<int:pk>/argent/", money.partie_money, name="partie_money"),
    path("parties/<int:pk>/argent/mises/<int:joueur_pk>/", money.mise_paid, name="mise_paid"),
    path("parties/<int:pk>/argent/rachats/<int:rachat_pk>/", money.rachat_paid, name="rachat_paid"),
    path("comptes/sauvegarde.json", files.backup_download, name="backup_download"),
    path("argent/", money.evenings, name="evenings_money"),
    # Its address until the money left /comptes/ (the accounts' own pages): bookmarks keep working.
    path("comptes/argent/", RedirectView.as_view(pattern_name="evenings_money", permanent=True)),
    path("parties/<int:pk>/marque/", sheet.partie_sheet, name="partie_sheet"),
    path("parties/<int:pk>/courbe/", sheet.partie_chart, name="partie_chart"),
    path("parties/<int:pk>/marque.pdf", sheet.partie_sheet_pdf, name="partie_sheet_pdf"),
    path("parties/<int:pk>/resultat.png", partie_result_png, name="partie_result_png"),
    path("parties/<int:pk>/export.csv", files.partie_export_csv, name="partie_export_csv"),
    path("parties/<int:pk>/export.json", files.partie_export_json, name="partie_export_json"),
    path("parties/<int:pk>/partage/", sharing.partie_share, name="partie_share"),
    path("parties/<int:pk>/partage/revoquer/", sharing.partie_unshare, name="partie_unshare"),
    path("suivre/<str:token>/", sharing.partie_follow, name="partie_follow"),
    path("suivre/<str:token>/courbe/", sharing.partie_follow_chart, name="partie_follow_chart"),
]

"""Tournament pages; the player-results fragment is embedded by the public player page."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("players/<str:name>/results/", views.player_results, name="player-results"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/ledger/", views.tournament_ledger, name="ledger"),
    path("<int:tournament_id>/lobby/", views.lobby, name="lobby"),
    path(
        "<int:tournament_id>/tables/<int:table_id>/banner/",
        views.table_banner,
        name="table-banner",
    ),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="unregister"),
]

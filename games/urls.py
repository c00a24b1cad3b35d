from django.urls import path

from games import views
from games.ratings import leaderboard_views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:preset>/", views.rules_preset, name="rules_preset"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("tables/join/<str:token>/", views.table_invite, name="table_invite"),
    path("tables/<int:table_id>/join/", views.seat_join, name="seat_join"),
    path("tables/<int:table_id>/seat/", views.seat_change, name="seat_change"),
    path("tables/<int:table_id>/leave/", views.seat_leave, name="seat_leave"),
    path("tables/<int:table_id>/back/", views.seat_back, name="seat_back"),
    path("tables/<int:table_id>/ready/", views.hand_ready, name="hand_ready"),
    path("tables/<int:table_id>/bot/", views.seat_bot, name="seat_bot"),
    path("tables/<int:table_id>/remove/", views.seat_remove, name="seat_remove"),
    path("tables/<int:table_id>/start/", views.table_start, name="table_start"),
    path("chat/mute/<int:user_id>/", views.chat_mute, name="chat_mute"),
    path("chat/report/<int:message_id>/", views.chat_report, name="chat_report"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/review/", views.game_review_request, name="game_review_request"),
    path("leaderboards/", leaderboard_views.leaderboard_index, name="leaderboards"),
    path("leaderboards/<str:board>/", leaderboard_views.leaderboard, name="leaderboard"),
    path(
        "leaderboards/<str:board>.json",
        leaderboard_views.leaderboard_json,
        name="leaderboard_json",
    ),
    path("players/<path:name>/", leaderboard_views.player_detail, name="player_detail"),
]

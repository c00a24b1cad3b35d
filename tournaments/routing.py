"""WebSocket routes of the tournaments app; config/routing.py gathers them."""

from django.urls import path

from tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
]

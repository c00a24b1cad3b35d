"""WebSocket URL routes of every app, gathered for config/asgi.py."""

from accounts.routing import websocket_urlpatterns as accounts_websocket_urlpatterns
from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns = [
    *accounts_websocket_urlpatterns,
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
]

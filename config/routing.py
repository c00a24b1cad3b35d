"""WebSocket URL routes of every app, gathered for config/asgi.py."""

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns = [*games_websocket_urlpatterns, *tournaments_websocket_urlpatterns]

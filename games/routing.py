"""WebSocket routes of the games app; config/routing.py gathers them."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

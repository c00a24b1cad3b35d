"""WebSocket routes of the accounts app; config/routing.py gathers them."""

from django.urls import path

from accounts import consumers

websocket_urlpatterns = [
    path("ws/notices/", consumers.NoticeConsumer.as_asgi()),
]

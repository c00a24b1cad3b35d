"""Tournament pages arrive with the tournaments issue; the nav link appears with them."""

from django.urls import URLPattern

app_name = "tournaments"

urlpatterns: list[URLPattern] = []

"""The site's routes plus one that fails, to see the 500 page and its log line."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def explode(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the dealer dropped the deck")


urlpatterns = [path("explode/", explode), *site_urlpatterns]

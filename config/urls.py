"""Top-level routes. Each app owns its URLs; the error pages are templates/404.html etc."""

from django.contrib import admin
from django.urls import include, path

from config.healthz import healthz

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]

# The 400 page adds the security headers itself (a bad Host skips the middleware that would).
handler400 = "config.error_views.bad_request"

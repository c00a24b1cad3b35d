"""The socket handshake's Origin check: exactly what Django's CSRF check accepts for a form.

Channels' AllowedHostsOriginValidator compares only the Origin's host name with
ALLOWED_HOSTS, so `http://127.0.0.1:9999` passed on a site served at `https://127.0.0.1`:
another scheme or port is another origin to a browser (another site, maybe another
user's). Here the handshake is put to Django's own CsrfViewMiddleware origin test as if it
were a form post: the Origin must be the request's own scheme, host and port (the scheme
from the socket, or from X-Forwarded-Proto where SECURE_PROXY_SSL_HEADER trusts it and the
peer is a trusted proxy, just like a page: config/client_address.py), or be listed in
CSRF_TRUSTED_ORIGINS; and the Host must be one of ALLOWED_HOSTS, as for any page. A
handshake without an Origin is refused (a browser always sends one), as before.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

from config.client_address import FORWARDED_PROTO, from_trusted_proxy


class _Handshake(HttpRequest):
    """The handshake seen as a request: its headers as META, its scheme from the socket."""

    def __init__(self, scope: dict[str, Any]) -> None:
        super().__init__()
        self.method = "GET"
        self.path = self.path_info = scope.get("path", "")
        # As Django's ASGIRequest does: the host of a request without a Host header.
        server = scope.get("server") or ("unknown", "0")
        self.META["SERVER_NAME"], self.META["SERVER_PORT"] = str(server[0]), str(server[1])
        for raw_name, raw_value in scope.get("headers", []):
            name = raw_name.decode("latin1").upper().replace("-", "_")
            key = name if name in {"CONTENT_TYPE", "CONTENT_LENGTH"} else f"HTTP_{name}"
            value = raw_value.decode("latin1")
            self.META[key] = f"{self.META[key]},{value}" if key in self.META else value
        self._socket_secure = scope.get("scheme") in {"wss", "https"}
        if not from_trusted_proxy((scope.get("client") or (None, None))[0]):
            # As ForwardedForFromTrustedProxiesOnly does for pages.
            self.META.pop(FORWARDED_PROTO, None)

    def _get_scheme(self) -> str:
        return "https" if self._socket_secure else "http"


def _never_called(request: HttpRequest) -> HttpResponse:  # pragma: no cover
    raise AssertionError("the origin check only asks, it never serves")


def origin_accepted(scope: dict[str, Any]) -> bool:
    """Django's own test (a private method, pinned by tests/security/test_socket_origin.py),
    after the Host check every page gets first (CommonMiddleware's 400)."""
    request = _Handshake(scope)
    if "HTTP_ORIGIN" not in request.META:
        return False
    try:
        request.get_host()
    except DisallowedHost:
        return False
    # A new instance each time: it caches CSRF_TRUSTED_ORIGINS, which tests override.
    return bool(CsrfViewMiddleware(_never_called)._origin_verified(request))


class CsrfOriginValidator:
    """ASGI middleware for the websocket router: refuses the handshake (HTTP 403) unless
    `origin_accepted`."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("CsrfOriginValidator guards WebSocket connections only")
        if origin_accepted(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

"""Who is on the other end: the one place the client's address is worked out.

Daphne runs without `--proxy-headers` (config/Procfile): its own rule takes the leftmost
X-Forwarded-For entry from any peer, which a client writes itself. So `REMOTE_ADDR` is
always the TCP peer, and the client behind a proxy is read by django-ipware (with the
`AXES_IPWARE_*` settings) from the right end of X-Forwarded-For, which only the proxies
write. The header counts only when the peer is one of `TRUSTED_PROXIES`: the middleware
below drops it from anyone else before axes or a view sees it. X-Forwarded-Proto, which
`SECURE_PROXY_SSL_HEADER` believes in production (HTTPS redirect, secure CSRF checks), is
dropped from the same untrusted peers: a client reaching Daphne directly cannot call its
plain-HTTP request secure. (Sockets use no client address.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse

FORWARDED_FOR = "HTTP_X_FORWARDED_FOR"
FORWARDED_PROTO = "HTTP_X_FORWARDED_PROTO"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def is_trusted_proxy(peer: str | None, networks: Iterable[Network]) -> bool:
    if not peer:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


def from_trusted_proxy(peer: str | None) -> bool:
    """Whether the headers a proxy writes count for a request or handshake from ``peer``:
    never while `PROXY_COUNT` is 0, otherwise only from `TRUSTED_PROXIES`."""
    return settings.PROXY_COUNT > 0 and is_trusted_proxy(peer, settings.TRUSTED_PROXY_NETWORKS)


class ForwardedForFromTrustedProxiesOnly:
    """Drops X-Forwarded-For and X-Forwarded-Proto unless the peer is a trusted proxy
    (always when `PROXY_COUNT` is 0) and trims X-Forwarded-For to the proxies' own entries,
    so no client can choose the address it is throttled by, nor claim HTTPS it did not
    use. First in MIDDLEWARE (before SecurityMiddleware's redirect), so
    axes and everything after it see the same request; works for sync and async views."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.is_async:
            return self.__acall__(request)  # type: ignore[return-value]
        self._clean(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        self._clean(request)
        return await self.get_response(request)  # type: ignore[misc,no-any-return]

    @staticmethod
    def _clean(request: HttpRequest) -> None:
        """Keep only the entries the proxies wrote: the rightmost PROXY_COUNT. Whatever
        the client sent is on their left, and may be anything (a lone quote makes ipware
        give up on the whole header)."""
        if not from_trusted_proxy(request.META.get("REMOTE_ADDR")):
            request.META.pop(FORWARDED_FOR, None)
            request.META.pop(FORWARDED_PROTO, None)
            return
        forwarded = request.META.get(FORWARDED_FOR)
        if forwarded is None:
            return
        ours = [entry.strip() for entry in forwarded.split(",")][-settings.PROXY_COUNT :]
        request.META[FORWARDED_FOR] = ", ".join(ours)


def client_address(request: HttpRequest) -> str:
    """The address login throttling counts, also written in the access log."""
    from axes.helpers import get_client_ip_address

    return get_client_ip_address(request) or request.META.get("REMOTE_ADDR", "")

"""The Content-Security-Policy header (Django 5.2 has none of its own).

Every script and style comes from our own static files (no inline scripts, handlers or
style attributes: docs/development.md), so the policy allows only 'self'. Sockets connect
to the page's own host; CSP level 3 counts ws:/wss: there as 'self', older browsers need
them named, so the host is added per request.
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy_for(request: HttpRequest) -> str:
    """The policy; for a request whose Host is not allowed (the 400 page), without the
    socket hosts, since that host must not be named (and asking for it raises)."""
    policy: str = settings.CONTENT_SECURITY_POLICY
    if not policy:
        return ""
    try:
        host = request.get_host()
    except DisallowedHost:
        return policy
    return policy.replace("connect-src 'self'", f"connect-src 'self' wss://{host} ws://{host}")


class ContentSecurityPolicyMiddleware:
    """Adds the policy to every response that has none; works for sync and async views."""

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
        return self._add(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)  # type: ignore[misc]
        return self._add(request, response)

    @staticmethod
    def _add(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        policy = policy_for(request)
        if policy and HEADER not in response:
            response[HEADER] = policy
        return response

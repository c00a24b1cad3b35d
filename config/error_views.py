"""The 400 page, with every security header the other pages carry.

A bad Host header is refused by whichever middleware asks for the host first (the SSL
redirect, CommonMiddleware), and the 400 page then skips the middleware that would have
added the Content-Security-Policy, X-Frame-Options and the rest. So the page adds them
itself, through the same middleware code (each adds only what is missing).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.views import defaults

from config.csp import ContentSecurityPolicyMiddleware


def _unused(request: HttpRequest) -> HttpResponse:  # pragma: no cover
    raise AssertionError("only the middleware's response step is used")


def bad_request(
    request: HttpRequest, exception: Exception | None = None, **kwargs: Any
) -> HttpResponse:
    response = defaults.bad_request(request, exception, **kwargs)
    response = SecurityMiddleware(_unused).process_response(request, response)
    response = XFrameOptionsMiddleware(_unused).process_response(request, response)
    return ContentSecurityPolicyMiddleware._add(request, response)

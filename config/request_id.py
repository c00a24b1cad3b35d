"""Give every request an id that appears in each log line written while serving it.

A proxy's X-Request-ID is kept (so one id follows a request across services) when it
looks sane; otherwise we make one. The id is echoed in the response header, and one JSON
access-log line per request replaces Daphne's plain-text one (run with `-v 0`).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar, Token

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from config.client_address import client_address

HEADER = "X-Request-ID"
_ACCEPTABLE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
current_request_id: ContextVar[str] = ContextVar("current_request_id", default="-")
access_logger = logging.getLogger("rummy.access")
QUIET_PATHS = frozenset({"/healthz"})  # polled every few seconds; logged at DEBUG only


def choose_request_id(incoming: str | None) -> str:
    """Keep a well-formed incoming id, else make a new one."""
    if incoming and _ACCEPTABLE.match(incoming):
        return incoming
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Works for sync and async views alike, so it never forces a thread switch."""

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
        token, started = self._start(request)
        try:
            response = self.get_response(request)
            self._finish(request, response, started)
        finally:
            current_request_id.reset(token)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        token, started = self._start(request)
        try:
            response = await self.get_response(request)  # type: ignore[misc]
            self._finish(request, response, started)
        finally:
            current_request_id.reset(token)
        return response

    @staticmethod
    def _start(request: HttpRequest) -> tuple[Token[str], float]:
        request_id = choose_request_id(request.headers.get(HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        return current_request_id.set(request_id), time.perf_counter()

    @staticmethod
    def _finish(request: HttpRequest, response: HttpResponse, started: float) -> None:
        response[HEADER] = request.request_id  # type: ignore[attr-defined]
        level = logging.DEBUG if request.path in QUIET_PATHS else logging.INFO
        access_logger.log(
            level,
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                "client": client_address(request),
            },
        )


class RequestIdFilter(logging.Filter):
    """Stamp each record with the id of the request being served ("-" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get()
        return True

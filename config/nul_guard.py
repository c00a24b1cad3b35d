"""Requests that carry a NUL character are refused with the 400 page, before any view runs.

Why: PostgreSQL cannot store or even compare a string holding NUL (psycopg raises
``ValueError``), and several views hand a path word or a query value straight to a
lookup (``/players/<name>/``, ``/tables/join/<token>/``, the leaderboard search ``?q=``):
``/players/%00/`` was a 500 on PostgreSQL, while SQLite answered 404. Forms refuse NUL
themselves, but not every value a view reads goes through a form, and no page of the
site has a use for it. One check here covers the views written later too. The table
sockets do the same for their frames (games.consumers._clean_text).
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.exceptions import BadRequest, RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, QueryDict

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def carries_nul(request: HttpRequest) -> bool:
    """A NUL in the path, or in a name or value of the query string or a posted form."""
    if NUL in request.path_info:
        return True
    if _has_nul(request.GET):
        return True
    if request.method == "POST" and request.content_type in FORM_TYPES:
        try:
            return _has_nul(request.POST)
        except (RequestDataTooBig, TooManyFieldsSent):
            # Refused where the body is read for real (the CSRF check, the view), as it
            # was before this check, and logged there only if it gets that far.
            return False
    return False


def _has_nul(params: QueryDict) -> bool:
    return any(
        NUL in key or any(NUL in value for value in values) for key, values in params.lists()
    )


class RefuseNulCharacters:
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
        _check(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        _check(request)
        return await self.get_response(request)  # type: ignore[misc, no-any-return]


def _check(request: HttpRequest) -> None:
    # Django turns BadRequest into the 400 page (config.error_views.bad_request).
    if carries_nul(request):
        raise BadRequest("A request may not contain NUL characters.")

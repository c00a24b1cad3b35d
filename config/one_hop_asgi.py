"""Django's ASGI handler, with the middleware chain and the view run in one thread call.

Why: Django's own handler builds an asynchronous middleware chain, and each of Django's
middleware then crosses to a worker thread and back for its request half and again for its
response half. One anonymous lobby page made 15 such crossings. Each crossing waits for
its turn on the event loop, which in a web process also carries hundreds of sockets, so
under load a page that costs about 2 ms of work took 60-180 ms to come back (the load
benchmark, docs/performance.md). Every view and middleware of ours is synchronous, so
running the whole chain in one crossing returns the same response and waits its turn
once. The request-started signal and the response's close keep their own crossings, as in
Django; the body is still read, and the response still sent, on the event loop.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    """Serves HTTP like `django.core.asgi.get_asgi_application()`, with fewer thread hops."""

    def load_middleware(self, is_async: bool = False) -> None:
        """Build the synchronous chain whatever the caller asks for (Django asks for async)."""
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The synchronous `get_response` (chain, view, error logging) in one thread call.

        `thread_sensitive` keeps Django's rule that sync code of one request runs on that
        request's own thread (the handler opens a ThreadSensitiveContext per request), so
        database connections are used by one thread only, as in the stock handler.
        """
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_one_hop_asgi_application() -> OneHopASGIHandler:
    """Set Django up and return the handler (as `get_asgi_application` does)."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()

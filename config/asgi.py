"""ASGI entry point: HTTP through Django, WebSockets through the apps' routes.

Django is set up before the WebSocket routes are imported, because consumers import
models. Later issues add their routes to `websocket_urlpatterns` in config/routing.py.
"""

import gc
import os

from config.one_hop_asgi import get_one_hop_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django's handler, but one thread crossing per page instead of two per middleware
# (config/one_hop_asgi.py says why).
django_asgi_app = get_one_hop_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_origin import CsrfOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin must be one Django's CSRF check accepts (config/socket_origin.py).
        "websocket": CsrfOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded by now (Django, the apps, the engine's tables) lives as long as the
# process. Frozen, it is left out of the collector's full passes, each of which otherwise
# stops every socket of the process at once: the load benchmark saw all tables' moves stall
# together for about a quarter of a second.
gc.freeze()

"""A small reverse proxy for tests that appends the peer to X-Forwarded-For, as nginx does
with `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`, and says the request
came over HTTPS (`X-Forwarded-Proto: https`, as a TLS-terminating proxy does).

Whatever X-Forwarded-For the client sends is kept on the left, so a client can put any
addresses there: only the entry the proxy appends, on the right, is the truth. Clients pick
their real address by binding to one of the loopback range (127.0.0.0/8) before connecting.
One request per connection, bodies read in full: enough for forms.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "content-length",
}


def _handler_for(upstream_port: int) -> type[BaseHTTPRequestHandler]:
    class AppendingProxyHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            headers.pop("X-Forwarded-For", None)
            headers.pop("X-Forwarded-Proto", None)
            sent = self.headers.get_all("X-Forwarded-For") or []
            peer = self.client_address[0]
            headers["X-Forwarded-For"] = ", ".join([*sent, peer])
            headers["X-Forwarded-Proto"] = "https"
            if body is not None:
                headers["Content-Length"] = str(len(body))
            upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                content = answer.read()
            finally:
                upstream.close()
            self.send_response(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_HEAD = _forward

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    return AppendingProxyHandler


@contextmanager
def appending_proxy(upstream_port: int) -> Iterator[int]:
    """Run the proxy on a free loopback port in front of `upstream_port`; yield its port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(upstream_port))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()

"""A small file server on 127.0.0.1 for the tests that download media named by address:
`/missing/…` answers 404, `/moved/…` redirects to `/media/final.png`, anything else answers
"file at <path>"."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Files(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path.startswith("/moved/"):
            self.send_response(302)
            self.send_header("Location", "/media/final.png")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path.startswith("/missing"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"file at " + self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve_files() -> Iterator[str]:
    """Runs the server for the length of a fixture; yields its base address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    port = server.server_address[1]
    server.server_close()
    return port

"""A tiny stdlib HTTP receiver on 127.0.0.1 that records what it was sent."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    body: bytes
    headers: dict[str, str]


@dataclass
class Receiver:
    url: str
    status: int = 200
    answer: bytes = b'{"ok":true}'
    got: list[Received] = field(default_factory=list)


@contextmanager
def receiver(status: int = 200, answer: bytes = b'{"ok":true}') -> Iterator[Receiver]:
    state = Receiver("", status, answer)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            state.got.append(Received(self.rfile.read(length), dict(self.headers.items())))
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(state.answer)))
            self.end_headers()
            self.wfile.write(state.answer)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

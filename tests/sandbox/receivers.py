"""A real webhook receiver on 127.0.0.1 for delivery tests: scripted answers, recorded requests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class LoopbackReceiver:
    url: str = ""
    # Answers in order; the last one repeats.
    answers: list[int] = field(default_factory=lambda: [200])
    body: str = '{"ok":true}'
    delay: float = 0.0
    requests: list[Received] = field(default_factory=list)

    def script(self, *answers: int) -> None:
        self.answers = list(answers)

    def _next_answer(self) -> int:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


@contextmanager
def loopback_receiver() -> Iterator[LoopbackReceiver]:
    state = LoopbackReceiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state.requests.append(Received({k.lower(): v for k, v in self.headers.items()}, body))
            if state.delay:
                time.sleep(state.delay)
            answer = state._next_answer()
            payload = state.body.encode()
            try:
                self.send_response(answer)
                if 300 <= answer < 400:
                    self.send_header("Location", state.url + "/elsewhere")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the sender gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

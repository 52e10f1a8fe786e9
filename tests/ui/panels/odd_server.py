"""A tiny stdlib server for a deployment the demo never was: spec-valid but odd data (nulls,
unknown statuses and events, huge bodies, times without offset) and missing collections."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

HOOK = "11111111-1111-4111-8111-111111111111"
ODD_HOOK = "22222222-2222-4222-8222-222222222222"
REPURPOSE = "33333333-3333-4333-8333-333333333333"
ACCOUNT = "44444444-4444-4444-8444-444444444444"
LOG_COUNT = 40
HUGE = "<html>" + "x" * 1990 + "</html>"


def _log(i: int) -> dict[str, Any]:
    base = {
        "id": f"00000000-0000-4000-8000-{i:012d}",
        "event_type": "post.published",
        "payload": {
            "id": f"00000000-0000-4000-8000-{i:012d}",
            "type": "post.published",
            "data": {"id": "p", "content": None, "platforms": None, "extra": {"deep": [1, None]}},
            "created_at": "2026-03-01T10:00:00+02:00",
        },
        "response_status": 200,
        "response_body": "",
        "delivered_at": "2026-03-01T10:00:01+02:00",
        "failed_at": None,
        "attempts": 1,
        "created_at": "2026-03-01T10:00:00+02:00",
    }
    if i % 4 == 1:  # nothing known about it at all
        base.update(
            event_type=None,
            payload=None,
            response_status=None,
            response_body=None,
            delivered_at=None,
            attempts=0,
            created_at="2026-03-01T09:00:00",
        )
    if i % 4 == 2:  # an event this client does not know, a huge HTML answer
        base.update(
            event_type="post.archived",
            response_status=503,
            response_body=HUGE,
            delivered_at=None,
            failed_at="2026-03-01T08:00:00Z",
            attempts=3,
        )
        base["payload"] = {
            "id": base["id"],
            "type": "post.archived",
            "data": {},
            "created_at": None,
        }
    return base


@dataclass
class OddState:
    base_url: str = ""
    toggled: list[str] = field(default_factory=list)
    active: bool | None = None


@contextmanager
def odd_server() -> Iterator[OddState]:
    state = OddState()

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, body: Any = None) -> None:
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            path = parts.path.removeprefix("/api")
            page = int(parse_qs(parts.query).get("page", ["1"])[0])
            if path == "/webhooks":
                self._send(
                    200,
                    [
                        {
                            "id": ODD_HOOK,
                            "endpoint": "https://hooks.example.org/" + "p" * 200,
                            "events": ["post.failed", "post.archived"],
                            "status": "suspended",
                            "last_sent_at": None,
                            "paused_at": None,
                            "consecutive_failures": 7,
                            "created_at": None,
                            "updated_at": None,
                            "note": "extra field",
                        },
                        {
                            "id": HOOK,
                            "endpoint": "https://hooks.example.org/a",
                            "events": None,
                            "status": "enabled",
                            "last_sent_at": "2026-03-01T10:00:01+02:00",
                            "paused_at": None,
                            "consecutive_failures": 0,
                        },
                    ],
                )
            elif re.fullmatch(r"/webhooks/[^/]+/logs", path):
                per = 15
                rows = [_log(i) for i in range((page - 1) * per, min(page * per, LOG_COUNT))]
                self._send(
                    200,
                    {
                        "data": rows,
                        "meta": {"current_page": page, "per_page": per, "total": LOG_COUNT},
                    },
                )
            elif path == "/social-accounts":
                self._send(
                    200,
                    [
                        {
                            "id": ACCOUNT,
                            "platform": "friendster",
                            "display_name": None,
                            "username": None,
                            "is_active": state.active,
                            "status": "suspended",
                        }
                    ],
                )
            elif path == f"/repurposes/{REPURPOSE}/items":
                self._send(
                    200,
                    {
                        "data": [
                            {
                                "id": "i1",
                                "repurpose_id": REPURPOSE,
                                "source_media_id": "v1",
                                "status": "archived",
                                "reason": "quota_exceeded",
                                "error": None,
                                "posts": None,
                                "source_created_at": None,
                                "created_at": None,
                            },
                            {
                                "id": "i2",
                                "repurpose_id": REPURPOSE,
                                "source_media_id": "v2",
                                "status": "failed",
                                "reason": "download_failed",
                                "error": "HTTP 403 [redacted]",
                                "posts": [],
                                "created_at": None,
                            },
                        ],
                        "meta": {"current_page": 1, "per_page": 25, "total": 2},
                    },
                )
            elif path.startswith("/repurposes/"):
                self._send(403, {"message": "This action is unauthorized."})
            else:  # /labels, /signatures, /repurposes and the rest: not on this deployment
                self._send(404, {"message": "Not Found"})

        def do_PUT(self) -> None:
            path = urlsplit(self.path).path.removeprefix("/api")
            if path == f"/social-accounts/{ACCOUNT}/toggle":
                state.toggled.append(ACCOUNT)
                state.active = not state.active
                self._send(204)
            else:
                self._send(404, {"message": "Not Found"})

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/api"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

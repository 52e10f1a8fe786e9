"""Webhook receivers built into the sandbox, so the demo's webhooks live without a network.

Endpoints on `DEMO_RECEIVER_HOST` (a reserved `.example` name, so never a real machine) are
answered in-process by the delivery engine and the test ping: `/ok` always accepts, `/flaky`
refuses the first attempt of about half the deliveries (their retry succeeds), `/failing`
always answers 500. Any other path there answers 404.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

DEMO_RECEIVER_HOST = "receivers.sandbox.example"
OK_URL = f"https://{DEMO_RECEIVER_HOST}/ok"
FLAKY_URL = f"https://{DEMO_RECEIVER_HOST}/flaky"
FAILING_URL = f"https://{DEMO_RECEIVER_HOST}/failing"

_ACCEPTED = '{"received":true}'


@dataclass(frozen=True)
class Answer:
    """What a receiver said; `status` is None when nothing answered (timeout, refused...)."""

    status: int | None
    body: str | None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def is_demo_receiver(endpoint: str) -> bool:
    try:
        return (urlsplit(endpoint).hostname or "") == DEMO_RECEIVER_HOST
    except ValueError:
        return False


def _first_try_fails(envelope_id: str) -> bool:
    return hashlib.sha256(envelope_id.encode()).digest()[0] % 2 == 0


def answer(endpoint: str, envelope_id: str, attempt: int) -> Answer:
    """The built-in receiver's answer to attempt number `attempt` of delivery `envelope_id`."""
    path = urlsplit(endpoint).path.rstrip("/").split("/")
    kind = path[1] if len(path) > 1 else ""
    if kind == "ok":
        return Answer(200, _ACCEPTED)
    if kind == "flaky":
        if attempt == 1 and _first_try_fails(envelope_id):
            return Answer(503, "<html><body><h1>503 Service Unavailable</h1></body></html>")
        return Answer(200, _ACCEPTED)
    if kind == "failing":
        return Answer(500, '{"error":"Internal Server Error"}')
    return Answer(404, '{"error":"Not Found"}')

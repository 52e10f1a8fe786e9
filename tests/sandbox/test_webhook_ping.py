"""POST /webhooks/{id}/test against a real receiver on 127.0.0.1."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.harness import SandboxServer

from .conftest import client_for


@dataclass
class Receiver:
    url: str
    answer: int = 200
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(state.answer)
            if 300 <= state.answer < 400:
                self.send_header("Location", state.url + "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def private_sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "ping.db", allow_private_endpoints=True) as server:
        yield server


def _webhook(client: httpx.Client, url: str) -> dict[str, Any]:
    response = client.post("/webhooks", json={"endpoint": url, "events": ["post.created"]})
    assert response.status_code == 201
    webhook: dict[str, Any] = response.json()
    return webhook


def test_ping_is_signed_and_synchronous(private_sandbox: SandboxServer, receiver: Receiver) -> None:
    with client_for(private_sandbox) as client:
        webhook = _webhook(client, receiver.url)
        response = client.post(f"/webhooks/{webhook['id']}/test")
        assert response.status_code == 200
        assert response.json()["success"] is True
        assert response.json()["status"] == 200
        assert len(receiver.requests) == 1
        headers, body = receiver.requests[0]
        expected = hmac.new(webhook["signing_secret"].encode(), body, hashlib.sha256).hexdigest()
        assert headers["x-webhook-signature"] == expected
        assert headers["content-type"] == "application/json"
        assert headers["user-agent"]
        envelope = json.loads(body)
        assert envelope["type"] == "webhook.test"
        assert envelope["data"] == {}
        assert set(envelope) == {"id", "type", "data", "created_at"}
        # No log, no change of status or counters.
        assert client.get(f"/webhooks/{webhook['id']}/logs").json()["data"] == []
        after = client.get(f"/webhooks/{webhook['id']}").json()
        assert after["last_sent_at"] is None
        assert after["consecutive_failures"] == 0
        assert after["status"] == "enabled"


def test_ping_uses_the_rotated_secret(private_sandbox: SandboxServer, receiver: Receiver) -> None:
    with client_for(private_sandbox) as client:
        webhook = _webhook(client, receiver.url)
        secret = client.post(f"/webhooks/{webhook['id']}/rotate-secret").json()["signing_secret"]
        client.post(f"/webhooks/{webhook['id']}/test")
    headers, body = receiver.requests[0]
    assert (
        headers["x-webhook-signature"]
        == hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    )


@pytest.mark.parametrize("answer", [500, 302, 404])
def test_ping_failure_answers(
    private_sandbox: SandboxServer, receiver: Receiver, answer: int
) -> None:
    receiver.answer = answer
    with client_for(private_sandbox) as client:
        webhook = _webhook(client, receiver.url)
        result = client.post(f"/webhooks/{webhook['id']}/test").json()
    assert result["success"] is False
    assert result["status"] == answer
    assert result["message"]
    # Redirects are not followed: exactly one request reached the receiver.
    assert len(receiver.requests) == 1


def test_ping_runs_while_disabled_or_paused(
    private_sandbox: SandboxServer, receiver: Receiver
) -> None:
    with client_for(private_sandbox) as client:
        webhook = _webhook(client, receiver.url)
        client.put(f"/webhooks/{webhook['id']}", json={"status": "disabled"})
        assert client.post(f"/webhooks/{webhook['id']}/test").json()["success"] is True
        private_sandbox.store.set_webhook_paused(webhook["id"], failures=5)
        assert client.post(f"/webhooks/{webhook['id']}/test").json()["success"] is True
        after = client.get(f"/webhooks/{webhook['id']}").json()
    assert after["status"] == "paused"
    assert after["consecutive_failures"] == 5
    assert len(receiver.requests) == 2


def test_ping_to_a_closed_port_reports_no_status(private_sandbox: SandboxServer) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with client_for(private_sandbox) as client:
        webhook = _webhook(client, f"http://127.0.0.1:{port}/hook")
        result = client.post(f"/webhooks/{webhook['id']}/test").json()
    assert result == {"success": False, "status": None, "message": result["message"]}


def test_ping_refuses_a_private_endpoint_stored_earlier(
    sandbox: SandboxServer, receiver: Receiver
) -> None:
    # Rejected again at delivery time (§4 webhook rule 2), even if it got stored somehow.
    webhook_id = sandbox.store.create_webhook(receiver.url)
    with client_for(sandbox) as client:
        result = client.post(f"/webhooks/{webhook_id}/test").json()
    assert result["success"] is False
    assert receiver.requests == []

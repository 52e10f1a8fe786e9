"""*Replay to local URL* at its edges (issue 18 §2): the exact bytes and headers sent, where the
2xx range ends, redirects not followed, proxies from the environment not used, and the result
when the URL is refused or nobody listens."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from app.api.webhook_signing import sign
from app.webhooks.local_replay import (
    USER_AGENT,
    LocalReplayResult,
    replay_body,
    replay_to_url,
    target_problem,
)

SECRET = "whsec_" + "l" * 32
ENVELOPE = {"id": "e1", "type": "post.created", "data": {"text": "Grüße"}}
WIRE = '{"id":"e1","type":"post.created","data":{"text":"Grüße"}}'.encode()


class _Receiver(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        type(self).seen.append((self.path, dict(self.headers.items()), body))
        status = int(self.path.rsplit("/", 1)[-1])
        answer = f"answered {status}".encode()
        self.send_response(status)
        if status == 302:
            self.send_header("Location", "/s/200")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[str]:
    _Receiver.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def test_the_body_is_compact_utf8_json() -> None:
    assert replay_body(ENVELOPE) == WIRE


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        (
            "ftp://example.com/h",
            "Enter an http:// or https:// URL, e.g. http://localhost:8000/webhooks.",
        ),
        ("http://", "Enter an http:// or https:// URL, e.g. http://localhost:8000/webhooks."),
        ("http://example.com:99999/", "That is not a valid URL."),
        ("https://example.com/h", None),
        ("HTTP://localhost:8000/h", None),
    ],
)
def test_which_urls_a_replay_may_go_to(url: str, problem: str | None) -> None:
    assert target_problem(url) == problem


@pytest.mark.asyncio
async def test_a_refused_url_is_not_asked_and_says_why() -> None:
    result = await replay_to_url(" ftp://example.com/h ", ENVELOPE, SECRET)
    assert result == LocalReplayResult(
        False,
        None,
        "",
        0.0,
        "Enter an http:// or https:// URL, e.g. http://localhost:8000/webhooks.",
        sign(WIRE, SECRET),
    )


@pytest.mark.asyncio
async def test_the_replay_sends_the_signed_bytes_with_its_headers(
    receiver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A proxy in the environment is not used for a replay to the developer's own receiver.
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    result = await replay_to_url(receiver + "/s/200", ENVELOPE, SECRET)
    assert (result.ok, result.status, result.body) == (True, 200, "answered 200")
    assert result.message.startswith("Your receiver answered 200 in ")
    assert 0 < result.elapsed_ms < 10_000
    ((path, headers, body),) = _Receiver.seen
    assert (path, body) == ("/s/200", WIRE)
    assert headers["Content-Type"] == "application/json"
    assert headers["User-Agent"] == USER_AGENT
    assert headers["X-Webhook-Signature"] == result.signature == sign(WIRE, SECRET)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "ok", "message"),
    [
        (299, True, None),
        (
            300,
            False,
            "Your receiver answered 300 (a redirect, which the service treats as a failure).",
        ),
        (
            302,
            False,
            "Your receiver answered 302 (a redirect, which the service treats as a failure).",
        ),
        (400, False, "Your receiver answered 400: not a 2xx, so the service would retry."),
        (500, False, "Your receiver answered 500: not a 2xx, so the service would retry."),
    ],
)
async def test_only_2xx_is_success_and_a_redirect_is_not_followed(
    receiver: str, status: int, ok: bool, message: str | None
) -> None:
    result = await replay_to_url(f"{receiver}/s/{status}", ENVELOPE, SECRET)
    assert (result.ok, result.status) == (ok, status)
    if message is not None:
        assert result.message == message
    assert [path for path, _, _ in _Receiver.seen] == [f"/s/{status}"]


@pytest.mark.asyncio
async def test_nobody_listening_is_a_result_not_an_error() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    url = f"http://127.0.0.1:{server.server_address[1]}/h"
    server.server_close()
    result = await replay_to_url(url, ENVELOPE, SECRET)
    assert (result.ok, result.status, result.body, result.signature) == (
        False,
        None,
        "",
        sign(WIRE, SECRET),
    )
    assert result.message == f"Could not reach {url} (ConnectError)."
    assert 0 <= result.elapsed_ms < 10_000


@pytest.mark.asyncio
async def test_a_given_transport_carries_the_replay() -> None:
    seen: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        return httpx.Response(204)

    result = await replay_to_url(
        "http://receiver.test/h", ENVELOPE, SECRET, transport=httpx.MockTransport(answer)
    )
    assert (result.ok, result.status) == (True, 204)
    assert seen == [WIRE]

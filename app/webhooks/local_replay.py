"""Replay to a local URL: POST a logged envelope, re-signed with the webhook's secret, to the
user's own development receiver (something the hosted service cannot do).

The body is the logged envelope serialised compactly; the signature is computed over exactly
those bytes, as the service does. The envelope keeps its original `id`, so a receiver that
deduplicates on it may ignore the replay.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from app.api.webhook_signing import SIGNATURE_HEADER, sign

USER_AGENT = "Postdesk-LocalReplay/1.0"
TIMEOUT_S = 10.0
BODY_SHOWN = 2000


@dataclass(frozen=True)
class LocalReplayResult:
    ok: bool
    status: int | None
    body: str
    elapsed_ms: float
    message: str
    signature: str


def replay_body(envelope: dict[str, Any]) -> bytes:
    return json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def target_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return "That is not a valid URL."
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return "Enter an http:// or https:// URL, e.g. http://localhost:8000/webhooks."
    return None


async def replay_to_url(
    url: str,
    envelope: dict[str, Any],
    secret: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LocalReplayResult:
    """Never raises for network trouble: the result says what happened."""
    url = url.strip()
    body = replay_body(envelope)
    signature = sign(body, secret)
    problem = target_problem(url)
    if problem:
        return LocalReplayResult(False, None, "", 0.0, problem, signature)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        SIGNATURE_HEADER: signature,
    }
    started = time.perf_counter()
    try:
        async with httpx.AsyncClient(
            timeout=TIMEOUT_S, follow_redirects=False, trust_env=False, transport=transport
        ) as client:
            response = await client.post(url, content=body, headers=headers)
    except httpx.TimeoutException:
        return _failed(started, signature, f"No answer within {TIMEOUT_S:g} seconds.")
    except httpx.HTTPError as error:
        return _failed(started, signature, f"Could not reach {url} ({type(error).__name__}).")
    elapsed = (time.perf_counter() - started) * 1000
    status = response.status_code
    ok = 200 <= status < 300
    text = response.text[:BODY_SHOWN]
    if ok:
        message = f"Your receiver answered {status} in {elapsed:.0f} ms."
    elif 300 <= status < 400:
        message = (
            f"Your receiver answered {status} (a redirect, which the service treats as a failure)."
        )
    else:
        message = f"Your receiver answered {status}: not a 2xx, so the service would retry."
    return LocalReplayResult(ok, status, text, elapsed, message, signature)


def _failed(started: float, signature: str, message: str) -> LocalReplayResult:
    return LocalReplayResult(
        False, None, "", (time.perf_counter() - started) * 1000, message, signature
    )

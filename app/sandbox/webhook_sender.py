"""One signed webhook POST (§5.8, §6 "Delivery"), to a real receiver or a built-in one."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from app.api.webhook_signing import sign
from app.sandbox import demo_receivers
from app.sandbox.demo_receivers import Answer
from app.sandbox.webhook_rules import SIGNATURE_HEADER, USER_AGENT

if TYPE_CHECKING:
    import httpx

DELIVERY_TIMEOUT_SECONDS = 10.0
PING_TIMEOUT_SECONDS = 5.0
RESPONSE_BODY_MAX = 2000
# Enough bytes for 2,000 characters of any encoding; the rest of a big answer is not read.
_READ_LIMIT = RESPONSE_BODY_MAX * 4


def envelope_body(envelope: dict[str, Any]) -> bytes:
    """The exact bytes posted and signed."""
    return json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def headers_for(body: bytes, secret: str) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        SIGNATURE_HEADER: sign(body, secret),
    }


async def post_signed(
    client: httpx.AsyncClient,
    endpoint: str,
    body: bytes,
    secret: str,
    *,
    timeout_seconds: float,
    envelope_id: str,
    attempt: int,
) -> tuple[Answer, str | None]:
    """POST `body` signed with `secret`. Returns the answer and, when nothing answered, why."""
    import httpx

    if demo_receivers.is_demo_receiver(endpoint):
        return demo_receivers.answer(endpoint, envelope_id, attempt), None
    try:
        headers = headers_for(body, secret)
        async with client.stream(
            "POST", endpoint, content=body, headers=headers, timeout=timeout_seconds
        ) as response:
            raw = b""
            async for chunk in response.aiter_bytes():
                raw += chunk
                if len(raw) >= _READ_LIMIT:
                    break
            text = raw.decode(response.encoding or "utf-8", errors="replace")
            return Answer(response.status_code, text[:RESPONSE_BODY_MAX]), None
    except httpx.TimeoutException:
        late = f"The endpoint did not answer within {timeout_seconds:g} seconds."
        return Answer(None, None), late
    except httpx.HTTPError as exc:
        return Answer(None, None), f"Could not connect to the endpoint ({type(exc).__name__})."

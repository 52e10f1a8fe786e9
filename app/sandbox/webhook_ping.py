"""The synchronous test ping of §4 webhook rule 5 (`POST /webhooks/{id}/test`)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from app.sandbox.webhook_rules import (
    SIGNATURE_HEADER,
    TEST_EVENT,
    USER_AGENT,
    endpoint_problem,
    sign,
)

PING_TIMEOUT_SECONDS = 5.0


def test_envelope(created_at: str) -> bytes:
    envelope = {"id": str(uuid.uuid4()), "type": TEST_EVENT, "data": {}, "created_at": created_at}
    return json.dumps(envelope, separators=(",", ":")).encode("utf-8")


async def send_test_ping(
    endpoint: str, secret: str, created_at: str, *, allow_private: bool
) -> dict[str, Any]:
    """POST a signed `webhook.test`; the answer says whether the receiver gave a 2xx."""
    import httpx  # only this route needs it; keeps sandbox start-up lean

    if endpoint_problem(endpoint, allow_private=allow_private) is not None:
        return {
            "success": False,
            "status": None,
            "message": "The endpoint is not a public http(s) address; nothing was sent.",
        }
    body = test_envelope(created_at)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        SIGNATURE_HEADER: sign(secret, body),
    }
    try:
        async with httpx.AsyncClient(
            timeout=PING_TIMEOUT_SECONDS, follow_redirects=False, trust_env=False
        ) as client:
            response = await client.post(endpoint, content=body, headers=headers)
    except httpx.TimeoutException:
        return {
            "success": False,
            "status": None,
            "message": f"The endpoint did not answer within {PING_TIMEOUT_SECONDS:g} seconds.",
        }
    except httpx.HTTPError as exc:
        return {
            "success": False,
            "status": None,
            "message": f"Could not connect to the endpoint ({type(exc).__name__}).",
        }
    status = response.status_code
    if 200 <= status < 300:
        return {"success": True, "status": status, "message": f"The endpoint answered {status}."}
    if 300 <= status < 400:
        message = f"The endpoint answered {status}; redirects are not followed."
    else:
        message = f"The endpoint answered {status}; a 2xx answer is needed."
    return {"success": False, "status": status, "message": message}

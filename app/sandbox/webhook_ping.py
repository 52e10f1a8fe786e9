"""The synchronous test ping of §4 webhook rule 5 (`POST /webhooks/{id}/test`)."""

from __future__ import annotations

import uuid
from typing import Any

from app.sandbox.webhook_rules import TEST_EVENT, delivery_problem
from app.sandbox.webhook_sender import PING_TIMEOUT_SECONDS, envelope_body, post_signed


def ping_envelope(created_at: str, envelope_id: str | None = None) -> bytes:
    return envelope_body(
        {
            "id": envelope_id or str(uuid.uuid4()),
            "type": TEST_EVENT,
            "data": {},
            "created_at": created_at,
        }
    )


async def send_test_ping(
    endpoint: str, secret: str, created_at: str, *, allow_private: bool
) -> dict[str, Any]:
    """POST a signed `webhook.test`; the answer says whether the receiver gave a 2xx."""
    import httpx  # only this route needs it; keeps sandbox start-up lean

    if await delivery_problem(endpoint, allow_private=allow_private) is not None:
        return {
            "success": False,
            "status": None,
            "message": "The endpoint is not a public http(s) address; nothing was sent.",
        }
    envelope_id = str(uuid.uuid4())
    body = ping_envelope(created_at, envelope_id)
    async with httpx.AsyncClient(follow_redirects=False, trust_env=False) as client:
        answer, failure = await post_signed(
            client,
            endpoint,
            body,
            secret,
            timeout_seconds=PING_TIMEOUT_SECONDS,
            envelope_id=envelope_id,
            attempt=1,
        )
    status = answer.status
    if status is None:
        return {"success": False, "status": None, "message": failure}
    if answer.ok:
        return {"success": True, "status": status, "message": f"The endpoint answered {status}."}
    if 300 <= status < 400:
        message = f"The endpoint answered {status}; redirects are not followed."
    else:
        message = f"The endpoint answered {status}; a 2xx answer is needed."
    return {"success": False, "status": status, "message": message}

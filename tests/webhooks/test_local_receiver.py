"""Issue 17 §7: the receiver on 127.0.0.1 verifies what *Replay to local URL* sends (real
loopback HTTP) and says why a request is not verified."""

from __future__ import annotations

import httpx
import pytest

from app.webhooks.local_receiver import LocalReceiver, ReceivedRequest
from app.webhooks.local_replay import replay_to_url

SECRET = "whsec_" + "r" * 32
ENVELOPE = {
    "id": "e",
    "type": "post.created",
    "data": {"id": "p"},
    "created_at": "2026-01-01T00:00:00+00:00",
}


@pytest.mark.asyncio
async def test_a_replay_is_received_verified_and_a_wrong_secret_is_told() -> None:
    seen: list[ReceivedRequest] = []
    receiver = LocalReceiver(seen.append)
    await receiver.start(0, SECRET)
    try:
        assert receiver.url.startswith("http://127.0.0.1:")
        result = await replay_to_url(receiver.url, ENVELOPE, SECRET)
        assert result.status == 200
        (first,) = seen
        assert first.verified
        assert first.body == (
            b'{"id":"e","type":"post.created","data":{"id":"p"},'
            b'"created_at":"2026-01-01T00:00:00+00:00"}'
        )
        assert first.header("content-type") == "application/json"
        wrong = await replay_to_url(receiver.url, ENVELOPE, "whsec_" + "x" * 32)
        assert wrong.status == 401
        assert not seen[-1].verified
        assert "rotated" in seen[-1].verdict
        async with httpx.AsyncClient(trust_env=False) as client:
            unsigned = await client.post(receiver.url, content=b"{}")
        assert unsigned.status_code == 401
        assert "No X-Webhook-Signature" in seen[-1].verdict
    finally:
        await receiver.stop()
    assert not receiver.listening
    assert receiver.secret is None

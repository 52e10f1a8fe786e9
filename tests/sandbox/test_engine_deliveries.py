"""Webhook deliveries (§3 webhook status, §4 webhook rules, §5.8, §6 "Delivery") against a real
receiver on loopback; signatures are checked with the standard library's hmac."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox import engine as engine_module
from app.sandbox.clock import ManualClock
from app.sandbox.engine import SandboxEngine
from app.sandbox.harness import SandboxServer

from .conftest import client_for
from .receivers import LoopbackReceiver, loopback_receiver

START = datetime(2031, 3, 3, 9, 0, tzinfo=UTC)
RETRY = timedelta(seconds=60)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def server(tmp_path: Path, clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "hooks.db", now=clock, allow_private_endpoints=True) as running:
        yield running


@pytest.fixture
def client(server: SandboxServer) -> Iterator[httpx.Client]:
    with client_for(server) as api:
        yield api


@pytest.fixture
def receiver() -> Iterator[LoopbackReceiver]:
    with loopback_receiver() as running:
        yield running


def engine(server: SandboxServer) -> SandboxEngine:
    assert server.engine is not None
    return server.engine


def subscribe(client: httpx.Client, url: str, events: list[str] | None = None) -> dict[str, Any]:
    response = client.post(
        "/webhooks", json={"endpoint": url, "events": events or ["post.created"]}
    )
    assert response.status_code == 201, response.text
    hook: dict[str, Any] = response.json()
    return hook


def new_post(client: httpx.Client, server: SandboxServer, text: str = "Hello") -> str:
    response = client.post(
        "/posts/batch",
        json={
            "content": text,
            "destinations": [{"social_account_id": server.store.account_id("x")}],
        },
    )
    assert response.status_code == 201
    return str(response.json()["posts"][0]["id"])


def signed_by(secret: str, body: bytes, signature: str) -> bool:
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


def logs(client: httpx.Client, hook_id: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = client.get(f"/webhooks/{hook_id}/logs").json()["data"]
    return data


def hook_state(client: httpx.Client, hook_id: str) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/webhooks/{hook_id}").json()
    return state


def test_delivery_is_signed_and_logged(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver
) -> None:
    hook = subscribe(client, receiver.url)
    post_id = new_post(client, server)
    engine(server).run_once()

    assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert signed_by(hook["signing_secret"], request.body, request.headers["x-webhook-signature"])
    assert request.headers["x-webhook-signature"] == request.headers["x-webhook-signature"].lower()
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"] == "SocialPublishingAPI-Webhooks/2.0.0 (sandbox)"
    envelope = json.loads(request.body)
    assert set(envelope) == {"id", "type", "data", "created_at"}
    assert envelope["type"] == "post.created"
    assert envelope["data"]["id"] == post_id
    assert envelope["data"]["workspace_id"] == server.workspace_id
    assert datetime.fromisoformat(envelope["created_at"]) == START

    [log] = logs(client, hook["id"])
    assert log["id"] == envelope["id"]
    assert log["payload"] == envelope
    assert log["response_status"] == 200
    assert log["response_body"] == '{"ok":true}'
    assert log["attempts"] == 1
    assert log["delivered_at"] is not None
    assert log["failed_at"] is None
    state = hook_state(client, hook["id"])
    assert state["last_sent_at"] == log["delivered_at"]
    assert state["consecutive_failures"] == 0


def test_deleted_payload_has_only_id_and_workspace(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver
) -> None:
    subscribe(client, receiver.url, ["post.deleted"])
    post_id = new_post(client, server)
    client.delete(f"/posts/{post_id}")
    engine(server).run_once()
    [request] = receiver.requests  # post.created is not subscribed
    envelope = json.loads(request.body)
    assert envelope["type"] == "post.deleted"
    assert envelope["data"] == {"id": post_id, "workspace_id": server.workspace_id}


def test_retries_reuse_the_id_with_a_new_created_at(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500, 503, 200)
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    [log] = logs(client, hook["id"])
    assert log["attempts"] == 1
    assert log["failed_at"] is not None
    assert log["delivered_at"] is None

    engine(server).run_once()  # the retry waits for the delay
    assert len(receiver.requests) == 1
    clock.advance(RETRY - timedelta(seconds=1))
    engine(server).run_once()
    assert len(receiver.requests) == 1
    clock.advance(timedelta(seconds=1))
    engine(server).run_once()
    clock.advance(RETRY)
    engine(server).run_once()

    envelopes = [json.loads(r.body) for r in receiver.requests]
    assert len(envelopes) == 3
    assert len({e["id"] for e in envelopes}) == 1
    assert len({e["created_at"] for e in envelopes}) == 3
    assert len({r.headers["x-webhook-signature"] for r in receiver.requests}) == 3
    [log] = logs(client, hook["id"])
    assert log["attempts"] == 3
    assert log["response_status"] == 200
    assert log["delivered_at"] is not None
    assert log["failed_at"] is not None  # the earlier attempts failed
    assert hook_state(client, hook["id"])["consecutive_failures"] == 0


def test_three_failed_attempts_count_one_failure(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500)
    receiver.body = "x" * 5000
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    engine(server).run_once()
    assert len(receiver.requests) == 3
    [log] = logs(client, hook["id"])
    assert log["attempts"] == 3
    assert log["delivered_at"] is None
    assert log["response_status"] == 500
    assert log["response_body"] == "x" * 2000
    state = hook_state(client, hook["id"])
    assert state["consecutive_failures"] == 1
    assert state["status"] == "enabled"
    assert server.store.webhook_log_states(hook["id"]) == ["failed"]


def test_redirects_are_failures_and_not_followed(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver
) -> None:
    receiver.script(302)
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    assert len(receiver.requests) == 1
    [log] = logs(client, hook["id"])
    assert log["response_status"] == 302
    assert log["delivered_at"] is None


def test_pause_at_five_failed_deliveries_then_events_are_skipped(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500)
    hook = subscribe(client, receiver.url)
    for n in range(5):
        new_post(client, server, f"Post {n}")
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    state = hook_state(client, hook["id"])
    assert state["consecutive_failures"] == 5
    assert state["status"] == "paused"
    assert datetime.fromisoformat(state["paused_at"]) == START + 2 * RETRY
    assert len(receiver.requests) == 15

    new_post(client, server, "While paused")
    engine(server).run_once()
    assert len(receiver.requests) == 15
    assert len(logs(client, hook["id"])) == 5


def test_four_failures_then_a_success_reset_the_counter(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(*([500] * 12), 200)
    hook = subscribe(client, receiver.url)
    for n in range(4):
        new_post(client, server, f"Post {n}")
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    assert hook_state(client, hook["id"])["consecutive_failures"] == 4
    new_post(client, server, "Fifth")
    engine(server).run_once()
    state = hook_state(client, hook["id"])
    assert state["consecutive_failures"] == 0
    assert state["status"] == "enabled"
    assert state["last_sent_at"] is not None


def test_replay_on_a_paused_webhook(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500)
    hook = subscribe(client, receiver.url)
    post_id = new_post(client, server)
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    server.store.set_webhook_paused(hook["id"], failures=5)
    [failed] = logs(client, hook["id"])

    receiver.script(200)
    response = client.post(f"/webhooks/{hook['id']}/logs/{failed['id']}/replay")
    assert response.json() == {"replayed": True}
    engine(server).run_once()

    replay = logs(client, hook["id"])[0]
    assert replay["id"] != failed["id"]
    assert replay["delivered_at"] is not None
    envelope = json.loads(receiver.requests[-1].body)
    assert envelope["id"] == replay["id"]
    assert envelope["data"] == failed["payload"]["data"]
    assert envelope["data"]["id"] == post_id
    state = hook_state(client, hook["id"])
    assert state["status"] == "paused"  # a replay does not re-enable
    assert state["consecutive_failures"] == 0
    assert state["last_sent_at"] == replay["delivered_at"]
    assert server.store.webhook_log_states(hook["id"]) == ["failed", "delivered"]


def test_a_failing_replay_does_not_stay_queued(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    client.put(f"/webhooks/{hook['id']}", json={"status": "disabled"})
    receiver.script(500)
    [delivered] = logs(client, hook["id"])
    client.post(f"/webhooks/{hook['id']}/logs/{delivered['id']}/replay")
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    assert server.store.webhook_log_states(hook["id"]) == ["delivered", "failed"]
    state = hook_state(client, hook["id"])
    assert state["status"] == "disabled"
    assert state["consecutive_failures"] == 1
    assert state["paused_at"] is None


def test_rotation_signs_queued_retries_with_the_new_secret(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500, 200)
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    rotated = client.post(f"/webhooks/{hook['id']}/rotate-secret").json()["signing_secret"]
    assert rotated != hook["signing_secret"]
    clock.advance(RETRY)
    engine(server).run_once()
    first, retry = receiver.requests
    assert signed_by(hook["signing_secret"], first.body, first.headers["x-webhook-signature"])
    assert signed_by(rotated, retry.body, retry.headers["x-webhook-signature"])
    assert not signed_by(hook["signing_secret"], retry.body, retry.headers["x-webhook-signature"])


def test_deletion_discards_queued_retries(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500)
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    assert client.delete(f"/webhooks/{hook['id']}").status_code == 204
    assert server.store.webhook_log_states(hook["id"]) == []
    clock.advance(RETRY * 3)
    engine(server).run_once()
    assert len(receiver.requests) == 1


def test_disabled_webhooks_skip_events_and_stop_retrying(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    receiver.script(500)
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    client.put(f"/webhooks/{hook['id']}", json={"status": "disabled"})
    new_post(client, server, "While disabled")
    clock.advance(RETRY)
    engine(server).run_once()
    assert len(receiver.requests) == 1
    assert server.store.webhook_log_states(hook["id"]) == ["failed"]
    assert hook_state(client, hook["id"])["consecutive_failures"] == 0


def test_only_subscribed_events_are_sent(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver
) -> None:
    subscribe(client, receiver.url, ["post.scheduled"])
    new_post(client, server)
    engine(server).run_once()
    assert receiver.requests == []


def test_a_slow_receiver_times_out(
    client: httpx.Client,
    server: SandboxServer,
    receiver: LoopbackReceiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert engine_module.DELIVERY_TIMEOUT_SECONDS == 10  # §6; shortened here to keep tests fast
    monkeypatch.setattr(engine_module, "DELIVERY_TIMEOUT_SECONDS", 0.2)
    receiver.delay = 1.0
    hook = subscribe(client, receiver.url)
    new_post(client, server)
    engine(server).run_once()
    [log] = logs(client, hook["id"])
    assert log["response_status"] is None
    assert log["failed_at"] is not None


def test_private_endpoints_are_refused_at_delivery(
    tmp_path: Path, clock: ManualClock, receiver: LoopbackReceiver
) -> None:
    with SandboxServer(tmp_path / "strict.db", now=clock) as strict:
        hook_id = strict.store.create_webhook(receiver.url, ["post.created"])
        with client_for(strict) as api:
            new_post(api, strict)
            engine(strict).run_once()
            [log] = logs(api, hook_id)
        assert receiver.requests == []
        assert log["response_status"] is None
        assert log["failed_at"] is not None


def test_logs_older_than_seven_days_are_pruned_daily(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    hook = subscribe(client, "https://hooks.example.com/in")
    old = server.store.add_webhook_log(hook["id"], created_at=START - timedelta(days=7, seconds=1))
    recent = server.store.add_webhook_log(
        hook["id"], created_at=START - timedelta(days=6, hours=12)
    )
    engine(server).run_once()  # the first tick is the start-up run
    assert [log["id"] for log in logs(client, hook["id"])] == [recent]

    clock.advance(timedelta(hours=23))
    engine(server).run_once()  # not a day yet: the daily job waits
    assert [log["id"] for log in logs(client, hook["id"])] == [recent]
    clock.advance(timedelta(hours=1))
    engine(server).run_once()
    assert logs(client, hook["id"]) == []
    assert old != recent


def test_test_ping_to_a_built_in_receiver(client: httpx.Client) -> None:
    ok = subscribe(client, "https://receivers.sandbox.example/ok")
    failing = subscribe(client, "https://receivers.sandbox.example/failing")
    assert client.post(f"/webhooks/{ok['id']}/test").json()["success"] is True
    result = client.post(f"/webhooks/{failing['id']}/test").json()
    assert result == {
        "success": False,
        "status": 500,
        "message": "The endpoint answered 500; a 2xx answer is needed.",
    }
    assert logs(client, ok["id"]) == []


def test_built_in_receivers_answer_in_process(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    ok = subscribe(client, "https://receivers.sandbox.example/ok")
    flaky = subscribe(client, "https://receivers.sandbox.example/flaky")
    failing = subscribe(client, "https://receivers.sandbox.example/failing")
    for n in range(8):
        new_post(client, server, f"Post {n}")
    for _ in range(3):
        engine(server).run_once()
        clock.advance(RETRY)
    assert set(server.store.webhook_log_states(ok["id"])) == {"delivered"}
    assert set(server.store.webhook_log_states(flaky["id"])) == {"delivered"}
    flaky_logs = logs(client, flaky["id"])
    assert any(log["attempts"] == 2 and log["failed_at"] for log in flaky_logs)
    assert any(log["attempts"] == 1 for log in flaky_logs)
    assert set(server.store.webhook_log_states(failing["id"])) == {"failed"}
    assert hook_state(client, failing["id"])["status"] == "paused"


def test_events_from_before_a_webhook_existed_are_not_sent(
    client: httpx.Client, server: SandboxServer, receiver: LoopbackReceiver, clock: ManualClock
) -> None:
    new_post(client, server, "Before")
    clock.advance(timedelta(seconds=1))
    subscribe(client, receiver.url)
    new_post(client, server, "After")
    engine(server).run_once()
    [request] = receiver.requests
    assert json.loads(request.body)["data"]["content"] == "After"


def test_background_engine_publishes_and_delivers(
    tmp_path: Path, receiver: LoopbackReceiver
) -> None:
    receiver.script(500, 200)
    with (
        SandboxServer(
            tmp_path / "live.db",
            allow_private_endpoints=True,
            run_engine=True,
            webhook_retry_delay=0.1,
            engine_interval=0.05,
        ) as live,
        client_for(live) as api,
    ):
        hook = subscribe(api, receiver.url, ["post.published"])
        post_id = new_post(api, live)
        api.put(f"/posts/{post_id}", json={"status": "publishing"})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(receiver.requests) < 2:
            time.sleep(0.02)
        assert live.store.post(post_id)["status"] == "published"  # type: ignore[index]
        assert len(receiver.requests) == 2
        # The second attempt's answer is recorded: the delivery is done, no attempt is left.
        while time.monotonic() < deadline and not hook_state(api, hook["id"])["last_sent_at"]:
            time.sleep(0.02)
        [log] = logs(api, hook["id"])
        assert (log["attempts"], log["response_status"]) == (2, 200)
        assert len(receiver.requests) == 2, "a delivered event is not sent again"

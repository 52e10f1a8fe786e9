"""Webhook routes: CRUD, validation, status rules, rotation, logs and replay."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.sandbox.harness import SandboxServer
from app.sandbox.webhook_rules import EVENT_NAMES

ENDPOINT = "https://hooks.example.com/social"
SECRET = re.compile(r"^whsec_[A-Za-z0-9]{32}$")


def _create(api: httpx.Client, **body: Any) -> dict[str, Any]:
    payload = {"endpoint": ENDPOINT, "events": ["post.published"], **body}
    response = api.post("/webhooks", json=payload)
    assert response.status_code == 201, response.text
    webhook: dict[str, Any] = response.json()
    return webhook


def test_create_read_list(api: httpx.Client) -> None:
    webhook = _create(api, events=["post.created", "post.deleted"])
    assert SECRET.match(webhook["signing_secret"])
    assert webhook["status"] == "enabled"
    assert webhook["events"] == ["post.created", "post.deleted"]
    assert webhook["consecutive_failures"] == 0
    assert webhook["last_sent_at"] is None
    assert webhook["paused_at"] is None
    created = datetime.fromisoformat(webhook["created_at"])
    assert created.utcoffset() == timedelta(0)
    assert "name" not in webhook

    second = _create(api, endpoint=ENDPOINT)  # two webhooks may share a URL
    listed = api.get("/webhooks").json()
    assert [w["id"] for w in listed] == [second["id"], webhook["id"]]
    assert all("signing_secret" not in w for w in listed)

    single = api.get(f"/webhooks/{webhook['id']}").json()
    assert single["signing_secret"] == webhook["signing_secret"]


def test_cannot_be_created_disabled(api: httpx.Client) -> None:
    assert _create(api, status="disabled")["status"] == "enabled"


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://127.0.0.1/hook",
        "http://localhost:8080/hook",
        "https://api.localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://172.16.5.4/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://[fe80::1]/hook",
        "http://[fd00::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "http://2130706433/hook",
        "http://127.1/hook",
        "http://0x7f000001/hook",
    ],
)
def test_private_endpoints_are_rejected(api: httpx.Client, endpoint: str) -> None:
    response = api.post("/webhooks", json={"endpoint": endpoint, "events": ["post.created"]})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["endpoint"]
    assert api.get("/webhooks").json() == []


@pytest.mark.parametrize(
    "endpoint", ["ftp://hooks.example.com/x", "hooks.example.com/x", "https://", "not a url", ""]
)
def test_malformed_endpoints(api: httpx.Client, endpoint: str) -> None:
    response = api.post("/webhooks", json={"endpoint": endpoint, "events": ["post.created"]})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["endpoint"]


def test_endpoint_length_limit(api: httpx.Client) -> None:
    base = "https://hooks.example.com/"
    ok = base + "a" * (255 - len(base))
    assert _create(api, endpoint=ok)["endpoint"] == ok
    response = api.post("/webhooks", json={"endpoint": ok + "a", "events": ["post.created"]})
    assert response.status_code == 422
    assert response.json()["errors"]["endpoint"] == [
        "The endpoint field must not be greater than 255 characters."
    ]


def test_public_hosts_are_not_resolved(api: httpx.Client) -> None:
    # A name is accepted without a DNS lookup (the .invalid TLD never resolves).
    assert _create(api, endpoint="https://receiver.example.invalid/hook")["endpoint"]
    assert _create(api, endpoint="http://8.8.8.8/hook")["endpoint"]


@pytest.mark.parametrize(
    ("events", "key"),
    [
        (None, "events"),
        ([], "events"),
        ("post.created", "events"),
        (["*"], "events.0"),
        (["post.created", "post.publishing"], "events.1"),
        (["webhook.test"], "events.0"),
    ],
)
def test_event_validation(api: httpx.Client, events: object, key: str) -> None:
    response = api.post("/webhooks", json={"endpoint": ENDPOINT, "events": events})
    assert response.status_code == 422
    assert key in response.json()["errors"]


def test_all_seven_events_are_accepted(api: httpx.Client) -> None:
    assert _create(api, events=list(EVENT_NAMES))["events"] == list(EVENT_NAMES)


def test_update_omits_secret_and_validates(api: httpx.Client) -> None:
    webhook = _create(api)
    response = api.put(
        f"/webhooks/{webhook['id']}",
        json={"endpoint": "https://other.example.com/h", "events": ["post.failed"]},
    )
    assert response.status_code == 200
    body = response.json()
    assert "signing_secret" not in body
    assert body["endpoint"] == "https://other.example.com/h"
    assert body["events"] == ["post.failed"]
    bad = api.put(f"/webhooks/{webhook['id']}", json={"endpoint": "http://10.0.0.1/"})
    assert bad.status_code == 422
    assert api.get(f"/webhooks/{webhook['id']}").json()["endpoint"] == "https://other.example.com/h"


def test_user_cannot_set_paused(api: httpx.Client) -> None:
    webhook = _create(api)
    for status in ("paused", "broken"):
        response = api.put(f"/webhooks/{webhook['id']}", json={"status": status})
        assert response.status_code == 422
        assert list(response.json()["errors"]) == ["status"]
    assert api.get(f"/webhooks/{webhook['id']}").json()["status"] == "enabled"


def test_status_rules(api: httpx.Client, sandbox: SandboxServer) -> None:
    webhook = _create(api)
    url = f"/webhooks/{webhook['id']}"
    store = sandbox.store

    store.set_webhook_paused(webhook["id"], failures=5)
    paused = api.get(url).json()
    assert paused["status"] == "paused"
    assert paused["paused_at"] is not None

    enabled = api.put(url, json={"status": "enabled"}).json()
    assert enabled["status"] == "enabled"
    assert enabled["consecutive_failures"] == 0
    assert enabled["paused_at"] is None

    # enabled -> enabled keeps the counter.
    store.set_webhook_paused(webhook["id"], failures=3)
    api.put(url, json={"status": "disabled"})
    api.put(url, json={"status": "enabled"})
    with store.tx() as db:
        db.run("UPDATE webhooks SET consecutive_failures = 2 WHERE id = ?", (webhook["id"],))
    assert api.put(url, json={"status": "enabled"}).json()["consecutive_failures"] == 2

    # paused -> disabled keeps paused_at.
    store.set_webhook_paused(webhook["id"])
    paused_at = api.get(url).json()["paused_at"]
    disabled = api.put(url, json={"status": "disabled"}).json()
    assert disabled["status"] == "disabled"
    assert disabled["paused_at"] == paused_at


def test_rotate_changes_the_secret(api: httpx.Client) -> None:
    webhook = _create(api)
    rotated = api.post(f"/webhooks/{webhook['id']}/rotate-secret")
    assert rotated.status_code == 200
    secret = rotated.json()["signing_secret"]
    assert SECRET.match(secret)
    assert secret != webhook["signing_secret"]
    assert api.get(f"/webhooks/{webhook['id']}").json()["signing_secret"] == secret


def test_logs_paginate_by_15_newest_first_without_meta_links(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    webhook = _create(api)
    start = datetime(2030, 1, 1, tzinfo=UTC)
    ids = [
        sandbox.store.add_webhook_log(
            webhook["id"], created_at=start + timedelta(minutes=n), outcome="delivered"
        )
        for n in range(17)
    ]
    first = api.get(f"/webhooks/{webhook['id']}/logs").json()
    assert "links" not in first["meta"]
    assert set(first["meta"]) == {
        "current_page", "from", "to", "last_page", "per_page", "total", "path",
    }  # fmt: skip
    assert first["meta"]["per_page"] == 15
    assert first["meta"]["total"] == 17
    assert first["links"]["next"].endswith("?page=2")
    assert [log["id"] for log in first["data"]] == list(reversed(ids))[:15]
    log = first["data"][0]
    assert set(log) == {
        "id", "event_type", "payload", "response_status", "response_body", "delivered_at",
        "failed_at", "attempts", "created_at",
    }  # fmt: skip
    assert log["payload"]["id"] == log["id"]
    assert set(log["payload"]) == {"id", "type", "data", "created_at"}
    assert log["delivered_at"] is not None
    second = api.get(f"/webhooks/{webhook['id']}/logs", params={"page": 2}).json()
    assert [entry["id"] for entry in second["data"]] == [ids[1], ids[0]]


def test_replay_queues_a_new_log_with_the_original_data(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    webhook = _create(api)
    sandbox.store.set_webhook_paused(webhook["id"])
    original = sandbox.store.add_webhook_log(
        webhook["id"], outcome="failed", data={"id": "post-1", "content": "hi"},
        created_at=datetime(2020, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    response = api.post(f"/webhooks/{webhook['id']}/logs/{original}/replay")
    assert response.status_code == 200
    assert response.json() == {"replayed": True}
    logs = api.get(f"/webhooks/{webhook['id']}/logs").json()["data"]
    assert len(logs) == 2
    replay, first = logs
    assert first["id"] == original
    assert replay["id"] != original
    assert replay["payload"]["id"] == replay["id"]
    assert replay["payload"]["data"] == {"id": "post-1", "content": "hi"}
    assert replay["event_type"] == first["event_type"]
    assert replay["delivered_at"] is None
    assert replay["attempts"] == 0
    # Replay works while paused and does not re-enable.
    assert api.get(f"/webhooks/{webhook['id']}").json()["status"] == "paused"
    missing = api.post(f"/webhooks/{webhook['id']}/logs/not-a-log/replay")
    assert missing.status_code == 404


def test_replay_of_another_webhooks_log_is_404(api: httpx.Client, sandbox: SandboxServer) -> None:
    one, two = _create(api), _create(api)
    log = sandbox.store.add_webhook_log(one["id"])
    assert api.post(f"/webhooks/{two['id']}/logs/{log}/replay").status_code == 404


def test_delete_removes_webhook_and_logs(api: httpx.Client, sandbox: SandboxServer) -> None:
    webhook = _create(api)
    sandbox.store.add_webhook_log(webhook["id"])
    assert api.delete(f"/webhooks/{webhook['id']}").status_code == 204
    assert api.get(f"/webhooks/{webhook['id']}").status_code == 404
    assert sandbox.store.webhook_logs(webhook["id"]) == []
    assert api.get("/webhooks").json() == []


def test_private_endpoints_allowed_when_configured(tmp_path: Any) -> None:
    with SandboxServer(tmp_path / "p.db", allow_private_endpoints=True) as server:
        response = httpx.post(
            f"{server.base_url}/webhooks",
            json={"endpoint": "http://127.0.0.1:9/hook", "events": ["post.created"]},
            headers={"Authorization": f"Bearer {server.keys.admin}"},
            trust_env=False,
        )
        assert response.status_code == 201

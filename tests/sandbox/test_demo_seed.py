"""The demo workspace covers every platform, status and reason, deterministically."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from app.sandbox.clock import ManualClock
from app.sandbox.demo_receivers import DEMO_RECEIVER_HOST
from app.sandbox.harness import SandboxServer
from app.sandbox.networks import PLATFORMS
from app.sandbox.repurposes_repo import ITEM_REASONS, ITEM_STATUSES
from app.sandbox.seed import seed
from app.sandbox.store import SandboxStore

NOW = datetime(2030, 6, 15, 12, 0, tzinfo=UTC)


def _all_posts(client: httpx.Client) -> list[dict[str, Any]]:
    first = client.get("/posts").json()
    posts: list[dict[str, Any]] = list(first["data"])
    for page in range(2, first["meta"]["last_page"] + 1):
        posts += client.get("/posts", params={"page": page}).json()["data"]
    return posts


def test_accounts_cover_every_platform_and_state(demo_api: httpx.Client) -> None:
    accounts = demo_api.get("/social-accounts").json()
    assert {a["platform"] for a in accounts} == set(PLATFORMS)
    assert {a["status"] for a in accounts} == {"connected", "disconnected", "token_expired"}
    assert any(not a["is_active"] for a in accounts)


def test_posts_cover_every_status_and_shape(demo_api: httpx.Client) -> None:
    posts = _all_posts(demo_api)
    assert len(posts) == 150
    statuses = Counter(p["status"] for p in posts)
    assert set(statuses) == {
        "draft", "scheduled", "publishing", "published", "partially_published", "failed",
    }  # fmt: skip
    drafts = [p for p in posts if p["status"] == "draft"]
    assert any(p["scheduled_at"] is None for p in drafts)
    assert any(p["scheduled_at"] is not None for p in drafts)
    for post in posts:
        if post["status"] == "published":
            assert post["published_at"] is not None
            assert all(pl["platform_url"] for pl in post["platforms"])
        if post["status"] == "failed":
            assert all(pl["error_message"] for pl in post["platforms"])
        if post["status"] == "partially_published":
            assert {pl["status"] for pl in post["platforms"]} == {"published", "failed"}
    assert any("<p>" in (p["content"] or "") for p in posts)
    assert any(p["media"] for p in posts)
    assert any(p["labels"] for p in posts)
    assert any(p["schedule_mode"] == "queue" for p in posts)
    assert any(len(p["platforms"]) > 1 for p in posts)
    used = {pl["platform"] for p in posts for pl in p["platforms"]}
    assert {"pinterest", "tiktok", "discord", "instagram-facebook"} <= used


def test_posts_spread_around_now(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "d.db", seed="demo", now=ManualClock(NOW)) as server:
        posts = server.store.post_count()
        with httpx.Client(
            base_url=server.base_url,
            headers={"Authorization": f"Bearer {server.keys.admin}"},
            trust_env=False,
        ) as client:
            dated = [p for p in _all_posts(client) if p["scheduled_at"]]
    assert posts == 150
    times = [
        datetime.strptime(p["scheduled_at"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC) for p in dated
    ]
    assert min(times) >= NOW - timedelta(days=46)
    assert max(times) <= NOW + timedelta(days=46)
    for post, when in zip(dated, times, strict=True):
        if post["status"] == "scheduled":
            assert when > NOW
        if post["status"] in ("published", "failed", "partially_published"):
            assert when < NOW


def test_labels_signatures_webhooks(demo_api: httpx.Client) -> None:
    labels = demo_api.get("/labels").json()
    assert 6 <= len(labels) <= 8
    assert len({lb["color"] for lb in labels}) == len(labels)
    signatures = demo_api.get("/signatures").json()
    assert signatures["meta"]["total"] > signatures["meta"]["per_page"]

    webhooks = demo_api.get("/webhooks").json()
    assert sorted(w["status"] for w in webhooks) == [
        "disabled",
        "enabled",
        "enabled",
        "enabled",
        "paused",
    ]
    assert all(w["endpoint"].startswith(f"https://{DEMO_RECEIVER_HOST}/") for w in webhooks)
    paused = next(w for w in webhooks if w["status"] == "paused")
    assert paused["consecutive_failures"] == 5
    assert paused["paused_at"] is not None
    logs = demo_api.get(f"/webhooks/{paused['id']}/logs").json()["data"]
    assert all(log["delivered_at"] is None for log in logs[:5])
    assert any(log["response_status"] is None for log in logs[:5])  # timeouts
    assert paused["paused_at"] == logs[0]["failed_at"]  # paused when the fifth failed
    failing = next(w for w in webhooks if "/failing/" in w["endpoint"] and w is not paused)
    assert (failing["status"], failing["consecutive_failures"]) == ("enabled", 4)
    healthy = next(w for w in webhooks if w["endpoint"].endswith("/ok/northwind-crm"))
    assert healthy["last_sent_at"] is not None
    healthy_logs = demo_api.get(f"/webhooks/{healthy['id']}/logs").json()
    assert healthy_logs["meta"]["total"] > 15
    statuses = {log["response_status"] for log in healthy_logs["data"]}
    assert any(s is not None and 200 <= s < 300 for s in statuses)


def _every_log(client: httpx.Client, webhook_id: str) -> list[dict[str, Any]]:
    first = client.get(f"/webhooks/{webhook_id}/logs").json()
    logs: list[dict[str, Any]] = list(first["data"])
    for page in range(2, first["meta"]["last_page"] + 1):
        logs += client.get(f"/webhooks/{webhook_id}/logs", params={"page": page}).json()["data"]
    return logs


def test_webhook_history_is_consistent(demo_api: httpx.Client) -> None:
    for webhook in demo_api.get("/webhooks").json():
        logs = _every_log(demo_api, webhook["id"])  # newest first
        delivered = [log["delivered_at"] for log in logs if log["delivered_at"]]
        assert webhook["last_sent_at"] == (max(delivered) if delivered else None)
        trailing = 0
        for log in logs:
            if log["delivered_at"]:
                break
            trailing += 1
        assert webhook["consecutive_failures"] == trailing, webhook["endpoint"]
        for log in logs:
            assert 1 <= log["attempts"] <= 3
            if log["delivered_at"] is None:
                assert log["attempts"] == 3
                assert log["failed_at"] is not None
            elif log["attempts"] > 1:
                assert log["failed_at"] is not None
                assert log["failed_at"] < log["delivered_at"]
            else:
                assert log["failed_at"] is None
            assert log["payload"]["id"] == log["id"]


def test_repurpose_items_cover_every_status_and_reason(demo_api: httpx.Client) -> None:
    repurposes = demo_api.get("/repurposes").json()["data"]
    items: list[dict[str, Any]] = []
    for repurpose in repurposes:
        url = f"/repurposes/{repurpose['id']}/items"
        first = demo_api.get(url).json()
        items += first["data"]
        pages = -(-first["meta"]["total"] // first["meta"]["per_page"])
        for page in range(2, pages + 1):
            items += demo_api.get(url, params={"page": page}).json()["data"]
    assert {i["status"] for i in items} == set(ITEM_STATUSES)
    assert {i["reason"] for i in items} - {None} == set(ITEM_REASONS)
    assert any(i["posts"] for i in items if i["status"] == "published")
    assert any(i["error"] for i in items if i["status"] == "failed")


def test_seeded_media_files_are_served(demo_api: httpx.Client) -> None:
    posts = _all_posts(demo_api)
    image = next(m for p in posts for m in p["media"] if m["type"] == "image")
    response = httpx.get(image["url"], trust_env=False)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")


def _snapshot(path: Path, posts: int) -> list[dict[str, Any]]:
    store = SandboxStore(path, now=ManualClock(NOW))
    try:
        seed(store, "demo", posts=posts)
        with store.tx() as db:
            ids = [r["id"] for r in db.all("SELECT id FROM posts ORDER BY id")]
        return [p for p in (store.post(i) for i in ids) if p is not None]
    finally:
        store.close()


def test_demo_seed_is_deterministic_for_a_given_now(tmp_path: Path) -> None:
    one = _snapshot(tmp_path / "one.db", 60)
    two = _snapshot(tmp_path / "two.db", 60)
    assert one == two
    assert len(one) == 61  # plus the other workspace's post


def test_post_count_is_configurable(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "big.db", seed="demo", posts=400) as server:
        assert server.store.post_count() == 400
        # Seeded history is not in the outbox: a publisher must not deliver it.
        assert server.store.events() == []

"""Repurposes: the rule list and the activity items (25 per page, short meta, 403 across)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from app.sandbox.harness import SandboxServer

from .conftest import client_for

T0 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)


def test_items_are_ordered_by_source_time_falling_back_to_created(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    store = sandbox.store
    repurpose = store.create_repurpose(destination_account_ids=[store.account_id("tiktok")])
    oldest = store.add_repurpose_item(
        repurpose, source_created_at=T0, created_at=T0 + timedelta(days=9)
    )
    fallback = store.add_repurpose_item(repurpose, created_at=T0 + timedelta(days=2))
    newest = store.add_repurpose_item(
        repurpose, source_created_at=T0 + timedelta(days=3), created_at=T0
    )
    body = api.get(f"/repurposes/{repurpose}/items").json()
    assert [item["id"] for item in body["data"]] == [newest, fallback, oldest]
    assert body["meta"] == {"current_page": 1, "per_page": 25, "total": 3}
    item = body["data"][2]
    assert set(item) == {
        "id", "repurpose_id", "source_media_id", "source_permalink", "source_created_at",
        "status", "reason", "error", "posts", "created_at", "updated_at",
    }  # fmt: skip
    assert item["repurpose_id"] == repurpose
    assert datetime.fromisoformat(item["source_created_at"]) == T0
    assert body["data"][1]["source_created_at"] is None


def test_items_paginate_by_25(api: httpx.Client, sandbox: SandboxServer) -> None:
    repurpose = sandbox.store.create_repurpose()
    for n in range(27):
        sandbox.store.add_repurpose_item(repurpose, source_created_at=T0 + timedelta(hours=n))
    first = api.get(f"/repurposes/{repurpose}/items").json()
    assert len(first["data"]) == 25
    assert first["links"]["next"].endswith("?page=2")
    second = api.get(f"/repurposes/{repurpose}/items", params={"page": 2}).json()
    assert len(second["data"]) == 2
    assert second["meta"] == {"current_page": 2, "per_page": 25, "total": 27}


def test_item_posts_list_enabled_platforms(api: httpx.Client, sandbox: SandboxServer) -> None:
    store = sandbox.store
    [post] = store.insert_posts(1, account_id=store.account_id("tiktok"))
    store.set_post_status(post, "published", record_event=False)
    repurpose = store.create_repurpose()
    store.add_repurpose_item(repurpose, status="published", post_ids=[post])
    store.add_repurpose_item(
        repurpose, status="failed", reason="download_failed", error="GET [redacted] 403",
        source_created_at=T0,
    )  # fmt: skip
    items = api.get(f"/repurposes/{repurpose}/items").json()["data"]
    published = next(i for i in items if i["status"] == "published")
    assert published["posts"] == [
        {"id": post, "platforms": [{"platform": "tiktok", "status": "published"}]}
    ]
    assert published["reason"] is None
    failed = next(i for i in items if i["status"] == "failed")
    assert (failed["reason"], failed["error"], failed["posts"]) == (
        "download_failed",
        "GET [redacted] 403",
        [],
    )


def test_other_workspace_is_forbidden_and_unknown_is_missing(
    sandbox: SandboxServer, api: httpx.Client
) -> None:
    with client_for(sandbox, sandbox.keys.other_admin) as other:
        theirs = other.get("/repurposes").json()["data"][0]["id"]
        assert other.get(f"/repurposes/{theirs}/items").status_code == 200
    assert api.get(f"/repurposes/{theirs}/items").status_code == 403
    assert api.get("/repurposes/00000000-0000-4000-8000-000000000000/items").status_code == 404


def test_repurpose_list_is_paginated(api: httpx.Client, sandbox: SandboxServer) -> None:
    tiktok = sandbox.store.account_id("tiktok")
    repurpose = sandbox.store.create_repurpose("Reels to TikTok", destination_account_ids=[tiktok])
    body = api.get("/repurposes").json()
    assert body["meta"]["total"] == 1
    assert "links" in body["meta"]
    entry = body["data"][0]
    assert entry["id"] == repurpose
    assert entry["name"] == "Reels to TikTok"
    assert entry["destinations"] == [{"social_account_id": tiktok, "platform": "tiktok"}]

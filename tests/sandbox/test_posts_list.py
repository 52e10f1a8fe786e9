"""GET /posts and GET /posts/{id}: envelope, page size, ordering (§2 Pagination, §4 Posts)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from app.sandbox.harness import SandboxServer

PAGE_KEYS = {"current_page", "from", "to", "last_page", "per_page", "total", "path", "links"}
LIST_POST_KEYS = {
    "id", "content", "media", "status", "schedule_mode", "scheduled_at", "published_at",
    "platforms", "labels", "created_at", "updated_at",
}  # fmt: skip
BATCH_ONLY = {
    "post_group_id", "author", "approval_requested_by", "approval_requested_at", "approved_by",
    "approved_at", "recurrence", "origin",
}  # fmt: skip


def test_empty_list_has_the_full_envelope(api: httpx.Client, sandbox: SandboxServer) -> None:
    body = api.get("/posts").json()
    assert body["data"] == []
    path = f"{sandbox.base_url}/posts"
    assert body["links"] == {
        "first": f"{path}?page=1",
        "last": f"{path}?page=1",
        "prev": None,
        "next": None,
    }
    meta = body["meta"]
    assert set(meta) == PAGE_KEYS
    assert meta["current_page"] == 1
    assert meta["from"] is None
    assert meta["to"] is None
    assert meta["last_page"] == 1
    assert meta["per_page"] == 15
    assert meta["total"] == 0
    assert meta["path"] == path


def test_fifteen_per_page_with_page_links(api: httpx.Client, sandbox: SandboxServer) -> None:
    sandbox.store.insert_posts(32)
    first = api.get("/posts").json()
    assert len(first["data"]) == 15
    assert first["meta"]["total"] == 32
    assert first["meta"]["last_page"] == 3
    path = first["meta"]["path"]
    assert first["links"]["next"] == f"{path}?page=2"
    assert first["links"]["last"] == f"{path}?page=3"
    labels = [entry["label"] for entry in first["meta"]["links"]]
    assert labels == ["&laquo; Previous", "1", "2", "3", "Next &raquo;"]
    assert [e["active"] for e in first["meta"]["links"]] == [False, True, False, False, False]
    assert first["meta"]["links"][0]["url"] is None
    assert first["meta"]["links"][-1] == {
        "url": f"{path}?page=2",
        "label": "Next &raquo;",
        "page": 2,
        "active": False,
    }

    last = api.get("/posts", params={"page": 3}).json()
    assert len(last["data"]) == 2
    assert (last["meta"]["from"], last["meta"]["to"]) == (31, 32)
    assert last["links"]["next"] is None
    assert last["links"]["prev"] == f"{path}?page=2"
    assert last["meta"]["links"][-1]["url"] is None

    past_end = api.get("/posts", params={"page": 9}).json()
    assert past_end["data"] == []
    assert past_end["meta"]["total"] == 32
    assert past_end["meta"]["current_page"] == 9

    ids = [p["id"] for page in (1, 2, 3) for p in api.get(f"/posts?page={page}").json()["data"]]
    assert len(set(ids)) == 32


def test_malformed_page_reads_as_first_page(api: httpx.Client, sandbox: SandboxServer) -> None:
    sandbox.store.insert_posts(3)
    for page in ("abc", "0", "-4"):
        body = api.get("/posts", params={"page": page}).json()
        assert body["meta"]["current_page"] == 1
        assert len(body["data"]) == 3


def test_ordered_by_scheduled_at_desc_nulls_last_then_created_desc(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    store = sandbox.store
    base = datetime(2031, 5, 1, 9, 0, tzinfo=UTC)
    undated_old = store.insert_posts(1, content="undated old")
    early = store.insert_posts(1, scheduled_at=base, content="early")
    late = store.insert_posts(1, scheduled_at=base + timedelta(days=3), content="late")
    undated_new = store.insert_posts(1, content="undated new")
    middle = store.insert_posts(1, scheduled_at=base + timedelta(days=1), content="middle")
    ids = [p["id"] for p in api.get("/posts").json()["data"]]
    assert ids == late + middle + early + undated_new + undated_old


def test_list_entries_omit_batch_only_fields_and_match_single_read(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    label = sandbox.store.create_label("Promo", "#112233")
    [post_id] = sandbox.store.insert_posts(
        1, scheduled_at=datetime(2031, 1, 2, 3, 4, 5, tzinfo=UTC), label_ids=[label]
    )
    entry = api.get("/posts").json()["data"][0]
    assert set(entry) == LIST_POST_KEYS
    assert not BATCH_ONLY & set(entry)
    assert entry["scheduled_at"] == "2031-01-02 03:04:05"
    assert entry["labels"][0]["name"] == "Promo"
    platform = entry["platforms"][0]
    assert set(platform["social_account"]) == {
        "id", "platform", "display_name", "username", "is_active", "status",
    }  # fmt: skip
    single = api.get(f"/posts/{post_id}")
    assert single.status_code == 200
    assert single.json() == entry


def test_unknown_post_is_404(api: httpx.Client) -> None:
    response = api.get("/posts/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404
    assert set(response.json()) == {"message"}
    assert api.get("/posts/not-a-uuid").status_code == 404

"""One item that breaks the spec (a null where a value is promised) costs that item, not the
whole list: the good ones are kept, the bad one is reported with its id and what was wrong.
The sandbox never sends such items, hence a MockTransport here."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.models import ItemList, UnreadableItem
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from tests.api.helpers import json_response, make_client, post_json, posts_page


@pytest.mark.asyncio
async def test_a_label_with_a_null_name_is_left_out_and_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    labels = [
        {"id": "l1", "name": "News"},
        {"id": "l2", "name": None},
        {"id": 3, "name": "Promo"},
    ]
    client, _, _ = make_client(lambda _: json_response(200, labels))
    with caplog.at_level(logging.WARNING, logger="app.api"):
        async with client:
            result = await client.labels.list()
    assert [label.id for label in result] == ["l1", "3"]
    assert isinstance(result, ItemList)
    assert result.unreadable == [
        UnreadableItem(
            id="l2", index=1, reason="name: Input should be a valid string", source="GET /labels"
        )
    ]
    assert "item l2 of GET /labels: name: Input should be a valid string" in caplog.text


@pytest.mark.asyncio
async def test_a_post_with_a_null_status_is_left_out_of_its_page() -> None:
    page = posts_page(1, last_page=1, per_page=4)
    page["data"][2]["status"] = None
    page["data"][3] = None  # not even an object: no id to give
    client, _, _ = make_client(lambda _: json_response(200, page))
    async with client:
        result = await client.posts.page(1)
    assert [post.id for post in result.data] == ["post-0000", "post-0001"]
    assert [(item.id, item.index) for item in result.unreadable] == [
        ("post-0002", 2),
        (None, 3),
    ]
    assert result.unreadable[0].reason == "status: Input should be a valid string"
    assert result.unreadable[1].describe().startswith("item #4 of GET /posts: ")


@pytest.mark.asyncio
async def test_fetch_all_keeps_the_unreadable_items_of_every_page() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params["page"])
        page = posts_page(number, last_page=3)
        page["data"][0]["status"] = None
        return json_response(200, page)

    client, _, _ = make_client(handler)
    async with client:
        posts = await client.posts.fetch_all()
    assert len(posts) == 42
    assert [item.id for item in posts.unreadable] == ["post-0000", "post-0015", "post-0030"]


@pytest.mark.asyncio
async def test_an_audio_track_with_a_null_title_does_not_hide_the_others() -> None:
    tracks = [
        {"id": "a1", "type": "music", "title": "Morning"},
        {"id": "a2", "type": "music", "title": None},
    ]
    client, _, _ = make_client(lambda _: json_response(200, tracks))
    async with client:
        found = await client.audio.search("acc1")
    assert [track.id for track in found] == ["a1"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "body",
    [
        {"data": "not a list"},
        {"data": [post_json("p1")], "meta": {"current_page": "first"}},
        "just text",
    ],
)
async def test_a_broken_envelope_is_still_a_protocol_error(body: object) -> None:
    client, _, _ = make_client(lambda _: json_response(200, body))
    async with client:
        with pytest.raises(e.ProtocolError, match="expected shape"):
            await client.posts.page(1)


@pytest.mark.asyncio
async def test_a_single_object_is_not_salvaged() -> None:
    client, _, _ = make_client(lambda _: json_response(200, post_json("p1", status=None)))
    async with client:
        with pytest.raises(e.ProtocolError, match="status"):
            await client.posts.get("p1")


@pytest.mark.asyncio
async def test_the_sync_reports_unreadable_posts_and_keeps_their_saved_copy(
    tmp_path: Path,
) -> None:
    broken = {"post-0001"}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/social-accounts"):
            return json_response(200, [])
        if request.url.path.endswith("/labels"):
            return json_response(200, [{"id": "l1", "name": None}])
        page = posts_page(1, last_page=1, per_page=3)
        for post in page["data"]:
            if post["id"] in broken:
                post["status"] = None
        return json_response(200, page)

    states: list[SyncState] = []
    client, _, _ = make_client(handler)
    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        async with client:
            service = SyncService(client, cache, on_state=states.append, on_changed=lambda _: None)
            broken.clear()
            assert await service.full_refresh() is True
            assert cache.post_ids() == {"post-0000", "post-0001", "post-0002"}
            assert service.state.unreadable_summary() == "1 label could not be read: l1."
            broken.add("post-0001")
            assert await service.full_refresh() is True
            assert cache.post_ids() == {"post-0000", "post-0001", "post-0002"}
            assert await service.light_refresh() is True
        # Listed by the server, so not deleted: the copy saved before stays on the calendar.
        assert cache.post_ids() == {"post-0000", "post-0001", "post-0002"}
        assert cache.post("post-0001") is not None
    state = service.state
    assert state.phase == "idle"
    # Once per item, although the light refresh read it again; the label stays reported.
    assert [item.id for item in state.unreadable] == ["post-0001", "l1"]
    assert state.unreadable_summary() == (
        "1 post could not be read: post-0001. 1 label could not be read: l1."
    )
    assert [s.unreadable for s in states if s.phase == "syncing"][-1] != ()


def test_the_summary_groups_by_kind() -> None:
    items = (
        UnreadableItem("p7", 0, "status: null", "GET /posts"),
        UnreadableItem(None, 4, "status: null", "GET /posts"),
        UnreadableItem("a1", 0, "platform: null", "GET /social-accounts"),
    )
    state = SyncState("idle", "Up to date.", unreadable=items)
    assert state.unreadable_summary() == (
        "2 posts could not be read: p7, #5. 1 account could not be read: a1."
    )

"""One item that breaks the spec (a null where a value is promised) costs that item, not the
whole list: the good ones are kept, the bad one is reported with its id and what was wrong.
Posts and labels go further (issue 14 §5): one with a usable id is kept whatever else is wrong
in it, its unreadable parts left empty and named; only one without an id is left out.
The sandbox never sends such items, hence a MockTransport here."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.calendar.post_card import CardLabel
from app.models import ItemList, PostStatus, UnreadableItem, describe
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from tests.api.helpers import json_response, make_client, post_json, posts_page


@pytest.mark.asyncio
async def test_a_label_with_a_null_name_is_kept_as_unreadable_and_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Posts carry it by id: the filter must still offer it, and the Labels page rename it."""
    labels = [
        {"id": "l1", "name": "News"},
        {"id": "l2", "name": None, "color": "#123456"},
        {"id": 3, "name": "Promo"},
        {"name": "Nobody's"},  # no id: nothing to keep it by
    ]
    client, _, _ = make_client(lambda _: json_response(200, labels))
    with caplog.at_level(logging.WARNING, logger="app.api"):
        async with client:
            result = await client.labels.list()
    assert [label.id for label in result] == ["l1", "l2", "3"]
    assert [label.shown_name for label in result] == ["News", "(unreadable)", "Promo"]
    assert result[1].color == "#123456"
    assert isinstance(result, ItemList)
    assert result.unreadable == [
        UnreadableItem(
            id="l2",
            index=1,
            reason="name: Input should be a valid string",
            source="GET /labels",
            fields=("name",),
        ),
        UnreadableItem(id=None, index=3, reason="id: Field required", source="GET /labels"),
    ]
    assert [item.kept for item in result.unreadable] == [True, False]
    assert "item l2 of GET /labels: name: Input should be a valid string" in caplog.text


@pytest.mark.asyncio
async def test_a_post_with_a_null_status_is_kept_and_only_one_without_an_id_left_out() -> None:
    page = posts_page(1, last_page=1, per_page=5)
    page["data"][2].update(status=None, scheduled_at="2025-11-12 09:30:00")
    page["data"][2]["content"] = "<p>New spring menu, out now</p><p>Second line</p>"
    page["data"][3] = None  # not even an object: no id to give
    page["data"][4]["id"] = None
    client, _, _ = make_client(lambda _: json_response(200, page))
    async with client:
        result = await client.posts.page(1)
    assert [post.id for post in result.data] == ["post-0000", "post-0001", "post-0002"]
    assert result.data[2].status == ""
    assert describe(PostStatus, result.data[2].status) == "unknown"
    assert [(item.id, item.index, item.kept) for item in result.unreadable] == [
        ("post-0002", 2, True),
        (None, 3, False),
        (None, 4, False),
    ]
    kept = result.unreadable[0]
    assert kept.reason == "status: Input should be a valid string"
    assert kept.fields == ("status",)
    assert kept.text == "<p>New spring menu, out now</p><p>Second line</p>"
    assert kept.when == datetime(2025, 11, 12, 9, 30, tzinfo=UTC)
    assert result.unreadable[1].describe().startswith("item #4 of GET /posts: ")


@pytest.mark.asyncio
async def test_a_post_whose_nested_parts_are_bad_is_kept_with_those_parts_marked() -> None:
    """Nothing dropped for one bad field: a label without a name stays (its id keeps the filter
    working), a network entry without a platform stays; only nested things without an id go."""
    post = post_json(
        "p1",
        scheduled_at="2026-13-45 25:61:00",
        labels=[
            {"id": "l1", "name": None, "color": None},
            {"id": "l2", "name": "Promo", "color": 5},
            {"id": None, "name": "Ghost"},
            None,
        ],
        platforms=[
            {
                "id": "pp1",
                "platform": None,
                "status": None,
                "enabled": None,
                "social_account": {"id": None, "platform": "x"},
            },
            {"id": "pp2", "platform": "x", "status": "queued"},
        ],
        media=[{"id": None, "url": "https://cdn.example/a.jpg"}, {"id": "m1", "size": "big"}],
        author={"id": None, "name": "Ann"},
    )
    page = posts_page(1, last_page=1, per_page=2)
    page["data"][1] = post
    page["data"].append(post_json("p2", platforms=None, media=None, labels=None))
    client, _, _ = make_client(lambda _: json_response(200, page))
    async with client:
        result = await client.posts.page(1)
    assert [p.id for p in result.data] == ["post-0000", "p1", "p2"]
    kept = result.data[1]
    assert kept.status == "draft"
    assert kept.scheduled_at is None
    assert [(label.id, label.shown_name, label.color) for label in kept.labels] == [
        ("l1", "(unreadable)", None),
        ("l2", "Promo", None),
    ]
    assert [(p.id, p.platform, p.enabled, p.social_account) for p in kept.platforms] == [
        ("pp1", "", True, None),
        ("pp2", "x", True, None),
    ]
    assert [(m.id, m.size) for m in kept.media] == [("m1", None)]
    assert kept.author is None
    [item] = result.unreadable  # nulls where the models take them (p2) are no fault
    assert item.id == "p1"
    assert set(item.fields) == {
        "scheduled_at",
        "labels.0.name",
        "labels.1.color",
        "labels.2",
        "labels.3",
        "platforms.0.platform",
        "platforms.0.enabled",
        "platforms.0.social_account",
        "media.0",
        "media.1.size",
        "author",
    }


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
    assert len(posts) == 45  # kept, their status unknown
    assert [item.id for item in posts.unreadable] == ["post-0000", "post-0015", "post-0030"]
    assert all(item.kept for item in posts.unreadable)


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
async def test_the_sync_stores_posts_read_in_part_and_counts_those_without_an_id(
    tmp_path: Path,
) -> None:
    broken: set[str] = set()

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/social-accounts"):
            return json_response(200, [])
        if request.url.path.endswith("/labels"):
            return json_response(200, [{"id": "l1", "name": None, "color": "#E4572E"}])
        page = posts_page(1, last_page=1, per_page=3)
        for post in page["data"]:
            post["labels"] = [{"id": "l1", "name": None, "color": "#E4572E"}]
            if post["id"] in broken:
                post["id"] = None  # nothing to know it by: left out
            if post["id"] == "post-0002":
                post["status"] = None
        return json_response(200, page)

    states: list[SyncState] = []
    client, _, _ = make_client(handler)
    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        async with client:
            service = SyncService(client, cache, on_state=states.append, on_changed=lambda _: None)
            assert await service.full_refresh() is True
            # Every post is stored, with what could be read: the label by its id, shown as such.
            assert cache.post_ids() == {"post-0000", "post-0001", "post-0002"}
            stored = cache.post("post-0002")
            assert stored is not None
            assert stored.status == ""
            assert [label.id for label in stored.labels] == ["l1"]
            assert cache.label_choices() == [CardLabel("l1", "(unreadable)", "#E4572E")]
            cards = {card.id: card for card in cache.unscheduled_cards()}
            assert cards["post-0002"].status == ""
            assert cards["post-0001"].labels == (CardLabel("l1", "(unreadable)", "#E4572E"),)
            assert {(item.id, item.kept) for item in service.state.unreadable} == {
                ("post-0000", True),
                ("post-0001", True),
                ("post-0002", True),
                ("l1", True),
            }
            broken.add("post-0001")
            assert await service.full_refresh() is True
            assert await service.light_refresh() is True
        # Without its id nothing ties the item to a saved post: that one is no longer listed.
        assert cache.post_ids() == {"post-0000", "post-0002"}
    state = service.state
    assert state.phase == "idle"
    # Once per item, although the light refresh read it again; the label stays reported.
    assert [(item.id, item.index, item.kept) for item in state.unreadable] == [
        ("post-0000", 0, True),
        (None, 1, False),
        ("post-0002", 2, True),
        ("l1", 0, True),
    ]
    assert [s.unreadable for s in states if s.phase == "syncing"][-1] != ()


NOW = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)


def kept_post(
    post_id: str, content: str | None, when: datetime | None, *fields: str
) -> UnreadableItem:
    return UnreadableItem(post_id, 0, "a reason", "GET /posts", fields, content, when)


def test_the_summary_names_posts_by_their_first_line_and_day_never_by_id() -> None:
    items = (
        kept_post(
            "9b2f0e4a-1c5d-4e1b-8f0a-2a7c6c1d9e01",
            "<p>New spring menu: asparagus, morels and more</p><p>Book now</p>",
            datetime(2025, 11, 12, 9, 30, tzinfo=UTC),
            "status",
        ),
        UnreadableItem(None, 4, "id: Field required", "GET /posts"),
        UnreadableItem(None, 9, "item: not an object", "GET /posts"),
        UnreadableItem("a1", 0, "id: bad", "GET /social-accounts"),
    )
    state = SyncState("idle", "Up to date.", unreadable=items)
    summary = state.unreadable_summary(NOW)
    assert summary == (
        "1 post could not be read whole: “New spring menu: asparagus…” on 12 Nov (its status). "
        "2 posts in the list could not be read at all. "
        "1 account in the list could not be read at all."
    )
    assert "9b2f0e4a" not in summary
    assert "a1" not in summary
    assert "“(unreadable)” or “unknown”" in state.unreadable_hint()
    assert "left out; a saved copy of such a post is kept" in state.unreadable_hint()


def test_the_summary_groups_posts_by_what_could_not_be_read() -> None:
    nov = [datetime(2025, 11, day, 10, tzinfo=UTC) for day in range(1, 10)]
    label_posts = [kept_post(f"p{n}", f"Post {n}", nov[n], "labels.0.name") for n in range(7)]
    items = (
        *label_posts,
        kept_post("undated", None, None, "labels.1.name"),
        kept_post("s", "Status lost", datetime(2024, 12, 24, tzinfo=UTC), "status"),
        kept_post("n", "Two faults", None, "platforms.0.platform", "media.1", "media.2.size"),
        UnreadableItem("l1", 0, "name: null", "GET /labels", ("name",)),
        UnreadableItem("l2", 1, "color: 5", "GET /labels", ("color",), "Promo"),
    )
    state = SyncState("idle", "Up to date.", unreadable=items)
    assert state.unreadable_summary(NOW) == (
        "10 posts could not be read whole: a label on 8 of them (“Post 0” on 1 Nov, “Post 1” "
        "on 2 Nov and 6 more); “Status lost” on 24 Dec 2024 (its status); “Two faults” (one of "
        "its networks, its media). 1 label could not be read whole (its name): shown as "
        "“(unreadable)”. 1 label could not be read whole: “Promo” (its colour)."
    )
    hint = state.unreadable_hint()
    assert "Labels page" in hint
    assert "left out" not in hint


def test_a_long_first_line_is_cut_at_a_word_and_a_post_without_text_says_so() -> None:
    long_line = kept_post("p", "Sourdough Saturday is back and doors open at seven", None, "status")
    empty = kept_post("q", "<p></p>", None, "status")
    summary = SyncState("idle", "", unreadable=(long_line, empty)).unreadable_summary(NOW)
    assert "“Sourdough Saturday is back and…”, “(no text)”" in summary

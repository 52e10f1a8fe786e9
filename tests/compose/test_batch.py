"""Document -> batch / update bodies, sent to the sandbox and read back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.compose.batch import (
    MediaNotUploaded,
    build_batch,
    build_update,
    destination_indexes,
    ignored_fields,
    pending_uploads,
)
from app.compose.document import ComposerDocument, MediaAttachment, Schedule, ScheduleMode
from app.compose.opening import document_from_post, duplicate_document
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from tests.api.helpers import sandbox_client

TOMORROW = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)


def test_destinations_carry_only_what_they_override() -> None:
    doc = ComposerDocument(content="Shared", labels=["l1"])
    doc.add_destination("a", "x")
    pin = doc.add_destination("p", "pinterest")
    pin.content = "Own"
    pin.meta = {"board_id": "b"}
    off = doc.add_destination("z", "linkedin")
    off.enabled = False
    wire = build_batch(doc).to_wire()
    assert wire == {
        "content": "Shared",
        "labels": ["l1"],
        "destinations": [
            {"social_account_id": "a", "content_type": "x_post"},
            {
                "social_account_id": "p",
                "content_type": "pinterest_pin",
                "content": "Own",
                "meta": {"board_id": "b"},
            },
        ],
    }
    assert destination_indexes(doc) == {0: 0, 1: 1}


@pytest.mark.parametrize(
    ("schedule", "expected"),
    [
        (Schedule(), {}),
        (
            Schedule(mode=ScheduleMode.DRAFT, at=datetime(2031, 7, 1, 10, 0, tzinfo=UTC)),
            {"scheduled_at": "2031-07-01 06:00:00"},
        ),
        (
            Schedule(mode=ScheduleMode.AT, at=datetime(2031, 1, 1, 10, 0, tzinfo=UTC)),
            {"status": "scheduled", "scheduled_at": "2031-01-01 05:00:00"},
        ),
        (Schedule(mode=ScheduleMode.QUEUE_NEXT), {"status": "scheduled", "queue": "next"}),
        (Schedule(mode=ScheduleMode.QUEUE_TOP), {"status": "scheduled", "queue": "top"}),
        (Schedule(mode=ScheduleMode.PUBLISH_NOW), {"status": "publishing"}),
    ],
)
def test_schedule_modes_and_server_time_zone(schedule: Schedule, expected: dict[str, str]) -> None:
    doc = ComposerDocument(content="x", schedule=schedule)
    doc.add_destination("a", "x")
    wire = build_batch(doc).to_wire(ZoneInfo("America/New_York"))
    assert {k: v for k, v in wire.items() if k not in ("content", "destinations")} == expected


def test_media_must_be_uploaded_first() -> None:
    doc = ComposerDocument(
        content="x", media=[MediaAttachment(path="/tmp/a.png", mime="image/png")]
    )
    doc.add_destination("a", "x")
    assert pending_uploads(doc) == doc.media
    with pytest.raises(MediaNotUploaded) as caught:
        build_batch(doc)
    assert caught.value.attachments == doc.media
    doc.media[0].upload_token = "tok"
    assert pending_uploads(doc) == []
    assert build_batch(doc).to_wire()["media"] == [{"upload_token": "tok", "alt": ""}]


def test_nothing_enabled_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one account"):
        build_batch(ComposerDocument(content="x"))


@pytest.mark.asyncio
async def test_a_scheduled_batch_with_media_labels_and_overrides_round_trips(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    image = tmp_path / "latte.png"
    image.write_bytes(gradient_png(40, 30, (200, 150, 100), (40, 20, 10)))
    label = sandbox.store.create_label("Launch", "#aa5500")
    x_id = sandbox.store.account_id("x")
    tiktok_id = sandbox.store.account_id("tiktok")
    doc = ComposerDocument(
        content="New roast 🚀",
        media=[MediaAttachment(path=str(image), alt="Latte", mime="image/png")],
        labels=[label],
        schedule=Schedule(mode=ScheduleMode.AT, at=TOMORROW),
    )
    doc.add_destination(x_id, "x")
    tiktok = doc.add_destination(tiktok_id, "tiktok")
    tiktok.content = "TikTok words"
    tiktok.meta = {"privacy_level": "SELF_ONLY"}
    async with sandbox_client(sandbox) as client:
        for item in pending_uploads(doc):
            item.upload_token = await client.uploads.upload(Path(item.path or ""), item.mime)
        posts = await client.posts.create_batch(build_batch(doc))
    by_account = {
        p.platforms[0].social_account.id: p for p in posts if p.platforms[0].social_account
    }
    assert len({p.post_group_id for p in posts}) == 1
    x_post, tt_post = by_account[x_id], by_account[tiktok_id]
    assert x_post.content == "New roast 🚀"
    assert tt_post.content == "TikTok words"
    assert [m.meta.get("alt_text") for m in x_post.media] == ["Latte"]
    assert tt_post.platforms[0].meta == {"privacy_level": "SELF_ONLY"}
    assert all(p.status == "scheduled" and p.scheduled_at == TOMORROW for p in posts)
    assert all([lb.id for lb in p.labels] == [label] for p in posts)


@pytest.mark.asyncio
async def test_queue_next_schedules_into_the_channels_queue(sandbox: SandboxServer) -> None:
    doc = ComposerDocument(content="Queued", schedule=Schedule(mode=ScheduleMode.QUEUE_NEXT))
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin")
    async with sandbox_client(sandbox) as client:
        [post] = await client.posts.create_batch(build_batch(doc))
    assert post.status == "scheduled"
    assert post.schedule_mode == "queue"
    assert post.scheduled_at is not None
    assert post.scheduled_at > datetime.now(UTC)


@pytest.mark.asyncio
async def test_editing_saves_every_field_and_the_read_back_shows_none_ignored(
    sandbox: SandboxServer,
) -> None:
    label = sandbox.store.create_label("Edited", "#112233")
    doc = ComposerDocument(content="Before")
    doc.add_destination(sandbox.store.account_id("pinterest"), "pinterest")
    async with sandbox_client(sandbox) as client:
        boards = await client.accounts.boards(sandbox.store.account_id("pinterest"))
        [created] = await client.posts.create_batch(build_batch(doc))
        editing = document_from_post(created)
        assert editing.editing_post_id == created.id
        assert editing.based_on_updated_at == created.updated_at
        editing.content = "After"
        editing.labels = [label]
        editing.destinations[0].meta = {"board_id": boards[0].id, "title": "Beans"}
        editing.schedule = Schedule(mode=ScheduleMode.AT, at=TOMORROW)
        plan = build_update(editing, created)
        saved = await client.posts.update(created.id, plan.update)
        after = await client.posts.get(created.id)
    assert saved.status == "scheduled"
    assert after.content == "After"
    assert after.scheduled_at == TOMORROW
    assert after.platforms[0].meta == {"board_id": boards[0].id, "title": "Beans"}
    assert ignored_fields(plan.update, after) == []


@pytest.mark.asyncio
async def test_a_deployment_that_ignores_fields_is_noticed(sandbox: SandboxServer) -> None:
    label = sandbox.store.create_label("Ignored", "#445566")
    doc = ComposerDocument(content="Before")
    doc.add_destination(sandbox.store.account_id("tiktok"), "tiktok")
    async with sandbox_client(sandbox) as client:
        [created] = await client.posts.create_batch(build_batch(doc))
    editing = document_from_post(created)
    editing.content = "After"
    editing.labels = [label]
    editing.destinations[0].meta = {"privacy_level": "SELF_ONLY"}
    plan = build_update(editing, created)
    # `created` stands for a read-back from a server that kept nothing of the update.
    assert ignored_fields(plan.update, created) == ["content", "labels", "platforms.0.meta"]


@pytest.mark.asyncio
async def test_a_failed_post_returns_to_draft_when_edited(sandbox: SandboxServer) -> None:
    doc = ComposerDocument(content="Will fail")
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin")
    async with sandbox_client(sandbox) as client:
        [created] = await client.posts.create_batch(build_batch(doc))
        sandbox.store.set_post_status(created.id, "failed")
        failed = await client.posts.get(created.id)
        editing = document_from_post(failed)
        editing.content = "Fixed"
        plan = build_update(editing, failed)
        await client.posts.update(failed.id, plan.update)
        after = await client.posts.get(failed.id)
    assert plan.update.status == "draft"
    assert after.status == "draft"
    assert after.content == "Fixed"
    assert ignored_fields(plan.update, after) == []


def test_duplicating_keeps_text_accounts_and_settings_but_not_the_post() -> None:
    doc = ComposerDocument(content="x", labels=["l"])
    dest = doc.add_destination("p", "pinterest")
    dest.meta = {"board_id": "b"}
    dest.post_platform_id = "pp1"
    doc.editing_post_id = "post"
    from app.models.posts import Post

    post = Post.model_validate(
        {
            "id": "post",
            "status": "published",
            "content": "x",
            "labels": [{"id": "l", "name": "L", "color": "#000000"}],
            "platforms": [
                {
                    "id": "pp1",
                    "platform": "pinterest",
                    "content_type": "pinterest_pin",
                    "meta": {"board_id": "b"},
                    "social_account": {"id": "p", "platform": "pinterest"},
                }
            ],
        }
    )
    copy = duplicate_document(post)
    assert copy.editing_post_id is None
    assert copy.labels == ["l"]
    assert copy.content == "x"
    assert [(d.account_id, d.meta, d.post_platform_id) for d in copy.destinations] == [
        ("p", {"board_id": "b"}, None)
    ]


def test_a_blank_override_is_not_sent() -> None:
    doc = ComposerDocument(content="Shared")
    doc.add_destination("a", "x").content = "  "
    assert "content" not in build_batch(doc).to_wire()["destinations"][0]


def test_ignored_changes_are_named_in_words() -> None:
    from app.compose.batch import describe_ignored

    said = describe_ignored(
        ["content", "platforms.0.meta", "platforms.1.enabled", "platforms.7.meta"],
        {0: "Pinterest", 1: "X"},
    )
    assert said == (
        "the text, the Pinterest settings, switching X on or off, a destination's settings"
    )
    assert "platforms" not in said

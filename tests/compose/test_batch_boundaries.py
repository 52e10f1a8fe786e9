"""The bodies the composer sends and what it blocks, at their edges: blank text, a publish-now
edit of a dated post, settings read back with the server's own keys, errors a draft cannot
get past."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.compose.batch import build_batch, build_update, ignored_fields
from app.compose.checks import blocking, char_count, check_document
from app.compose.document import ComposerDocument, Schedule, ScheduleMode
from app.compose.opening import document_from_post
from app.models.posts import Post
from app.models.requests import PlatformToggle, PostUpdate
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client

NOW = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
TOMORROW = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)


# -- the shared text -----------------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["", " ", "\n\t  \n"])
def test_blank_shared_text_is_left_out_of_the_batch(blank: str) -> None:
    doc = ComposerDocument(content=blank)
    doc.add_destination("a", "x").content = "Own words"
    wire = build_batch(doc).to_wire()
    assert "content" not in wire
    assert wire["destinations"][0]["content"] == "Own words"


def test_shared_text_with_one_visible_character_is_sent_as_written() -> None:
    doc = ComposerDocument(content=" a ")
    doc.add_destination("a", "x")
    assert build_batch(doc).to_wire()["content"] == " a "


@pytest.mark.asyncio
async def test_a_blank_shared_text_does_not_reach_the_server(sandbox: SandboxServer) -> None:
    """Each destination has its own text; blank shared text must not be a post's text."""
    doc = ComposerDocument(content="   ")
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin").content = "LinkedIn"
    doc.add_destination(sandbox.store.account_id("x"), "x").content = "X"
    request = build_batch(doc)
    assert request.content is None
    async with sandbox_client(sandbox) as client:
        posts = await client.posts.create_batch(request)
    assert sorted(p.content or "" for p in posts) == ["LinkedIn", "X"]


# -- editing: publish now ----------------------------------------------------------------------


def _post(**fields: Any) -> Post:
    body: dict[str, Any] = {
        "id": "post-1",
        "status": "scheduled",
        "content": "Dated",
        "scheduled_at": "2031-02-01 10:00:00",
        "platforms": [
            {
                "id": "pp1",
                "platform": "pinterest",
                "content_type": "pinterest_pin",
                "meta": {"board_id": "b1"},
                "social_account": {"id": "acc", "platform": "pinterest"},
            }
        ],
    }
    body.update(fields)
    return Post.model_validate(body)


def test_a_publish_now_edit_of_a_scheduled_post_sends_no_time() -> None:
    original = _post()
    doc = document_from_post(original)
    assert doc.schedule.at is not None  # the document still holds the old time
    doc.schedule = Schedule(mode=ScheduleMode.PUBLISH_NOW, at=doc.schedule.at)
    update = build_update(doc, original).update
    assert update.status == "publishing"
    assert update.scheduled_at is None
    assert "scheduled_at" not in update.to_wire()


def test_a_queued_edit_keeps_the_posts_time_and_a_dated_one_sends_its_own() -> None:
    original = _post()
    doc = document_from_post(original)
    doc.schedule = Schedule(mode=ScheduleMode.QUEUE_NEXT)
    assert build_update(doc, original).update.scheduled_at == original.scheduled_at
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=NOW + timedelta(days=30))
    assert build_update(doc, original).update.scheduled_at == NOW + timedelta(days=30)


@pytest.mark.asyncio
async def test_a_scheduled_post_edited_to_publish_now_is_published(sandbox: SandboxServer) -> None:
    doc = ComposerDocument(content="Soon", schedule=Schedule(mode=ScheduleMode.AT, at=TOMORROW))
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin")
    async with sandbox_client(sandbox) as client:
        [created] = await client.posts.create_batch(build_batch(doc))
        editing = document_from_post(created)
        editing.schedule = Schedule(mode=ScheduleMode.PUBLISH_NOW, at=editing.schedule.at)
        plan = build_update(editing, created)
        await client.posts.update(created.id, plan.update)
        after = await client.posts.get(created.id)
    assert after.status in ("publishing", "published")
    assert "status" not in ignored_fields(plan.update, after)


# -- the read-back comparison of settings ----------------------------------------------------------


def _sent_meta(meta: dict[str, Any]) -> PostUpdate:
    return PostUpdate(
        platforms=[PlatformToggle(id="pp1", enabled=True, content_type="pinterest_pin", meta=meta)]
    )


def test_settings_the_server_added_keys_to_were_not_ignored() -> None:
    after = _post(
        platforms=[
            {
                "id": "pp1",
                "platform": "pinterest",
                "content_type": "pinterest_pin",
                "meta": {"board_id": "b1", "title": "T", "board_name": "Coffee", "pin_id": "9"},
                "social_account": {"id": "acc", "platform": "pinterest"},
            }
        ]
    )
    assert ignored_fields(_sent_meta({"board_id": "b1", "title": "T"}), after) == []


def test_a_setting_read_back_changed_or_missing_was_ignored() -> None:
    after = _post()  # meta {"board_id": "b1"}
    assert ignored_fields(_sent_meta({"board_id": "b2"}), after) == ["platforms.0.meta"]
    assert ignored_fields(_sent_meta({"board_id": "b1", "title": "T"}), after) == [
        "platforms.0.meta"
    ]
    assert ignored_fields(_sent_meta({}), after) == []


# -- what a draft cannot get past ---------------------------------------------------------------


def _issues(doc: ComposerDocument) -> dict[str, bool]:
    return {issue.path: issue.blocking for issue in check_document(doc, now=NOW)}


def test_a_wrong_setting_blocks_even_a_draft() -> None:
    doc = ComposerDocument(content="Pin")
    doc.add_destination("p", "pinterest").meta = {"title": "t" * 101, "link": "not a link"}
    assert doc.schedule.mode is ScheduleMode.DRAFT
    issues = _issues(doc)
    assert issues["destinations.0.meta.title"] is True
    assert issues["destinations.0.meta.link"] is True
    assert {i.path for i in blocking(check_document(doc, now=NOW))} >= {
        "destinations.0.meta.title",
        "destinations.0.meta.link",
    }


def test_a_content_type_the_network_does_not_have_blocks_even_a_draft() -> None:
    doc = ComposerDocument(content="Hi")
    doc.add_destination("a", "linkedin").content_type = "linkedin_story"
    assert _issues(doc) == {"destinations.0.content_type": True}


def test_too_long_text_and_too_many_files_only_warn_on_a_draft() -> None:
    doc = ComposerDocument(content="a" * 3001)
    doc.add_destination("a", "linkedin")
    assert _issues(doc) == {"destinations.0.content": False}
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=NOW + timedelta(hours=1))
    assert _issues(doc) == {"destinations.0.content": True}


def test_a_missing_required_setting_blocks_sending_but_not_a_draft() -> None:
    doc = ComposerDocument(content="Hello")
    doc.add_destination("d", "discord").meta = {"channel_id": "   "}
    assert "destinations.0.meta.channel_id" not in _issues(doc)
    doc.schedule = Schedule(mode=ScheduleMode.QUEUE_NEXT)
    assert _issues(doc)["destinations.0.meta.channel_id"] is True


# -- the schedule time and the counter at their edges ---------------------------------------------


def test_a_time_exactly_now_is_past_and_one_second_later_is_not() -> None:
    doc = ComposerDocument(content="Hi", schedule=Schedule(mode=ScheduleMode.AT, at=NOW))
    doc.add_destination("a", "linkedin")
    assert _issues(doc) == {"scheduled_at": True}
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=NOW + timedelta(seconds=1))
    assert _issues(doc) == {}
    doc.schedule = Schedule(mode=ScheduleMode.DRAFT, at=NOW)
    assert _issues(doc) == {"scheduled_at": False}
    doc.schedule = Schedule(mode=ScheduleMode.DRAFT, at=NOW + timedelta(seconds=1))
    assert _issues(doc) == {}


def test_the_counter_at_the_limit_and_one_over() -> None:
    doc = ComposerDocument(content="a" * 300)
    doc.add_destination("b", "bluesky")
    at = char_count(doc, 0)
    assert at is not None
    assert (at.used, at.limit, at.remaining, at.over_by) == (300, 300, 0, 0)
    doc.content = "a" * 301
    over = char_count(doc, 0)
    assert over is not None
    assert (over.remaining, over.over_by) == (-1, 1)

"""Posts against the sandbox: pagination, batch create, transitions, duplicate, uploads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api import errors as e
from app.models.requests import BatchRequest, Destination, MediaRef, PostUpdate
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from tests.api.helpers import sandbox_client


def tomorrow() -> datetime:
    return (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)


# -- pagination (read-only demo workspace) ----------------------------------------------------


@pytest.mark.asyncio
async def test_every_page_is_read_and_the_count_matches_the_total(
    shared_demo: SandboxServer,
) -> None:
    async with sandbox_client(shared_demo) as client:
        first = await client.posts.page(1)
        everything = await client.posts.fetch_all(concurrency=6)
        pages = [page async for page in client.posts.iter_pages(concurrency=3)]
    assert first.meta.per_page == 15
    assert first.meta.total == shared_demo.store.post_count() == len(everything)
    assert len({post.id for post in everything}) == len(everything)
    assert [page.page_number for page in pages] == list(range(1, first.last_page + 1))
    assert not pages[-1].has_next


@pytest.mark.asyncio
async def test_concurrent_and_sequential_walks_give_the_same_order(
    shared_demo: SandboxServer,
) -> None:
    async with sandbox_client(shared_demo) as client:
        concurrent = [post.id for post in await client.posts.fetch_all(concurrency=6)]
        sequential = [post.id async for post in client.posts.iter_items()]
        light = await client.posts.fetch_all(first_pages=2)
    assert concurrent == sequential
    assert [post.id for post in light] == sequential[:30]


@pytest.mark.asyncio
async def test_a_single_post_reads_like_its_list_entry(shared_demo: SandboxServer) -> None:
    async with sandbox_client(shared_demo) as client:
        listed = (await client.posts.page(2)).data[0]
        single = await client.posts.get(listed.id)
    assert single == listed
    assert single.created_at is not None
    assert single.created_at.tzinfo is not None


@pytest.mark.asyncio
async def test_a_post_of_another_workspace_is_not_found(sandbox: SandboxServer) -> None:
    [foreign] = sandbox.store.insert_posts(1, workspace_id=sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.NotFound) as caught:
            await client.posts.get(foreign)
        with pytest.raises(e.NotFound):
            await client.posts.delete(foreign)
    assert caught.value.route_missing is False
    assert sandbox.store.post(foreign) is not None


# -- batch create --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_batch_draft_makes_one_post_per_destination(sandbox: SandboxServer) -> None:
    x, linkedin = sandbox.store.account_id("x"), sandbox.store.account_id("linkedin")
    request = BatchRequest(
        content="Shared text",
        destinations=[
            Destination(social_account_id=x, content_type="x_post", content="Short for X"),
            Destination(social_account_id=linkedin, content_type="linkedin_post"),
        ],
    )
    async with sandbox_client(sandbox) as client:
        posts = await client.posts.create_batch(request)
    assert [post.status for post in posts] == ["draft", "draft"]
    assert len({post.post_group_id for post in posts}) == 1
    assert posts[0].post_group_id is not None
    assert [post.content for post in posts] == ["Short for X", "Shared text"]
    assert [
        [p.social_account.id for p in post.platforms if p.social_account] for post in posts
    ] == [
        [x],
        [linkedin],
    ]
    assert posts[0].author is not None
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_a_scheduled_batch_lands_at_the_requested_time(sandbox: SandboxServer) -> None:
    when = tomorrow()
    request = BatchRequest(
        content="Launch",
        status="scheduled",
        scheduled_at=when,
        destinations=[
            Destination(social_account_id=sandbox.store.account_id("x"), content_type="x_post")
        ],
    )
    async with sandbox_client(sandbox) as client:
        [post] = await client.posts.create_batch(request)
    assert post.status == "scheduled"
    assert post.scheduled_at == when
    events = [event.event_type for event in sandbox.store.events(post_id=post.id)]
    assert events == ["post.created", "post.scheduled"]


@pytest.mark.asyncio
async def test_a_queued_batch_takes_the_next_slot(sandbox: SandboxServer) -> None:
    request = BatchRequest(
        content="Queued",
        queue="next",
        destinations=[
            Destination(
                social_account_id=sandbox.store.account_id("linkedin"),
                content_type="linkedin_post",
            )
        ],
    )
    async with sandbox_client(sandbox) as client:
        [post] = await client.posts.create_batch(request)
    assert post.status == "scheduled"
    assert post.schedule_mode == "queue"
    assert post.scheduled_at is not None
    assert post.scheduled_at > datetime.now(UTC)


@pytest.mark.asyncio
async def test_missing_network_settings_are_reported_by_field_path(sandbox: SandboxServer) -> None:
    request = BatchRequest(
        content="Pin me",
        status="scheduled",
        scheduled_at=tomorrow(),
        destinations=[
            Destination(social_account_id=sandbox.store.account_id("x"), content_type="x_post"),
            Destination(
                social_account_id=sandbox.store.account_id("pinterest"),
                content_type="pinterest_pin",
                meta={"title": "No board"},
            ),
        ],
    )
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.create_batch(request)
    assert list(caught.value.errors) == ["destinations.1.meta.board_id"]
    assert caught.value.for_field("destinations.1.meta")
    assert caught.value.for_field("destinations.0") == []
    assert caught.value.message
    assert sandbox.store.post_count() == 0


@pytest.mark.asyncio
async def test_scheduling_in_the_past_is_refused(sandbox: SandboxServer) -> None:
    request = BatchRequest(
        content="Too late",
        status="scheduled",
        scheduled_at=datetime.now(UTC) - timedelta(hours=1),
        destinations=[
            Destination(social_account_id=sandbox.store.account_id("x"), content_type="x_post")
        ],
    )
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.create_batch(request)
    assert "scheduled_at" in caught.value.errors


# -- transitions ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_schedule_reschedule_unschedule_publish_and_delete(sandbox: SandboxServer) -> None:
    [post_id] = sandbox.store.insert_posts(1, account_id=sandbox.store.account_id("x"))
    first, later = tomorrow(), tomorrow() + timedelta(hours=5)
    async with sandbox_client(sandbox) as client:
        scheduled = await client.posts.schedule(post_id, first)
        moved = await client.posts.reschedule(post_id, later)
        back = await client.posts.unschedule(post_id)
        publishing = await client.posts.publish_now(post_id)
        await client.posts.delete(post_id)
        with pytest.raises(e.NotFound):
            await client.posts.get(post_id)
    assert (scheduled.status, scheduled.scheduled_at) == ("scheduled", first)
    assert (moved.status, moved.scheduled_at) == ("scheduled", later)
    assert back.status == "draft"
    assert publishing.status == "publishing"
    events = [event.event_type for event in sandbox.store.events(post_id=post_id)]
    assert events == ["post.scheduled", "post.unscheduled", "post.deleted"]


@pytest.mark.asyncio
async def test_a_published_post_cannot_be_republished(sandbox: SandboxServer) -> None:
    [post_id] = sandbox.store.insert_posts(1, account_id=sandbox.store.account_id("x"))
    sandbox.store.set_post_status(post_id, "published")
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.publish_now(post_id)
    assert "status" in caught.value.errors
    assert "duplicate" in caught.value.for_field("status")[0]


@pytest.mark.asyncio
async def test_an_update_can_disable_a_platform_and_set_labels(sandbox: SandboxServer) -> None:
    label_id = sandbox.store.create_label("Launch", "#ff8800")
    [post_id] = sandbox.store.insert_posts(1, account_id=sandbox.store.account_id("x"))
    async with sandbox_client(sandbox) as client:
        post = await client.posts.get(post_id)
        updated = await client.posts.update(
            post_id, PostUpdate(content="Edited", labels=[label_id])
        )
    assert updated.content == "Edited"
    assert [label.name for label in updated.labels] == ["Launch"]
    assert updated.platforms[0].id == post.platforms[0].id


@pytest.mark.asyncio
async def test_duplicate_copies_text_settings_and_labels_into_a_new_draft(
    sandbox: SandboxServer,
) -> None:
    label_id = sandbox.store.create_label("Evergreen", "#00aa00")
    pinterest = sandbox.store.account_id("pinterest")
    async with sandbox_client(sandbox) as client:
        boards = await client.accounts.boards(pinterest)
        [original] = await client.posts.create_batch(
            BatchRequest(
                content="Pin it",
                destinations=[
                    Destination(
                        social_account_id=pinterest,
                        content_type="pinterest_pin",
                        meta={"board_id": boards[0].id, "title": "Beans"},
                    )
                ],
            )
        )
        original = await client.posts.update(original.id, PostUpdate(labels=[label_id]))
        sandbox.store.set_post_status(original.id, "failed")
        [copy] = await client.posts.duplicate(await client.posts.get(original.id))
    assert copy.id != original.id
    assert copy.status == "draft"
    assert copy.content == "Pin it"
    assert [label.id for label in copy.labels] == [label_id]
    [platform] = copy.platforms
    assert platform.content_type == "pinterest_pin"
    assert platform.meta == {"board_id": boards[0].id, "title": "Beans"}
    assert platform.social_account is not None
    assert platform.social_account.id == pinterest


@pytest.mark.asyncio
async def test_an_uploaded_file_can_be_attached_by_token(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    image = tmp_path / "beans.png"
    image.write_bytes(gradient_png(4, 3, (0, 0, 0), (255, 255, 255)))
    async with sandbox_client(sandbox) as client:
        token = await client.uploads.upload(image)
        [post] = await client.posts.create_batch(
            BatchRequest(
                content="With a picture",
                media=[MediaRef(upload_token=token, alt="Beans")],
                destinations=[
                    Destination(
                        social_account_id=sandbox.store.account_id("x"), content_type="x_post"
                    )
                ],
            )
        )
    [media] = post.media
    assert media.mime_type == "image/png"
    assert media.original_filename == "beans.png"
    assert media.meta.get("alt_text") == "Beans"
    assert media.size == image.stat().st_size


@pytest.mark.asyncio
async def test_a_bad_upload_token_is_a_field_error(sandbox: SandboxServer) -> None:
    request = BatchRequest(
        content="x",
        media=[MediaRef(upload_token="upl_nope")],
        destinations=[
            Destination(social_account_id=sandbox.store.account_id("x"), content_type="x_post")
        ],
    )
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.create_batch(request)
    assert any(key.startswith("media.0") for key in caught.value.errors)

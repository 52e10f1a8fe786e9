"""The table drives the local checks and the sandbox alike: for each network's settings the
local checks flag exactly the fields the server's 422 names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.api import errors as e
from app.compose.batch import build_batch
from app.compose.checks import check_document, map_validation_error
from app.compose.document import ComposerDocument, Schedule, ScheduleMode
from app.networks import NETWORKS
from app.networks.discovery import compare_content_types
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client

LATER = datetime.now(UTC) + timedelta(days=2)

SCENARIOS: list[tuple[str, dict[str, Any], set[str]]] = [
    ("pinterest", {}, {"meta.board_id"}),
    ("pinterest", {"board_id": "no-such-board"}, {"meta.board_id"}),
    ("pinterest", {"board_id": "@board", "title": "t" * 101}, {"meta.title"}),
    ("pinterest", {"board_id": "@board", "link": "not a url"}, {"meta.link"}),
    ("tiktok", {}, {"meta.privacy_level"}),
    ("tiktok", {"privacy_level": "EVERYONE"}, {"meta.privacy_level"}),
    ("tiktok", {"privacy_level": "SELF_ONLY"}, set()),
    ("discord", {}, {"meta.channel_id"}),
    ("discord", {"channel_id": "@channel"}, set()),
    ("x", {"thread_replies": [{"text": "two"}, {"text": 3}]}, {"meta.thread_replies.1.text"}),
    ("x", {"thread_replies": [{"text": "two"}]}, set()),
    ("instagram-facebook", {"audio": {"id": "12ab"}}, {"meta.audio.id"}),
    ("instagram-facebook", {"audio": {"id": "1234"}}, set()),
    ("linkedin", {}, set()),
]


async def _first_ids(client: Any, sandbox: SandboxServer) -> dict[str, str]:
    boards = await client.accounts.boards(sandbox.store.account_id("pinterest"))
    channels = await client.accounts.channels(sandbox.store.account_id("discord"))
    return {"@board": boards[0].id, "@channel": channels[0].id}


def _server_paths(error: e.ValidationFailed) -> set[str]:
    return {key.removeprefix("destinations.0.") for key in error.errors}


@pytest.mark.asyncio
async def test_local_checks_and_the_sandbox_flag_the_same_fields(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        placeholders = await _first_ids(client, sandbox)
        accounts = {a.id: a for a in await client.accounts.list()}
        boards = {sandbox.store.account_id("pinterest"): [placeholders["@board"]]}
        channels = {sandbox.store.account_id("discord"): [placeholders["@channel"]]}
        for platform, raw_meta, expected in SCENARIOS:
            meta = {
                k: placeholders.get(v, v) if isinstance(v, str) else v for k, v in raw_meta.items()
            }
            doc = ComposerDocument(
                content="Fresh roast today", schedule=Schedule(mode=ScheduleMode.AT, at=LATER)
            )
            dest = doc.add_destination(sandbox.store.account_id(platform), platform)
            if platform == "instagram-facebook":
                dest.content_type = "instagram_reel"
            dest.meta = meta
            local = {
                i.path.removeprefix("destinations.0.")
                for i in check_document(doc, accounts, board_ids=boards, channel_ids=channels)
                if i.blocking and not i.path.endswith(".media")  # media rules are ours only
            }
            assert local == expected, (platform, meta)
            try:
                await client.posts.create_batch(build_batch(doc))
                server: set[str] = set()
            except e.ValidationFailed as error:
                server = _server_paths(error)
            assert server == expected, (platform, meta)


@pytest.mark.asyncio
async def test_text_or_media_is_needed_to_schedule_on_both_sides(sandbox: SandboxServer) -> None:
    doc = ComposerDocument(schedule=Schedule(mode=ScheduleMode.AT, at=LATER))
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin")
    local = {i.path for i in check_document(doc) if i.blocking}
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.create_batch(build_batch(doc))
    assert local == set(caught.value.errors) == {"destinations.0.content"}
    # The same empty document is a fine draft.
    doc.schedule = Schedule()
    assert not [i for i in check_document(doc) if i.blocking]


@pytest.mark.asyncio
async def test_a_422_lands_on_the_third_destinations_board(sandbox: SandboxServer) -> None:
    doc = ComposerDocument(content="Pin me", schedule=Schedule(mode=ScheduleMode.AT, at=LATER))
    doc.add_destination(sandbox.store.account_id("x"), "x")
    doc.add_destination(sandbox.store.account_id("linkedin"), "linkedin")
    doc.add_destination(sandbox.store.account_id("pinterest"), "pinterest")
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.create_batch(build_batch(doc))
    mapped = map_validation_error(caught.value)
    assert list(mapped) == ["destinations.2.meta.board_id"]
    assert (
        mapped["destinations.2.meta.board_id"]
        == caught.value.errors["destinations.2.meta.board_id"]
    )
    assert "board" in mapped["destinations.2.meta.board_id"][0]


@pytest.mark.asyncio
async def test_the_table_matches_the_sandboxs_content_types(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        offered = await client.workspace.content_types()
    diff = compare_content_types(offered)
    assert diff.none, diff.describe()
    assert len(offered) == sum(len(n.content_types) for n in NETWORKS.values())

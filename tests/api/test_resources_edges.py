"""Edges of the resource calls (posts, labels, signatures, webhooks, uploads, workspace,
accounts, repurposes): the request a failure message names, the first page asked for by
default, what a duplicate copies, the server's time zone on the wire, and answers of another
shape. Mock transport: every answer here is one the sandbox never gives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.models.posts import Post
from app.models.requests import (
    BatchRequest,
    Destination,
    LabelInput,
    PostUpdate,
    SignatureInput,
    WebhookInput,
    WebhookUpdate,
)
from tests.api.helpers import BASE_URL, json_response, make_client, post_json

Call = Callable[[ApiClient], Awaitable[Any]]

SIGNATURE = SignatureInput(name="Team", content="— the team")
LABEL = LabelInput(name="News", color="#112233")
BATCH = BatchRequest(destinations=[Destination(social_account_id="a1", content_type="x_post")])
HOOK = WebhookInput(endpoint="https://example.test/hook", events=["post.published"])


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("call", "request_named"),
    [
        (lambda c: c.signatures.create(SIGNATURE), "POST /signatures"),
        (lambda c: c.signatures.update("s1", SIGNATURE), "PUT /signatures/s1"),
        (lambda c: c.labels.create(LABEL), "POST /labels"),
        (lambda c: c.labels.update("l1", LABEL), "PUT /labels/l1"),
        (lambda c: c.posts.create_batch(BATCH), "POST /posts/batch"),
        (lambda c: c.posts.update("p1", PostUpdate(status="draft")), "PUT /posts/p1"),
        (lambda c: c.webhooks.list(), "GET /webhooks"),
        (lambda c: c.webhooks.get("w1"), "GET /webhooks/w1"),
        (lambda c: c.webhooks.create(HOOK), "POST /webhooks"),
        (lambda c: c.webhooks.update("w1", WebhookUpdate(status="disabled")), "PUT /webhooks/w1"),
        (lambda c: c.webhooks.rotate_secret("w1"), "POST /webhooks/w1/rotate-secret"),
        (lambda c: c.webhooks.send_test("w1"), "POST /webhooks/w1/test"),
        (lambda c: c.workspace.content_types(), "GET /content-types"),
        (lambda c: c.accounts.boards("pin"), "GET /social-accounts/pin/boards"),
        (lambda c: c.accounts.channels("disc"), "GET /social-accounts/disc/channels"),
    ],
)
async def test_an_answer_of_another_shape_names_the_request(call: Call, request_named: str) -> None:
    client, _, _ = make_client(lambda _r: json_response(200, "nope"))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await call(client)
    assert str(caught.value).startswith(
        f"The server's answer to {request_named} does not have the expected shape ("
    )


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("call", "path"),
    [
        (lambda c: c.posts.page(), "/api/posts"),
        (lambda c: c.signatures.page(), "/api/signatures"),
        (lambda c: c.repurposes.page(), "/api/repurposes"),
        (lambda c: c.repurposes.items_page("r1"), "/api/repurposes/r1/items"),
        (lambda c: c.webhooks.logs_page("w1"), "/api/webhooks/w1/logs"),
    ],
)
async def test_a_page_asked_for_without_a_number_is_the_first(call: Call, path: str) -> None:
    client, recorder, _ = make_client(lambda _r: json_response(200, {"data": []}))
    async with client:
        await call(client)
    [request] = recorder.requests
    assert (request.url.path, str(request.url.params)) == (path, "page=1")


def signatures_page(number: int, ids: list[str]) -> dict[str, Any]:
    return {
        "data": [{"id": i, "name": f"Sig {i}", "content": ""} for i in ids],
        "meta": {"current_page": number, "last_page": 2, "per_page": 2, "total": 4},
    }


@pytest.mark.asyncio
async def test_a_signature_that_shifts_to_the_next_page_is_listed_once() -> None:
    pages = {1: ["s1", "s2"], 2: ["s2", "s3"]}  # s0 deleted between the two reads
    client, _, _ = make_client(
        lambda r: json_response(
            200, signatures_page(int(r.url.params["page"]), pages[int(r.url.params["page"])])
        )
    )
    async with client:
        signatures = await client.signatures.all()
    assert [s.id for s in signatures] == ["s1", "s2", "s3"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("call", "most_at_once"),
    [(lambda c: c.signatures.all(), 4), (lambda c: c.posts.fetch_all(), 6)],
)
async def test_a_whole_list_is_read_a_few_pages_at_a_time(call: Call, most_at_once: int) -> None:
    """The server's per-minute limit is shared by the workspace: a list of twelve pages is
    not asked for all at once."""
    in_flight = [0]
    peak = [0]

    async def answer(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params["page"])
        in_flight[0] += 1
        peak[0] = max(peak[0], in_flight[0])
        for _ in range(20):  # let the other requests start, if they may
            await asyncio.sleep(0)
        in_flight[0] -= 1
        item = {**post_json(f"i{number}"), "name": "Sig"}
        meta = {"current_page": number, "last_page": 12, "per_page": 1, "total": 12}
        return json_response(200, {"data": [item], "meta": meta})

    client, recorder, _ = make_client(answer)
    async with client:
        items = await call(client)
    assert len(items) == 12
    assert len(recorder.requests) == 12
    assert peak[0] == most_at_once


# -- duplicate -------------------------------------------------------------------------------


def platform(entry_id: str, account: str | None, content_type: str | None, enabled: bool) -> dict:
    return {
        "id": entry_id,
        "platform": "x",
        "content_type": content_type,
        "enabled": enabled,
        "social_account": {"id": account, "platform": "x"} if account else None,
    }


async def duplicated(post: Post) -> list[dict[str, Any]]:
    """The destinations of the batch a duplicate sends."""
    sent: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.extend(body["destinations"])
        return json_response(200, {"posts": [post_json("new")]})

    client, _, _ = make_client(handler)
    async with client:
        await client.posts.duplicate(post)
    return sent


@pytest.mark.asyncio
async def test_a_duplicate_copies_only_the_enabled_destinations() -> None:
    post = Post.model_validate(
        post_json(
            "p1",
            platforms=[
                platform("e1", "a1", "x_post", enabled=True),
                platform("e2", "a2", "x_post", enabled=False),
            ],
        )
    )
    sent = await duplicated(post)
    assert [d["social_account_id"] for d in sent] == ["a1"]


@pytest.mark.asyncio
async def test_a_duplicate_of_a_post_with_every_destination_off_copies_them_all() -> None:
    post = Post.model_validate(
        post_json(
            "p1",
            platforms=[
                platform("e1", "a1", "x_post", enabled=False),
                platform("e2", "a2", "x_post", enabled=False),
            ],
        )
    )
    sent = await duplicated(post)
    assert [d["social_account_id"] for d in sent] == ["a1", "a2"]


@pytest.mark.asyncio
async def test_a_duplicate_skips_entries_without_an_account_or_a_content_type() -> None:
    post = Post.model_validate(
        post_json(
            "p1",
            platforms=[
                platform("e1", None, "x_post", enabled=True),
                platform("e2", "a2", None, enabled=True),
                platform("e3", "a3", "x_post", enabled=True),
            ],
        )
    )
    sent = await duplicated(post)
    assert [(d["social_account_id"], d["content_type"]) for d in sent] == [("a3", "x_post")]


# -- the server's time zone on the wire ------------------------------------------------------


@pytest.mark.asyncio
async def test_a_schedule_is_sent_as_the_servers_wall_time() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return json_response(200, post_json("p1", status="scheduled"))

    client, _, _ = make_client(handler, server_tz=ZoneInfo("Europe/Berlin"))
    async with client:
        await client.posts.schedule("p1", datetime(2025, 11, 12, 9, 30, tzinfo=UTC))
    assert bodies == [{"status": "scheduled", "scheduled_at": "2025-11-12 10:30:00"}]


# -- replay, upload, workspace ---------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("answer", "queued"),
    [({"replayed": True}, True), ({"replayed": False}, False), ({"replayed": "yes"}, False)],
)
async def test_a_replay_is_queued_only_when_the_server_says_so(answer: Any, queued: bool) -> None:
    client, _, _ = make_client(lambda _r: json_response(200, answer))
    async with client:
        assert await client.webhooks.replay("w1", "log1") is queued


@pytest.mark.asyncio
async def test_a_replay_answered_with_nothing_is_not_taken_as_queued() -> None:
    client, _, _ = make_client(lambda _r: httpx.Response(204))
    async with client:
        assert await client.webhooks.replay("w1", "log1") is False


@pytest.mark.asyncio
async def test_a_file_of_an_unknown_kind_is_uploaded_as_octet_stream(tmp_path: Path) -> None:
    path = tmp_path / "notes.zzq"
    path.write_bytes(b"\x00\x01")
    client, recorder, _ = make_client(lambda _r: json_response(200, {"upload_token": "t1"}))
    async with client:
        assert await client.uploads.upload(path) == "t1"
    content = recorder.requests[0].content
    assert b'filename="notes.zzq"\r\nContent-Type: application/octet-stream\r\n' in content


@pytest.mark.asyncio
@pytest.mark.parametrize("answer", [["t1"], {"upload_token": 5}, {"upload_token": ""}, {}])
async def test_an_upload_answer_without_a_usable_token_is_a_protocol_error(
    answer: Any, tmp_path: Path
) -> None:
    path = tmp_path / "a.png"
    path.write_bytes(b"png")
    client, _, _ = make_client(lambda _r: json_response(200, answer))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.uploads.upload(path)
    assert str(caught.value) == "The server's answer to POST /uploads has no upload token."


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("answer", "record"),
    [
        ({"data": {"id": "w1", "name": "Cafe"}}, {"id": "w1", "name": "Cafe"}),
        ({"data": {"id": "w1"}, "plan": "pro"}, {"data": {"id": "w1"}, "plan": "pro"}),
        ([{"id": "w1"}], None),
    ],
)
async def test_the_workspace_record_is_read_as_sent(answer: Any, record: Any) -> None:
    client, _, _ = make_client(lambda _r: json_response(200, answer))
    async with client:
        assert await client.workspace.workspace() == record


@pytest.mark.asyncio
async def test_content_types_keep_their_own_id_and_skip_what_cannot_be_named() -> None:
    answer = [
        "x_post",
        5,
        {"id": "reel", "content_type": "instagram_reel", "label": "Reel"},
        {"content_type": "pinterest_pin", "label": "Pin"},
    ]
    client, _, _ = make_client(lambda _r: json_response(200, answer))
    async with client:
        types = await client.workspace.content_types()
    assert [t.id for t in types] == ["x_post", "reel", "pinterest_pin"]


@pytest.mark.asyncio
async def test_a_429_on_an_account_route_holds_back_the_next_try_until_retry_after() -> None:
    """Only the audio search's own 429 is left to the audio budget; any other route of an
    account (a toggle here) holds the workspace: nothing is sent again before Retry-After."""
    answers = iter(
        [
            json_response(429, {"message": "Slow down"}, {"Retry-After": "7"}),
            json_response(200, {"id": "a1", "platform": "x", "is_active": False}),
        ]
    )
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        account = await client.accounts.toggle("a1")
    assert account is not None
    assert account.is_active is False
    assert clock.sleeps == [7]
    assert [r.url.path for r in recorder.requests] == [
        f"{httpx.URL(BASE_URL).path}/social-accounts/a1/toggle"
    ] * 2

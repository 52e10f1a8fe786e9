"""Retry rules: what is tried again, how long we wait, and what is never resent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import httpx
import pytest

from app.api import errors as e
from app.api.retry import (
    MAX_RETRY_AFTER,
    MIN_RETRY_AFTER,
    RetryPolicy,
    parse_retry_after,
    retry_after_said,
)
from app.models.requests import BatchRequest, Destination, LabelInput
from tests.api.helpers import json_response, make_client, post_json

BATCH = BatchRequest(destinations=[Destination(social_account_id="a1", content_type="x_post")])
LABEL_JSON = {"id": "l1", "name": "News", "color": "#112233"}


def sequence(*steps: httpx.Response | Exception) -> Callable[[httpx.Request], httpx.Response]:
    """A handler answering (or failing) with each step in turn."""
    remaining = list(steps)

    def handler(request: httpx.Request) -> httpx.Response:
        step = remaining.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    return handler


def ok_batch() -> httpx.Response:
    return json_response(201, {"posts": [post_json("new")]})


@pytest.mark.asyncio
async def test_a_connect_error_is_retried_with_growing_backoff() -> None:
    client, recorder, clock = make_client(
        sequence(
            httpx.ConnectError("refused"),
            httpx.ConnectError("refused"),
            json_response(200, [LABEL_JSON]),
        )
    )
    async with client:
        labels = await client.labels.list()
    assert [label.name for label in labels] == ["News"]
    assert len(recorder.requests) == 3
    assert clock.sleeps == [0.5, 1.0]


@pytest.mark.asyncio
async def test_connect_errors_give_up_after_max_attempts() -> None:
    client, recorder, clock = make_client(
        sequence(*[httpx.ConnectError("refused")] * 4), retry=RetryPolicy(jitter=0, max_delay=0.8)
    )
    async with client:
        with pytest.raises(e.ConnectionFailed):
            await client.accounts.list()
    assert len(recorder.requests) == 4
    assert clock.sleeps == [0.5, 0.8, 0.8]


@pytest.mark.asyncio
async def test_a_429_then_success_waits_the_servers_retry_after_and_tells_the_hook() -> None:
    limited = json_response(
        429, {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}, {"Retry-After": "7"}
    )
    seen: list[tuple[int, float, str]] = []
    client, recorder, clock = make_client(
        sequence(limited, json_response(200, post_json("p1"))),
        on_retry=lambda attempt, delay, error: seen.append((attempt, delay, type(error).__name__)),
    )
    async with client:
        post = await client.posts.get("p1")
    assert post.id == "p1"
    assert clock.sleeps == [7.0]
    assert seen == [(1, 7.0, "RateLimited")]
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_retry_after_beyond_the_cap_raises_at_once() -> None:
    limited = json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "61"})
    client, recorder, clock = make_client(sequence(limited))
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.posts.get("p1")
    assert caught.value.retry_after == 61
    assert clock.sleeps == []
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_a_429_without_retry_after_backs_off_and_finally_raises() -> None:
    limited = json_response(429, {"message": "Too Many Attempts."})
    client, recorder, clock = make_client(sequence(*[limited] * 4))
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.posts.get("p1")
    assert caught.value.retry_after is None
    assert clock.sleeps == [0.5, 1.0, 2.0]
    assert len(recorder.requests) == 4


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [502, 503, 504])
async def test_gateway_failures_are_retried_for_reads(status: int) -> None:
    client, recorder, _ = make_client(
        sequence(json_response(status, {"message": "busy"}), json_response(200, [LABEL_JSON]))
    )
    async with client:
        assert len(await client.labels.list()) == 1
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_503_with_retry_after_waits_that_long() -> None:
    client, _, clock = make_client(
        sequence(
            httpx.Response(503, headers={"Retry-After": "3"}), json_response(200, [LABEL_JSON])
        )
    )
    async with client:
        await client.labels.list()
    assert clock.sleeps == [3.0]


@pytest.mark.asyncio
async def test_a_put_is_retried_on_503_but_not_after_a_read_timeout() -> None:
    client, recorder, _ = make_client(
        sequence(json_response(503, {"message": "busy"}), json_response(200, LABEL_JSON))
    )
    async with client:
        await client.labels.update("l1", LabelInput(name="News", color="#112233"))
    assert len(recorder.requests) == 2

    client, recorder, _ = make_client(sequence(httpx.ReadTimeout("slow")))
    async with client:
        with pytest.raises(e.RequestTimedOut) as caught:
            await client.labels.update("l1", LabelInput(name="News", color="#112233"))
    assert "may or may not" in caught.value.message
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "failure",
    [httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("dropped"), httpx.ReadError("reset")],
)
async def test_reads_are_retried_after_a_lost_answer(failure: Exception) -> None:
    client, recorder, _ = make_client(sequence(failure, json_response(200, post_json("p1"))))
    async with client:
        assert (await client.posts.get("p1")).id == "p1"
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_read_that_keeps_timing_out_raises_request_timed_out() -> None:
    client, recorder, _ = make_client(sequence(*[httpx.ReadTimeout("slow")] * 4))
    async with client:
        with pytest.raises(e.RequestTimedOut):
            await client.posts.get("p1")
    assert len(recorder.requests) == 4


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("slow"),
        httpx.WriteTimeout("slow"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ReadError("connection reset"),
    ],
)
async def test_a_batch_that_may_have_been_sent_is_never_resent(failure: Exception) -> None:
    client, recorder, clock = make_client(sequence(failure, ok_batch()))
    async with client:
        with pytest.raises(e.OutcomeUnknown) as caught:
            await client.posts.create_batch(BATCH)
    assert len(recorder.requests) == 1
    assert clock.sleeps == []
    assert "Refresh" in caught.value.hint


@pytest.mark.asyncio
@pytest.mark.parametrize("failure", [httpx.ConnectError("refused"), httpx.ConnectTimeout("slow")])
async def test_a_batch_that_was_never_sent_is_retried(failure: Exception) -> None:
    client, recorder, _ = make_client(sequence(failure, ok_batch()))
    async with client:
        posts = await client.posts.create_batch(BATCH)
    assert [post.id for post in posts] == ["new"]
    assert len(recorder.requests) == 2
    assert recorder.requests[0].read() == recorder.requests[1].read()


@pytest.mark.asyncio
async def test_a_batch_refused_with_429_is_retried_after_the_wait() -> None:
    limited = json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "2"})
    client, recorder, clock = make_client(sequence(limited, ok_batch()))
    async with client:
        await client.posts.create_batch(BATCH)
    assert len(recorder.requests) == 2
    assert clock.sleeps == [2.0]


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_batch_answered_with_a_gateway_error_is_not_resent(status: int) -> None:
    client, recorder, _ = make_client(sequence(json_response(status, {"message": "x"}), ok_batch()))
    async with client:
        with pytest.raises(e.ApiError):
            await client.posts.create_batch(BATCH)
    assert len(recorder.requests) == 1


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("5", 5.0),
        (" 12 ", 12.0),
        # issue 19 §3: nothing below a second (a -5 made 1,687 requests in 50 s), nothing above
        # 15 minutes (99999999 locked the workspace with no way out)
        ("0", MIN_RETRY_AFTER),
        ("-3", MIN_RETRY_AFTER),
        ("-5", MIN_RETRY_AFTER),
        ("soon", MIN_RETRY_AFTER),
        ("nan", MIN_RETRY_AFTER),
        ("99999999", MAX_RETRY_AFTER),
        ("1e400", MIN_RETRY_AFTER),
    ],
)
def test_retry_after_parsing_is_clamped(header: str, expected: float | None) -> None:
    assert parse_retry_after({"retry-after": header}) == expected
    assert retry_after_said({"retry-after": header}) == header.strip()


def test_retry_after_as_an_http_date() -> None:
    now = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after({"retry-after": "Sat, 01 Mar 2025 12:00:30 GMT"}, now) == 30.0
    assert parse_retry_after({}, now) is None


def test_a_retry_after_date_counts_from_the_servers_date_not_this_computers_clock() -> None:
    headers = {
        "retry-after": "Sat, 01 Mar 2025 12:00:30 GMT",
        "date": "Sat, 01 Mar 2025 12:00:00 GMT",
    }
    assert parse_retry_after(headers) == 30.0  # this computer's clock says 2026 or later


def test_backoff_is_capped_and_jittered_upwards_only() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0, jitter=0.25)
    assert [policy.backoff(n, lambda: 0.0) for n in range(1, 7)] == [0.5, 1, 2, 4, 8, 8]
    assert policy.backoff(3, lambda: 1.0) == 2.5


@pytest.mark.asyncio
@pytest.mark.parametrize("method", ["PUT", "DELETE"])
@pytest.mark.parametrize(
    ("failure", "raised"),
    [
        (httpx.RemoteProtocolError("Server disconnected without sending a response."), "lost"),
        (httpx.ReadError("connection reset by peer"), "lost"),
        (httpx.WriteError("broken pipe"), "lost"),
        (httpx.ReadTimeout("slow"), "timeout"),
    ],
)
async def test_a_change_is_never_resent_after_the_connection_dropped(
    method: str, failure: Exception, raised: str
) -> None:
    # The change may have reached the server: sending it again could apply it twice.
    client, recorder, clock = make_client(sequence(failure, json_response(200, post_json("p1"))))
    expected = e.ConnectionFailed if raised == "lost" else e.RequestTimedOut
    change = client.posts.unschedule if method == "PUT" else client.posts.delete
    async with client:
        with pytest.raises(expected) as caught:
            await change("p1")
    assert [request.method for request in recorder.requests] == [method]
    assert clock.sleeps == []
    assert "may or may not" in caught.value.message

"""Edges of the board and channel lookups (spec §4 reduced route set, §8 per-user budget): what
is shared and cached per kind, the words of a missing route, and how often a closed budget or a
429 is waited out before giving up. Mock transport: the sandbox never answers them with 429s."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

import httpx
import pytest

from app.api import errors as e
from app.api.lookups import LookupUnavailable
from tests.api.helpers import FakeClock, json_response, make_client

BOARDS = [{"id": "b1", "name": "Beans"}]
CHANNELS = [{"id": "c1", "name": "general"}]


def by_kind(request: httpx.Request) -> httpx.Response:
    return json_response(200, BOARDS if request.url.path.endswith("/boards") else CHANNELS)


def slow_down(seconds: int | None = 7) -> httpx.Response:
    headers = {"Retry-After": str(seconds)} if seconds is not None else {}
    return json_response(429, {"message": "Slow down"}, headers)


async def until(condition: Callable[[], bool]) -> None:
    """Lets the event loop run until `condition` holds; bounded, so a hang is a failure."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


class RoundingClock(FakeClock):
    """Sleeps whole seconds, rounded down; gives up loudly rather than spin."""

    async def sleep(self, seconds: float) -> None:
        if len(self.sleeps) >= 5:
            raise AssertionError(f"slept too often: {self.sleeps}")
        await super().sleep(math.floor(seconds))


@pytest.mark.asyncio
async def test_channels_are_cached_as_channels_not_as_boards() -> None:
    client, recorder, _ = make_client(by_kind)
    async with client:
        channels = await client.lookups.channels("disc")
        assert [item.name for item in channels] == ["general"]
        assert client.lookups.cached("channels", "disc") == channels
        assert client.lookups.cached("boards", "disc") is None
        assert await client.lookups.channels("disc") == channels
    assert recorder.paths == ["/api/social-accounts/disc/channels"]


@pytest.mark.asyncio
async def test_lookups_at_once_share_a_request_per_kind_and_account() -> None:
    release = asyncio.Event()

    async def held(request: httpx.Request) -> httpx.Response:
        await release.wait()
        return by_kind(request)

    client, recorder, _ = make_client(held)
    async with client:
        calls = [
            asyncio.ensure_future(client.lookups.boards("pin")),
            asyncio.ensure_future(client.lookups.channels("disc")),
            asyncio.ensure_future(client.lookups.boards("pin")),
        ]
        try:
            await until(lambda: len(recorder.requests) == 2)
            for _ in range(10):  # time for a third request, if one were made
                await asyncio.sleep(0)
        finally:
            release.set()
        boards, channels, boards_again = await asyncio.gather(*calls)
    assert [item.id for item in boards] == ["b1"]
    assert [item.id for item in channels] == ["c1"]
    assert boards_again == boards
    assert sorted(recorder.paths) == [
        "/api/social-accounts/disc/channels",
        "/api/social-accounts/pin/boards",
    ]


@pytest.mark.asyncio
async def test_a_missing_channels_route_says_to_type_the_channel_id() -> None:
    client, _, _ = make_client(lambda _r: json_response(404, {"message": "Not Found"}))
    async with client:
        with pytest.raises(LookupUnavailable) as channels:
            await client.lookups.channels("disc")
        with pytest.raises(LookupUnavailable) as boards:
            await client.lookups.boards("pin")
    assert (channels.value.message, channels.value.hint) == (
        "This server cannot list channels.",
        "Type the channel id instead.",
    )
    assert (boards.value.message, boards.value.hint) == (
        "This server cannot list boards.",
        "Type the board id instead.",
    )


@pytest.mark.asyncio
async def test_an_answer_of_another_shape_names_the_lookup() -> None:
    client, _, _ = make_client(lambda _r: json_response(200, {"boards": "none"}))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.lookups.boards("pin")
    assert str(caught.value).startswith(
        "The server's answer to GET /social-accounts/pin/boards does not have the expected shape"
    )


@pytest.mark.asyncio
async def test_a_third_429_in_a_row_is_reported_after_two_waits() -> None:
    """Not retried by the transport (the budget is the user's, and is closed here); each
    Retry-After waited out; audio search is closed meanwhile."""
    client, recorder, clock = make_client(lambda _r: slow_down(7))
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await asyncio.wait_for(client.lookups.boards("pin"), 5)
        assert client.audio.status().server_blocked
    assert (caught.value.message, caught.value.retry_after) == ("Slow down", 7)
    assert clock.sleeps == [7, 7]
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_two_429s_are_outlasted() -> None:
    answers = iter([slow_down(7), slow_down(7), json_response(200, BOARDS)])
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        boards = await asyncio.wait_for(client.lookups.boards("pin"), 5)
    assert [item.name for item in boards] == ["Beans"]
    assert clock.sleeps == [7, 7]
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_a_429_without_retry_after_waits_a_whole_minute() -> None:
    client, recorder, clock = make_client(lambda _r: slow_down(None))
    async with client:
        with pytest.raises(e.RateLimited):
            await asyncio.wait_for(client.lookups.boards("pin"), 5)
    assert clock.sleeps == [60, 60]
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_a_closed_budget_is_waited_for_twice_then_refused_without_sending() -> None:
    clock = RoundingClock()
    client, recorder, _ = make_client(by_kind, clock=clock)
    async with client:
        for _ in range(60):
            client.lookups.user_budget.spend()
        clock.advance(59.5)
        with pytest.raises(e.RateLimited) as caught:
            await client.lookups.boards("pin")
    assert caught.value.message == (
        "Lookup limit reached (60 audio, board and channel lookups per minute)."
    )
    assert caught.value.retry_after == pytest.approx(0.5)
    assert len(clock.sleeps) == 2
    assert recorder.requests == []

"""The workspace's rate limit (issue 6 §1): after a 429 on any route, no new request of that
client leaves before Retry-After has fully passed, on a monotonic clock, never early."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.rate_gate import RateGate
from app.api.retry import RetryPolicy
from app.store import WorkspaceCache
from app.sync import SyncService
from tests.api.helpers import FakeClock, json_response, make_client, post_json, posts_page
from tests.api.limited_server import PER_PAGE, Arrival, LimitedServer, every_fifth

LABELS = [{"id": "l1", "name": "News"}]
# Requests the client had already sent when the 429 left may still arrive just after it.
IN_FLIGHT = 0.2


def nothing_early(server: LimitedServer) -> None:
    early = server.early_arrivals(grace=IN_FLIGHT)
    described = [
        f"{arrival.path}?page={arrival.page} {after:.3f} s after the 429 on {refused.path}"
        for refused, arrival, after in early
    ]
    assert described == []


async def full_sync(server: LimitedServer, cache_path: Path) -> WorkspaceCache:
    cache = WorkspaceCache(cache_path)
    async with ApiClient(server.base_url, "key", retry=RetryPolicy(max_attempts=6)) as client:
        service = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
        assert await service.full_refresh() is True, service.state
    return cache


@pytest.mark.asyncio
async def test_every_fifth_request_refused_a_full_sync_never_sends_early_and_gets_every_page(
    tmp_path: Path,
) -> None:
    with LimitedServer(every_fifth, pages=9) as server:
        cache = await full_sync(server, tmp_path / "c.sqlite3")
    try:
        assert len(server.refusals) >= 2
        nothing_early(server)
        assert cache.count_posts() == 9 * PER_PAGE
        served_pages = {a.page for a in server.arrivals if a.path.endswith("/posts")}
        assert served_pages == set(range(1, 10))
    finally:
        cache.close()


@pytest.mark.asyncio
async def test_a_429_on_labels_holds_back_the_posts_pages(tmp_path: Path) -> None:
    def first_labels(arrival: Arrival) -> bool:
        return arrival.path.endswith("/labels") and arrival.number <= 3

    with LimitedServer(first_labels, pages=8) as server:
        cache = await full_sync(server, tmp_path / "c.sqlite3")
    try:
        assert [refused.path for _, refused in server.refusals] == ["/api/labels"]
        sent, _ = server.refusals[0]
        later_pages = [a for a in server.arrivals if a.path.endswith("/posts") and a.at > sent]
        assert later_pages, "the pages after the first one were all sent before the 429"
        nothing_early(server)
        assert cache.count_posts() == 8 * PER_PAGE
    finally:
        cache.close()


# -- the gate on an injected clock: exact waits --------------------------------------------------


@pytest.mark.asyncio
async def test_a_429_on_one_route_makes_the_next_request_on_another_wait_exactly() -> None:
    answers = iter(
        [
            json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "7"}),
            json_response(200, post_json("p1")),
        ]
    )
    # No retries: the refused call fails at once, and the gate stays closed for the others.
    client, recorder, clock = make_client(
        lambda _: next(answers), retry=RetryPolicy(max_attempts=1, jitter=0.0)
    )
    async with client:
        with pytest.raises(e.RateLimited):
            await client.labels.list()
        assert client.rate_gate.wait_remaining() == 7.0
        clock.advance(2.5)
        assert client.rate_gate.wait_remaining() == 4.5
        await client.posts.get("p1")
    assert clock.sleeps == [4.5]
    assert recorder.paths == ["/api/labels", "/api/posts/p1"]


@pytest.mark.asyncio
async def test_the_retried_request_itself_waits_exactly_retry_after() -> None:
    answers = iter(
        [
            json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "3"}),
            json_response(200, LABELS),
        ]
    )
    client, recorder, clock = make_client(lambda _: next(answers))
    async with client:
        await client.labels.list()
    assert clock.sleeps == [3.0]
    assert len(recorder.requests) == 2


class EarlyClock(FakeClock):
    """Its first sleep wakes 5 % early, like a coarse Qt timer."""

    async def sleep(self, seconds: float) -> None:
        early = not self.sleeps
        self.sleeps.append(seconds)
        self.time += seconds * 0.95 if early else seconds


@pytest.mark.asyncio
async def test_an_early_wake_sleeps_again_until_the_deadline() -> None:
    clock = EarlyClock(start=100.0)
    gate = RateGate(clock)
    gate.hold(1.0)
    await gate.wait()
    assert clock.time >= 101.0
    assert clock.sleeps == [1.0, pytest.approx(0.05)]
    assert gate.wait_remaining() == 0.0


def test_a_shorter_hold_never_shortens_a_longer_one() -> None:
    clock = FakeClock(start=0.0)
    gate = RateGate(clock)
    gate.hold(10.0)
    gate.hold(2.0)
    assert gate.wait_remaining() == 10.0
    gate.hold(0.0)
    assert gate.wait_remaining() == 10.0


@pytest.mark.asyncio
async def test_a_wait_beyond_the_cap_is_reported_at_once_without_sending() -> None:
    client, recorder, clock = make_client(
        lambda _: json_response(429, {"message": "Slow down."}, {"Retry-After": "600"})
    )
    async with client:
        with pytest.raises(e.RateLimited) as first:
            await client.labels.list()
        assert first.value.retry_after == 600.0
        with pytest.raises(e.RateLimited) as second:
            await client.posts.get("p1")
    assert second.value.retry_after == 600.0
    assert len(recorder.requests) == 1  # the second call never left
    assert clock.sleeps == []


@pytest.mark.asyncio
async def test_the_paginator_and_the_gate_wait_together_once() -> None:
    # Page 2 refused once with Retry-After 5: the walk waits 5 s in all, not 5 s twice.
    refused: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        if page == 2 and not refused:
            refused.append(page)
            return json_response(429, {"message": "Too Many Attempts."}, {"Retry-After": "5"})
        return json_response(200, posts_page(page, last_page=3))

    client, _, clock = make_client(handler)
    async with client:
        posts = await client.posts.fetch_all(concurrency=1)
    assert len(posts) == 45
    assert sum(clock.sleeps) == 5.0


@pytest.mark.asyncio
async def test_the_audio_lookup_budget_does_not_hold_back_the_workspace() -> None:
    # Spec §8: the audio search has a budget of its own, refused with a plain {message}.
    budget_spent = json_response(
        429, {"message": "Too many audio lookups. Try again in 40 seconds."}, {"Retry-After": "40"}
    )
    client, _, clock = make_client(lambda _: budget_spent)
    async with client:
        with pytest.raises(e.RateLimited):
            await client.audio.search("acc1", "coffee")
        assert client.rate_gate.wait_remaining() == 0.0
    assert clock.sleeps == []


@pytest.mark.asyncio
async def test_the_general_throttle_on_the_audio_route_holds_everything() -> None:
    throttled = json_response(
        429, {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}, {"Retry-After": "9"}
    )
    client, _, _ = make_client(lambda _: throttled)
    async with client:
        with pytest.raises(e.RateLimited):
            await client.audio.search("acc1", "coffee")
        assert client.rate_gate.wait_remaining() == 9.0

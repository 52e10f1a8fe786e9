"""Audio search: refused before sending when invalid, cached 10 minutes, 30 lookups a minute."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.api import errors as e
from app.api.audio import (
    CACHE_SECONDS,
    LOOKUPS_PER_WINDOW,
    WINDOW_SECONDS,
    LookupBudget,
    cache_key,
)
from tests.api.helpers import FakeClock, json_response, make_client

TRACK = {
    "id": "1234567890",
    "type": "music",
    "title": "Morning Light",
    "artist": "Ana",
    "cover_url": "https://cdn.example/c.jpg",
    "duration_ms": 61000,
    "preview_url": "https://cdn.example/p.mp3",
}


def audio_server(request: httpx.Request) -> httpx.Response:
    return json_response(200, [{**TRACK, "title": request.url.params.get("q", "trending")}])


@pytest.mark.asyncio
async def test_a_query_over_100_characters_is_refused_before_sending() -> None:
    client, recorder, _ = make_client(audio_server)
    async with client:
        with pytest.raises(e.AudioQueryInvalid) as caught:
            await client.audio.search("acc", "x" * 101)
        assert await client.audio.search("acc", " " + "x" * 100 + " ")
    assert "100" in caught.value.hint
    assert [r.url.params["q"] for r in recorder.requests] == ["x" * 100]


@pytest.mark.asyncio
async def test_an_unknown_type_is_refused_before_sending() -> None:
    client, recorder, _ = make_client(audio_server)
    async with client:
        with pytest.raises(e.AudioQueryInvalid):
            await client.audio.search("acc", "rain", "podcast")
    assert recorder.requests == []


@pytest.mark.asyncio
async def test_answers_are_cached_per_account_type_and_query_for_ten_minutes() -> None:
    client, recorder, clock = make_client(audio_server)
    async with client:
        first = await client.audio.search("acc", "  rain ", "music")
        again = await client.audio.search("acc", "rain", "music")
        await client.audio.search("acc", "rain", "original_sound")
        await client.audio.search("other", "rain", "music")
        clock.advance(CACHE_SECONDS - 1)
        await client.audio.search("acc", "rain", "music")
        clock.advance(1)
        await client.audio.search("acc", "rain", "music")
    assert first == again
    assert first[0].title == "rain"
    assert first[0].duration_ms == 61000
    sent = [(r.url.path.split("/")[-2], dict(r.url.params)) for r in recorder.requests]
    assert sent == [
        ("acc", {"q": "rain", "type": "music"}),
        ("acc", {"q": "rain", "type": "original_sound"}),
        ("other", {"q": "rain", "type": "music"}),
        ("acc", {"q": "rain", "type": "music"}),
    ]


@pytest.mark.asyncio
async def test_no_query_and_an_empty_query_are_the_same_trending_lookup() -> None:
    client, recorder, _ = make_client(audio_server)
    async with client:
        await client.audio.search("acc")
        await client.audio.search("acc", "")
        await client.audio.search("acc", "   ", "")
    assert len(recorder.requests) == 1
    assert dict(recorder.requests[0].url.params) == {}


@pytest.mark.asyncio
async def test_the_31st_uncached_lookup_in_a_minute_is_refused_with_the_wait() -> None:
    client, recorder, clock = make_client(audio_server)
    async with client:
        for n in range(LOOKUPS_PER_WINDOW):
            await client.audio.search("acc", f"q{n}")
            clock.advance(1)
        assert await client.audio.search("acc", "q0")  # cached: costs nothing
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await client.audio.search("acc", "one more")
        assert caught.value.retry_after == pytest.approx(WINDOW_SECONDS - LOOKUPS_PER_WINDOW)
        assert isinstance(caught.value, e.RateLimited)
        assert caught.value.retry_after is not None
        clock.advance(caught.value.retry_after)
        assert await client.audio.search("acc", "one more")
    assert len(recorder.requests) == LOOKUPS_PER_WINDOW + 1


@pytest.mark.asyncio
async def test_a_server_429_is_not_retried_and_closes_the_budget_until_retry_after() -> None:
    limited = json_response(429, {"message": "Too many audio lookups."}, {"Retry-After": "20"})
    answers = iter([limited])
    client, recorder, clock = make_client(lambda r: next(answers, None) or audio_server(r))
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.audio.search("acc", "rain")
        assert not isinstance(caught.value, e.AudioBudgetExhausted)
        assert caught.value.retry_after == 20
        with pytest.raises(e.AudioBudgetExhausted) as blocked:
            await client.audio.search("acc", "sun")
        assert blocked.value.retry_after == pytest.approx(20)
        clock.advance(20)
        assert await client.audio.search("acc", "sun")
    assert clock.sleeps == []
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_upstream_failure_and_ineligible_accounts_surface_as_typed_errors() -> None:
    answers = iter(
        [
            json_response(502, {"message": "Instagram did not answer."}),
            json_response(422, {"message": "This account cannot search Instagram audio."}),
        ]
    )
    client, recorder, _ = make_client(lambda _: next(answers))
    async with client:
        with pytest.raises(e.UpstreamFailed):
            await client.audio.search("acc", "rain")
        with pytest.raises(e.ValidationFailed) as caught:
            await client.audio.search("acc", "rain")
    assert caught.value.message == "This account cannot search Instagram audio."
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_identical_searches_at_once_share_one_lookup() -> None:
    release = asyncio.Event()

    async def slow(request: httpx.Request) -> httpx.Response:
        await release.wait()
        return audio_server(request)

    client, recorder, _ = make_client(slow)
    async with client:
        searches = [asyncio.ensure_future(client.audio.search("acc", "rain")) for _ in range(3)]
        await asyncio.sleep(0)
        searches[0].cancel()  # a debounced picker giving up must not waste the lookup
        release.set()
        results = await asyncio.gather(*searches[1:])
        assert await client.audio.search("acc", "rain") == results[0]
    assert len(recorder.requests) == 1
    assert client.audio.budget.used == 1


# -- properties -------------------------------------------------------------------------------

queries = st.text(alphabet=st.characters(codec="utf-8"), max_size=100)


@given(q=queries, pad_left=st.sampled_from(["", " ", "\t", "\n  "]), pad_right=st.text(" \n"))
def test_padding_never_changes_the_cache_key(q: str, pad_left: str, pad_right: str) -> None:
    assert cache_key("acc", pad_left + q + pad_right, "music") == cache_key("acc", q, "music")


@given(blank=st.text(" \t\n\r", max_size=5))
def test_blank_queries_and_types_are_the_same_as_none(blank: str) -> None:
    assert cache_key("acc", blank, blank) == cache_key("acc", None, None)
    assert cache_key("acc", blank).q is None


@given(q=st.text(max_size=150))
def test_the_length_rule_applies_to_the_stripped_query(q: str) -> None:
    if len(q.strip()) > 100:
        with pytest.raises(e.AudioQueryInvalid):
            cache_key("acc", q)
    else:
        assert cache_key("acc", q).q == (q.strip() or None)


@given(gaps=st.lists(st.floats(min_value=0, max_value=30, allow_nan=False), max_size=80))
def test_the_budget_allows_exactly_30_lookups_in_any_60_seconds(gaps: list[float]) -> None:
    clock = FakeClock()
    budget = LookupBudget(clock)
    spent: list[float] = []
    for gap in gaps:
        clock.advance(gap)
        recent = [t for t in spent if t > clock.now() - WINDOW_SECONDS]
        wait = budget.wait_needed()
        if len(recent) < LOOKUPS_PER_WINDOW:
            assert wait == 0
            budget.spend()
            spent.append(clock.now())
        else:
            oldest_that_counts = recent[-LOOKUPS_PER_WINDOW]
            assert wait == pytest.approx(oldest_that_counts + WINDOW_SECONDS - clock.now())
            assert wait > 0

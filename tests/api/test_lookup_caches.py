"""The two expiring caches of lookup answers (cachetools.TTLCache on the client's clock): audio
search (app/api/audio.py) and Pinterest boards / Discord channels (app/api/lookups.py)."""

from __future__ import annotations

import httpx
import pytest

from app.api import audio, lookups
from tests.api.helpers import json_response, make_client

TRACK = {"id": "1234567890", "type": "music", "title": "t", "duration_ms": 1000}


def server(request: httpx.Request) -> httpx.Response:
    if request.url.path.endswith("/instagram-audio"):
        return json_response(200, [{**TRACK, "title": request.url.params.get("q", "")}])
    return json_response(200, [{"id": "b1", "name": request.url.path.split("/")[-2]}])


@pytest.mark.asyncio
async def test_boards_expire_exactly_after_ten_minutes_on_the_clients_clock() -> None:
    client, recorder, clock = make_client(server)
    async with client:
        first = await client.lookups.boards("pin")
        assert client.lookups.cached("boards", "pin") == first
        assert client.lookups.cached("channels", "pin") is None
        clock.advance(lookups.CACHE_SECONDS - 0.001)
        assert await client.lookups.boards("pin") == first
        clock.advance(0.001)
        assert client.lookups.cached("boards", "pin") is None
        await client.lookups.boards("pin")
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_cached_list_is_a_copy_the_caller_may_change() -> None:
    client, recorder, _ = make_client(server)
    async with client:
        first = await client.lookups.channels("dis")
        first.clear()
        assert await client.lookups.channels("dis") != []
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_audio_answers_expire_on_the_clock_and_the_least_recently_used_go_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(audio, "_CACHE_ENTRIES", 2)
    client, recorder, clock = make_client(server)
    async with client:
        await client.audio.search("acc", "a")
        await client.audio.search("acc", "b")
        await client.audio.search("acc", "a")  # from the cache; "a" is now the most recent
        await client.audio.search("acc", "c")  # full: "b" goes
        assert client.audio.cached(audio.cache_key("acc", "a")) is not None
        assert client.audio.cached(audio.cache_key("acc", "b")) is None
        clock.advance(audio.CACHE_SECONDS)
        assert client.audio.cached(audio.cache_key("acc", "c")) is None
    assert [r.url.params["q"] for r in recorder.requests] == ["a", "b", "c"]

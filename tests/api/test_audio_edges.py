"""Edges of Instagram audio search (spec §4 instagram-audio, §8 limits): the words a manager
reads when a search is refused, the exact edges of both budgets and of waiting, the track's own
route, and cover images (a small CDN stand-in on loopback). The server's answers that the
sandbox cannot be made to give (429 without Retry-After, a slow answer) come from a mock
transport."""

from __future__ import annotations

import asyncio
import gc
import math
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from app.api import audio as audio_module
from app.api import errors as e
from app.api.audio import (
    BudgetStatus,
    InstagramAudio,
    cache_key,
    link_expires_at,
    seconds_until_expiry,
)
from app.models.audio import AudioAsset
from tests.api.helpers import FakeClock, json_response, make_client

TRACK = {
    "id": "1234567890",
    "type": "music",
    "title": "Morning Light",
    "artist": "Ana",
    "cover_url": "https://cdn.example/c.jpg",
    "duration_ms": 61000,
    "preview_url": "https://cdn.example/p.mp3?expires=2000000000",
}
TRACK_PATH = "/api/social-accounts/acc/instagram-audio/1234567890"
SEARCH_PATH = "/api/social-accounts/acc/instagram-audio"
WORKSPACE_FULL = "Audio search limit reached (30 new searches per minute in this workspace)."
USER_FULL = "Lookup limit reached (60 audio, board and channel lookups per minute)."
SERVER_HOLD = "The server asked to wait before the next audio search."


def tracks(_request: httpx.Request) -> httpx.Response:
    return json_response(200, [TRACK])


def slow_down(seconds: int | None = 5) -> httpx.Response:
    headers = {"Retry-After": str(seconds)} if seconds is not None else {}
    return json_response(429, {"message": "Slow down"}, headers)


async def until(condition: Callable[[], bool]) -> None:
    """Lets the event loop run until `condition` holds; bounded, so a hang is a failure."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def fill_the_workspace_budget(audio: InstagramAudio) -> None:
    for i in range(30):
        await audio.search("acc", f"q{i}")


# -- refused before sending: the words -------------------------------------------------------


def test_a_query_over_100_characters_is_refused_in_words() -> None:
    with pytest.raises(e.AudioQueryInvalid) as caught:
        cache_key("acc", "x" * 101)
    assert caught.value.message == "The search is 101 characters long; at most 100 are allowed."
    assert caught.value.hint == "Shorten the search to 100 characters or fewer."


def test_an_unknown_type_is_refused_in_words() -> None:
    with pytest.raises(e.AudioQueryInvalid) as caught:
        cache_key("acc", "rain", " podcast ")
    assert caught.value.message == "Unknown audio type “podcast”."
    assert caught.value.hint == (
        "Choose music or original sound, or leave the type empty for both."
    )


def test_link_expiry_is_read_from_a_capitalised_expires_too() -> None:
    assert link_expires_at("https://cdn.x/a.m4a?Expires=1700000000&Signature=s") == 1700000000
    assert seconds_until_expiry("https://cdn.x/a.m4a?Signature=s", 160.5) is None
    assert seconds_until_expiry("https://cdn.x/a.m4a?Expires=200", 160.5) == 40


# -- the budgets, in words -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_fresh_client_shows_both_budgets_whole() -> None:
    client, _, _ = make_client(tracks)
    async with client:
        status = client.audio.status()
    assert status == BudgetStatus(30, 30, 60, 60, 0.0, False)
    assert status.describe() == (
        "30 of 30 new audio searches left this minute (workspace); 60 of 60 lookups (you)"
    )


@pytest.mark.asyncio
async def test_when_both_budgets_close_at_once_the_workspace_limit_is_named() -> None:
    client, recorder, _ = make_client(tracks)
    async with client:
        audio: InstagramAudio = client.audio
        for _ in range(30):
            audio.user_budget.spend()  # board and channel lookups, at the same moment
        await fill_the_workspace_budget(audio)
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await audio.search("acc", "one more")
    assert caught.value.message == WORKSPACE_FULL
    assert caught.value.retry_after == 60
    assert caught.value.hint == ("Wait 60 s, or pick from searches already made (they are cached).")
    assert len(recorder.requests) == 30


@pytest.mark.asyncio
async def test_when_the_users_budget_is_the_longer_wait_it_is_named() -> None:
    client, recorder, clock = make_client(tracks)
    async with client:
        audio: InstagramAudio = client.audio
        await fill_the_workspace_budget(audio)
        clock.advance(10)
        for _ in range(60):
            audio.user_budget.spend()  # board and channel lookups, ten seconds later
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await audio.search("acc", "one more")
    assert caught.value.message == USER_FULL
    assert caught.value.retry_after == 60  # the workspace's would open in 50
    assert len(recorder.requests) == 30


@pytest.mark.asyncio
async def test_half_a_second_left_still_refuses_and_is_shown_as_one_second() -> None:
    client, recorder, clock = make_client(tracks)
    async with client:
        audio: InstagramAudio = client.audio
        await fill_the_workspace_budget(audio)
        clock.advance(59.5)
        status = audio.status()
        assert status.wait_seconds == pytest.approx(0.5)
        assert status.describe() == (
            "0 of 30 new audio searches left this minute (workspace); 30 of 60 lookups (you)"
            " — limit reached, next in 1 s"
        )
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await audio.search("acc", "one more")
        assert caught.value.retry_after == pytest.approx(0.5)
        assert len(recorder.requests) == 30
        clock.advance(0.5)
        assert audio.status().describe() == (
            "30 of 30 new audio searches left this minute (workspace); 60 of 60 lookups (you)"
        )
        await audio.search("acc", "one more")
    assert len(recorder.requests) == 31


@pytest.mark.asyncio
async def test_a_429_from_a_board_lookup_closes_audio_search_with_the_servers_reason() -> None:
    """The per-user budget is shared: the lookup's 429 holds audio search too, in words that
    say the server asked for it (not that a limit was counted)."""
    client, _, _ = make_client(lambda _r: slow_down(7))
    async with client:
        with pytest.raises(e.RateLimited):
            await client.lookups.boards("pin")
        status = client.audio.status()
        assert status.server_blocked
        assert status.describe() == (
            "30 of 30 new audio searches left this minute (workspace); 57 of 60 lookups (you)"
            " — the server asked to wait, next in 7 s"
        )
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await client.audio.search("acc", "rain")
    assert caught.value.message == SERVER_HOLD
    assert caught.value.retry_after == pytest.approx(7)


@pytest.mark.asyncio
async def test_a_429_without_retry_after_closes_the_budgets_for_a_minute() -> None:
    """The audio route may answer 429 with a plain `{message}` (spec §7)."""
    client, recorder, _ = make_client(lambda _r: slow_down(None))
    async with client:
        with pytest.raises(e.RateLimited):
            await client.audio.search("acc", "rain")
        status = client.audio.status()
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await client.audio.search("acc", "rain")
    assert status.server_blocked
    assert status.wait_seconds == 60
    assert caught.value.message == SERVER_HOLD
    assert len(recorder.requests) == 1


# -- waiting ---------------------------------------------------------------------------------


class RoundingClock(FakeClock):
    """A clock whose sleeps are whole seconds, rounded down (as some timers are): a wait of
    half a second does not move it. Gives up loudly rather than spin."""

    async def sleep(self, seconds: float) -> None:
        if len(self.sleeps) >= 5:
            raise AssertionError(f"slept too often: {self.sleeps}")
        await super().sleep(math.floor(seconds))


@pytest.mark.asyncio
async def test_a_search_waits_at_most_twice_for_its_budget() -> None:
    clock = RoundingClock()
    client, recorder, _ = make_client(tracks, clock=clock)
    waits: list[tuple[float, str]] = []
    async with client:
        audio: InstagramAudio = client.audio
        await fill_the_workspace_budget(audio)
        clock.advance(59.5)
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await audio.search(
                "acc", "one more", wait=True, on_wait=lambda s, w: waits.append((s, w))
            )
    assert waits == [(pytest.approx(0.5), WORKSPACE_FULL)] * 2
    assert caught.value.message == WORKSPACE_FULL
    assert len(recorder.requests) == 30


@pytest.mark.asyncio
async def test_a_waiting_search_outlasts_two_server_refusals() -> None:
    answers = iter([slow_down(), slow_down(), tracks(httpx.Request("GET", "/"))])
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        found = await client.audio.search("acc", "rain", wait=True)
    assert [track.id for track in found] == ["1234567890"]
    assert clock.sleeps == [5, 5]
    assert len(recorder.requests) == 3


@pytest.mark.asyncio
async def test_a_third_server_refusal_is_the_servers_to_report() -> None:
    client, recorder, clock = make_client(lambda _r: slow_down())
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await asyncio.wait_for(client.audio.search("acc", "rain", wait=True), 5)
    assert not isinstance(caught.value, e.AudioBudgetExhausted)
    assert caught.value.retry_after == 5
    assert clock.sleeps == [5, 5]
    assert len(recorder.requests) == 3


# -- sharing and abandoning a lookup ---------------------------------------------------------


@pytest.mark.asyncio
async def test_a_fresh_search_never_joins_one_already_in_flight() -> None:
    """`fresh` asks for new links: the answer of a search sent earlier would carry old ones."""
    release = asyncio.Event()

    async def held(_request: httpx.Request) -> httpx.Response:
        await release.wait()
        return tracks(_request)

    client, recorder, _ = make_client(held)
    async with client:
        first = asyncio.ensure_future(client.audio.search("acc", "rain"))
        try:
            await until(lambda: bool(recorder.requests))
            second = asyncio.ensure_future(client.audio.search("acc", "rain", fresh=True))
            await until(lambda: len(recorder.requests) == 2 or second.done())
        finally:
            release.set()
        await asyncio.gather(first, second)
    assert len(recorder.requests) == 2


@pytest.mark.asyncio
async def test_a_failed_lookup_nobody_waits_for_is_not_reported_as_lost() -> None:
    """The picker gives up on a search (debounced); the lookup goes on and fails: its failure
    is looked at, so asyncio does not log it as never retrieved."""
    release = asyncio.Event()

    async def failing(_request: httpx.Request) -> httpx.Response:
        await release.wait()
        return json_response(502, {"message": "Instagram did not answer"})

    loop = asyncio.get_running_loop()
    reports: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: reports.append(context))
    try:
        client, recorder, _ = make_client(failing)
        async with client:
            audio: InstagramAudio = client.audio
            search = asyncio.ensure_future(audio.search("acc", "rain"))
            try:
                await until(lambda: bool(recorder.requests))
                search.cancel()
            finally:
                release.set()
            await until(lambda: not audio._in_flight)
            del search
            gc.collect()
            await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert reports == []


# -- the track's own route -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_track_is_read_again_from_its_own_route() -> None:
    client, recorder, _ = make_client(lambda _r: json_response(200, TRACK))
    async with client:
        fresh = await client.audio.track("acc", AudioAsset.model_validate(TRACK))
    assert fresh.id == "1234567890"
    assert [(r.method, r.url.path) for r in recorder.requests] == [("GET", TRACK_PATH)]


@pytest.mark.asyncio
async def test_a_track_read_while_the_budget_is_closed_is_refused_without_waiting() -> None:
    client, recorder, clock = make_client(tracks)
    async with client:
        await fill_the_workspace_budget(client.audio)
        with pytest.raises(e.AudioBudgetExhausted):
            await client.audio.track("acc", AudioAsset.model_validate(TRACK))
    assert clock.sleeps == []
    assert len(recorder.requests) == 30


@pytest.mark.asyncio
async def test_a_waiting_track_read_says_why_it_waits() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return json_response(200, TRACK if request.url.path == TRACK_PATH else [TRACK])

    client, recorder, clock = make_client(answer)
    waits: list[tuple[float, str]] = []
    async with client:
        await fill_the_workspace_budget(client.audio)
        fresh = await client.audio.track(
            "acc",
            AudioAsset.model_validate(TRACK),
            wait=True,
            on_wait=lambda s, w: waits.append((s, w)),
        )
    assert fresh.id == "1234567890"
    assert waits == [(60, WORKSPACE_FULL)]
    assert clock.sleeps == [60]
    assert recorder.paths[-1] == TRACK_PATH


@pytest.mark.asyncio
async def test_a_waiting_track_read_outlasts_two_server_refusals() -> None:
    answers = iter([slow_down(), slow_down(), json_response(200, TRACK)])
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        fresh = await client.audio.track("acc", AudioAsset.model_validate(TRACK), wait=True)
    assert fresh.id == "1234567890"
    assert clock.sleeps == [5, 5]
    assert recorder.paths == [TRACK_PATH] * 3


@pytest.mark.asyncio
async def test_a_track_read_that_instagram_fails_is_not_tried_again() -> None:
    """Each try is another paid lookup (spec §8): a 502 is reported, not retried."""
    client, recorder, _ = make_client(lambda _r: json_response(502, {"message": "Upstream"}))
    async with client:
        with pytest.raises(e.UpstreamFailed):
            await client.audio.track("acc", AudioAsset.model_validate(TRACK))
    assert recorder.paths == [TRACK_PATH]


@pytest.mark.asyncio
async def test_a_search_answered_with_something_else_names_the_request() -> None:
    client, _, _ = make_client(lambda _r: json_response(200, {"tracks": "none"}))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.audio.search("acc", "rain")
    assert str(caught.value).startswith(
        "The server's answer to GET /social-accounts/acc/instagram-audio does not have"
    )


# -- covers ----------------------------------------------------------------------------------

MIB2 = 2 * 1024 * 1024


class Cdn:
    """A loopback stand-in for the covers' CDN; also answers as an HTTP proxy, so a request
    meant for another host is seen here instead of leaving the machine."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.stop = threading.Event()
        cdn = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_CONNECT(self) -> None:
                cdn.seen.append(self.requestline)
                self.send_response(403)
                self.end_headers()

            def do_GET(self) -> None:
                cdn.seen.append(self.requestline)
                path = httpx.URL(self.path).path
                if path == "/hang":
                    cdn.stop.wait(10)
                    return
                if path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/c/1.png")
                    self.end_headers()
                    return
                status, kind, body = 200, "image/png", b"png " + path.encode()
                if path == "/missing.png":
                    status = 404
                elif path == "/untyped":
                    kind = ""
                elif path.startswith("/big/"):
                    body = bytes(range(256)) * (MIB2 // 256) + b"x" * int(path[5:])
                self.send_response(status)
                if kind:
                    self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for start in range(0, len(body), 65536):
                    self.wfile.write(body[start : start + 65536])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def cdn() -> Iterator[Cdn]:
    server = Cdn()
    yield server
    server.close()


@pytest.fixture
def proxied(cdn: Cdn, monkeypatch: pytest.MonkeyPatch) -> Cdn:
    """Every cover request goes to the stand-in, whatever its host."""
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, cdn.origin)
    return cdn


@pytest.mark.asyncio
async def test_a_cover_behind_a_redirect_is_followed(cdn: Cdn) -> None:
    client, _, _ = make_client(tracks)
    async with client:
        assert await client.audio.cover(cdn.origin + "/redirect") == b"png /c/1.png"


@pytest.mark.asyncio
async def test_what_is_not_an_image_gives_no_cover(cdn: Cdn) -> None:
    client, _, _ = make_client(tracks)
    async with client:
        assert await client.audio.cover(cdn.origin + "/untyped") is None
        assert await client.audio.cover(cdn.origin + "/missing.png") is None
        assert client.audio.cached_cover(cdn.origin + "/missing.png") is None
        assert client.audio.cached_cover(None) is None
        assert client.audio.cached_cover("") is None


@pytest.mark.asyncio
async def test_a_cover_of_exactly_2_mb_is_kept_whole_and_one_byte_more_is_refused(
    cdn: Cdn,
) -> None:
    client, _, _ = make_client(tracks)
    async with client:
        exact = await client.audio.cover(cdn.origin + "/big/0")
        over = await client.audio.cover(cdn.origin + "/big/1")
    assert exact == bytes(range(256)) * (MIB2 // 256)
    assert over is None


@pytest.mark.asyncio
async def test_a_cdn_that_never_answers_gives_no_cover_within_the_timeout(
    cdn: Cdn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audio_module, "_COVER_TIMEOUT", 0.3)
    client, _, _ = make_client(tracks)
    async with client:
        assert await asyncio.wait_for(client.audio.cover(cdn.origin + "/hang"), 3) is None


@pytest.mark.asyncio
async def test_the_cover_cache_keeps_the_most_recent_ones_up_to_its_size(
    cdn: Cdn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audio_module, "_COVER_ENTRIES", 3)
    urls = [f"{cdn.origin}/c/{i}.png" for i in range(4)]
    client, _, _ = make_client(tracks)
    async with client:
        audio: InstagramAudio = client.audio
        for url in urls[:3]:
            await audio.cover(url)
        assert [audio.cached_cover(url) is not None for url in urls] == [True, True, True, False]
        await audio.cover(urls[3])
        assert [audio.cached_cover(url) is not None for url in urls] == [False, True, True, True]


@pytest.mark.asyncio
async def test_covers_on_invalid_hosts_are_never_requested_but_others_are(proxied: Cdn) -> None:
    client, _, _ = make_client(tracks)
    async with client:
        assert await client.audio.cover("http://cdn.example.invalid/c.png") is None
        assert await client.audio.cover("http://CDN.EXAMPLE.INVALID/c.png") is None
        assert proxied.seen == []
        assert await client.audio.cover("http://cdn.example.test/c.png") == b"png /c.png"
        assert await client.audio.cover("https://cdn.example.test/d.png") is None  # proxy says no
    assert proxied.seen == [
        "GET http://cdn.example.test/c.png HTTP/1.1",
        "CONNECT cdn.example.test:443 HTTP/1.1",
    ]

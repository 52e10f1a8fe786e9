"""The audio client against the sandbox: cache, both budgets, 429, 502, fresh links, covers,
and the board/channel lookups that share the per-user budget."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api import errors as e
from app.api.audio import InstagramAudio, link_expires_at, seconds_until_expiry
from app.api.lookups import LookupUnavailable
from app.models.requests import BatchRequest, Destination, MediaRef
from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from tests.api.helpers import FakeClock, json_response, make_client, sandbox_client

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


class LinkedClock(FakeClock):
    """The client's monotonic clock and the sandbox's wall clock move together."""

    def __init__(self, server_clock: ManualClock) -> None:
        super().__init__()
        self.server_clock = server_clock

    async def sleep(self, seconds: float) -> None:
        self.server_clock.advance(timedelta(seconds=seconds))
        await super().sleep(seconds)

    def advance(self, seconds: float) -> None:
        self.server_clock.advance(timedelta(seconds=seconds))
        super().advance(seconds)


@pytest.fixture
def server_clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def audio_server(tmp_path: Path, server_clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "audio.db", now=server_clock) as server:
        yield server


def ig(server: SandboxServer) -> str:
    return server.store.account_id("instagram-facebook")


@pytest.mark.asyncio
async def test_a_repeated_search_is_served_from_the_cache(audio_server: SandboxServer) -> None:
    async with sandbox_client(audio_server) as client:
        first = await client.audio.search(ig(audio_server), "cafe")
        again = await client.audio.search(ig(audio_server), "  cafe ")
        music = await client.audio.search(ig(audio_server), "cafe", "music")
        assert client.audio.status().workspace_remaining == 28
    assert first == again
    assert first
    assert all(a.type == "music" for a in music)
    assert audio_server.store.audio_lookup_count() == 2


@pytest.mark.asyncio
async def test_the_31st_new_search_in_a_minute_is_refused_without_sending(
    audio_server: SandboxServer, server_clock: ManualClock
) -> None:
    clock = LinkedClock(server_clock)
    async with sandbox_client(audio_server, clock=clock) as client:
        for i in range(30):
            await client.audio.search(ig(audio_server), f"q{i}")
        status = client.audio.status()
        assert status.workspace_remaining == 0
        assert status.wait_seconds == pytest.approx(60)
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await client.audio.search(ig(audio_server), "one more")
        assert audio_server.store.audio_lookup_count() == 30
        assert "30 new searches" in caught.value.message
        # Cached answers still come back while the budget is closed.
        assert await client.audio.search(ig(audio_server), "q3") is not None
        waits: list[float] = []
        await client.audio.search(
            ig(audio_server), "one more", wait=True, on_wait=lambda s, _why: waits.append(s)
        )
    assert waits == [pytest.approx(60)]
    assert clock.sleeps == [pytest.approx(60)]
    assert audio_server.store.audio_lookup_count() == 31


@pytest.mark.asyncio
async def test_a_server_429_closes_the_budget_until_retry_after(
    audio_server: SandboxServer, server_clock: ManualClock
) -> None:
    clock = LinkedClock(server_clock)
    # Another device of the same workspace used up the server's limit.
    async with sandbox_client(audio_server) as other:
        for i in range(30):
            await other.audio.search(ig(audio_server), f"other {i}")
    async with sandbox_client(audio_server, clock=clock) as client:
        with pytest.raises(e.RateLimited) as caught:
            await client.audio.search(ig(audio_server), "rain")
        assert caught.value.retry_after == 60
        status = client.audio.status()
        assert status.server_blocked
        assert status.wait_seconds == pytest.approx(60)
        assert "server asked to wait" in status.describe()
        sent = client.audio.requests_sent
        with pytest.raises(e.AudioBudgetExhausted):
            await client.audio.search(ig(audio_server), "rain")
        assert client.audio.requests_sent == sent  # nothing left before Retry-After
        result = await client.audio.search(ig(audio_server), "rain", wait=True)
    assert isinstance(result, list)
    assert clock.sleeps == [pytest.approx(60)]


@pytest.mark.asyncio
async def test_waiting_out_a_429_inside_one_search(
    audio_server: SandboxServer, server_clock: ManualClock
) -> None:
    clock = LinkedClock(server_clock)
    async with sandbox_client(audio_server) as other:
        for i in range(30):
            await other.audio.search(ig(audio_server), f"other {i}")
    reasons: list[str] = []
    async with sandbox_client(audio_server, clock=clock) as client:
        result = await client.audio.search(
            ig(audio_server), "rain", wait=True, on_wait=lambda _s, why: reasons.append(why)
        )
        assert client.audio.requests_sent == 2  # the refused one and the one after the wait
    assert isinstance(result, list)
    assert reasons == ["The server asked to wait before the next audio search."]


@pytest.mark.asyncio
async def test_a_502_is_a_clear_retryable_error(audio_server: SandboxServer) -> None:
    audio_server.store.audio_upstream_failing = True
    async with sandbox_client(audio_server) as client:
        with pytest.raises(e.UpstreamFailed) as caught:
            await client.audio.search(ig(audio_server), "rain")
        assert "Instagram did not answer" in caught.value.message
        assert "Try again" in caught.value.hint
        assert client.audio.requests_sent == 1  # not retried: each try is a paid lookup
        audio_server.store.audio_upstream_failing = False
        assert await client.audio.search(ig(audio_server), "rain") is not None


@pytest.mark.asyncio
async def test_instagram_login_accounts_cannot_search(audio_server: SandboxServer) -> None:
    async with sandbox_client(audio_server) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.audio.search(audio_server.store.account_id("instagram"))
    assert "instagram-facebook" in caught.value.message


@pytest.mark.asyncio
async def test_a_fresh_link_reads_the_track_again_bypassing_the_cache(
    audio_server: SandboxServer, server_clock: ManualClock
) -> None:
    async with sandbox_client(audio_server) as client:
        [first, *_] = await client.audio.search(ig(audio_server), "cafe", "music")
        server_clock.advance(timedelta(hours=2))  # links were valid for one hour
        before = audio_server.store.audio_lookup_count()
        fresh = await client.audio.track(ig(audio_server), first, q="cafe", type="music")
    assert fresh.id == first.id
    assert audio_server.store.audio_lookup_count() > before
    old_expiry = link_expires_at(first.preview_url)
    new_expiry = link_expires_at(fresh.preview_url)
    assert old_expiry is not None
    assert new_expiry is not None
    assert new_expiry > old_expiry


def test_link_expiry_is_read_from_the_link() -> None:
    assert link_expires_at("https://cdn.x/a.m4a?expires=1700000000") == 1700000000
    assert link_expires_at("https://scontent.x/v.mp4?oe=65A1B2C3&_nc=1") == 0x65A1B2C3
    assert link_expires_at("https://cdn.x/a.m4a") is None
    assert seconds_until_expiry("https://cdn.x/a?expires=100", 160.5) == -60


@pytest.mark.asyncio
async def test_covers_come_through_the_app_layer_without_the_api_key(
    audio_server: SandboxServer, tmp_path: Path
) -> None:
    image = tmp_path / "cover.png"
    image.write_bytes(gradient_png(8, 8, (255, 0, 0), (0, 0, 255)))
    async with sandbox_client(audio_server) as client:
        token = await client.uploads.upload(image, "image/png")
        [post] = await client.posts.create_batch(
            BatchRequest(
                media=[MediaRef(upload_token=token)],
                destinations=[
                    Destination(
                        social_account_id=audio_server.store.account_id("x"),
                        content_type="x_post",
                    )
                ],
            )
        )
        url = post.media[0].url
        assert url is not None
        data = await client.audio.cover(url + "?expires=1")
        assert data == image.read_bytes()
        assert client.audio.cached_cover(url + "?expires=2") == data
        assert await client.audio.cover("https://cdn.example.invalid/c.jpg") is None
        assert await client.audio.cover(audio_server.origin + "/storage/medias/none.png") is None


@pytest.mark.asyncio
async def test_board_and_channel_lookups_are_cached_and_share_the_users_budget(
    audio_server: SandboxServer,
) -> None:
    async with sandbox_client(audio_server) as client:
        pin = audio_server.store.account_id("pinterest")
        boards = await client.lookups.boards(pin)
        assert await client.lookups.boards(pin) == boards
        channels = await client.lookups.channels(audio_server.store.account_id("discord"))
        assert boards
        assert channels
        assert client.lookups.requests_sent == 2
        assert client.audio.status().user_remaining == 58
        with pytest.raises(e.ValidationFailed):
            await client.lookups.channels(pin)


@pytest.mark.asyncio
async def test_a_full_user_budget_stops_audio_and_lookups_alike(
    audio_server: SandboxServer,
) -> None:
    async with sandbox_client(audio_server) as client:
        for _ in range(59):
            client.audio.user_budget.spend()
        await client.lookups.boards(audio_server.store.account_id("pinterest"))
        with pytest.raises(e.AudioBudgetExhausted) as caught:
            await client.audio.search(ig(audio_server), "rain")
        assert "60 audio, board and channel lookups" in caught.value.message
        assert audio_server.store.audio_lookup_count() == 0


@pytest.mark.asyncio
async def test_a_deployment_without_the_lookup_route_means_free_text() -> None:
    client, recorder, _ = make_client(lambda _r: json_response(404, {"message": "Not Found"}))
    async with client:
        with pytest.raises(LookupUnavailable) as caught:
            await client.lookups.boards("acc")
    assert "Type the board id" in caught.value.hint
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_a_lookup_429_waits_out_retry_after_and_closes_audio_too() -> None:
    answers = iter(
        [
            json_response(429, {"message": "Slow down"}, {"Retry-After": "7"}),
            json_response(200, [{"id": "b1", "name": "Beans"}]),
        ]
    )
    client, recorder, clock = make_client(lambda _r: next(answers))
    async with client:
        audio: InstagramAudio = client.audio
        items = await client.lookups.boards("acc")
        assert audio.user_budget.wait_needed() == 0
    assert [i.name for i in items] == ["Beans"]
    assert clock.sleeps == [7]
    assert len(recorder.requests) == 2

"""Issue 19 §1: exactly once whatever the clocks say. Six rows through a server that drops half
its answers (after saving), with this computer's clock 10 minutes fast or the workspace's server
time zone wrong (Asia/Tokyo against a UTC server): six posts, never twelve."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.api.server_clock import ServerClock
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import OutboxSender
from tests.api.helpers import sandbox_client

ROWS = 6
FAST = timedelta(minutes=10)


def fast_clock() -> datetime:
    return datetime.now(UTC) + FAST


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("wall", "zone"),
    [(fast_clock, UTC), (lambda: datetime.now(UTC), ZoneInfo("Asia/Tokyo"))],
    ids=["clock-10-min-fast", "server-timezone-tokyo"],
)
async def test_six_rows_make_six_posts_whatever_the_clocks_say(
    tmp_path: Path, wall: Callable[[], datetime], zone: ZoneInfo
) -> None:
    with SandboxServer(tmp_path / "s.db", fail_after_commit=0.5, fault_seed=3) as server:
        store = LocalStore.open(tmp_path / "local.sqlite3", now=wall)
        try:
            outbox = Outbox(store)
            x = server.store.account_id("x")
            for n in range(ROWS):
                await outbox.enqueue(
                    BatchRequest(
                        content=f"Row {n} of the import",
                        destinations=[Destination(social_account_id=x, content_type="x_post")],
                    )
                )
            async with sandbox_client(server, server_tz=zone) as client:
                client.server_clock.wall = wall
                sender = OutboxSender(outbox, client, settle_seconds=0)
                for _ in range(30):
                    result = await sender.send_pending()
                    if not outbox.entries(
                        [OutboxState.QUEUED, OutboxState.SENDING, OutboxState.OUTCOME_UNKNOWN]
                    ):
                        break
                    await asyncio.sleep(min(result.retry_in or 0.05, 0.5))
                warning = client.server_clock.warning()
            entries = outbox.entries()
        finally:
            store.close()
        assert server.faults is not None
        assert server.faults.dropped >= 1
        assert server.store.post_count() == ROWS
    states = [entry.state for entry in entries]
    # Proven: sent. Not provable (a match only outside the window): held for the user, not resent.
    assert set(states) <= {OutboxState.SENT, OutboxState.NEEDS_ATTENTION}
    assert warning is not None
    assert "Clock differs" in warning
    # The Date header corrects this computer's clock; the created_at of the answers that came
    # through tells how far off the server time zone makes every time read.
    assert states == [OutboxState.SENT] * ROWS
    assert ("10 min behind" if zone is UTC else "9 h early") in warning


@pytest.mark.asyncio
async def test_with_no_answer_ever_and_a_wrong_time_zone_nothing_is_sent_again_on_a_guess(
    tmp_path: Path,
) -> None:
    """Every answer lost: no created_at ever tells the time zone is wrong, so the posts seem
    created 9 h before their sends. Not proven either way: held for the user, never resent."""
    with SandboxServer(tmp_path / "s.db", fail_after_commit=1.0) as server:
        store = LocalStore.open(tmp_path / "local.sqlite3")
        try:
            outbox = Outbox(store)
            x = server.store.account_id("x")
            for n in range(3):
                await outbox.enqueue(
                    BatchRequest(
                        content=f"Row {n}",
                        destinations=[Destination(social_account_id=x, content_type="x_post")],
                    )
                )
            async with sandbox_client(server, server_tz=ZoneInfo("Asia/Tokyo")) as client:
                sender = OutboxSender(outbox, client, settle_seconds=0)
                await sender.send_pending()  # three sends, three lost answers
                await sender.send_pending()  # the check
            entries = outbox.entries()
        finally:
            store.close()
        assert server.store.post_count() == 3
    assert [entry.state for entry in entries] == [OutboxState.NEEDS_ATTENTION] * 3
    assert all("It was not sent again" in (entry.reason or "") for entry in entries)


def test_the_server_clock_reads_date_headers_and_created_times() -> None:
    clock = ServerClock(wall=fast_clock)
    assert clock.warning() is None
    assert clock.offset == timedelta(0)
    server_now = datetime.now(UTC)
    clock.observe_date(server_now.strftime("%a, %d %b %Y %H:%M:%S GMT"))
    assert abs(clock.offset + FAST) < timedelta(seconds=3)
    assert abs(clock.now() - server_now) < timedelta(seconds=3)
    # a created_at read 9 h early (Tokyo wall time taken for UTC... or the reverse)
    clock.observe_created(server_now - timedelta(hours=9, seconds=2))
    assert clock.reading_offset == timedelta(hours=-9)
    assert "9 h early" in (clock.warning() or "")
    clock.observe_date("not a date")  # ignored
    assert clock.known

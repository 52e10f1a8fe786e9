"""Issue 17 §3: a bulk replay under a rate limit and dropped answers replays each delivery once
(sandbox over loopback: its rate limiter, and answers cut after the replay was queued)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive, MemoryDb
from app.sync.webhook_monitor import WebhookMonitor
from app.webhooks.bulk_replay import BulkReplay, ReplayProgress
from tests.api.helpers import FakeClock

ONE_TRY = RetryPolicy(max_attempts=1)


class FakeNow:
    """The sandbox's clock (its rate limiter counts with it)."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


def replays_of(server: SandboxServer, hook: str, data: Any, original: str) -> int:
    return sum(
        1
        for row in server.store.webhook_logs(hook)
        if row["id"] != original and (row["payload"] or {}).get("data") == data
    )


@pytest.mark.asyncio
async def test_each_delivery_is_replayed_once_under_a_rate_limit_and_dropped_answers(
    tmp_path: Path,
) -> None:
    now = FakeNow()
    with SandboxServer(
        tmp_path / "s.db", rate_limit=6, now=now, fail_after_commit=0.4, fault_seed=11
    ) as server:
        hook = server.store.create_webhook("https://hooks.example.com/a", ["post.failed"])
        originals = {
            server.store.add_webhook_log(
                hook,
                event_type="post.failed",
                outcome="failed",
                response_status=500,
                attempts=3,
                created_at=now() - timedelta(minutes=30 - n),
                data={"id": f"post-{n}", "n": n},
            ): {"id": f"post-{n}", "n": n}
            for n in range(12)
        }
        assert server.faults is not None
        server.faults.paths = tuple(
            f"/api/webhooks/{hook}/logs/{log_id}/replay" for log_id in originals
        )
        clock = FakeClock()
        waits: list[float] = []

        async def wait(seconds: float) -> None:
            waits.append(seconds)
            now.advance(seconds)  # the limiter's minute passes on both sides
            clock.advance(seconds)

        async with ApiClient(
            server.base_url, server.keys.admin, retry=ONE_TRY, clock=clock
        ) as client:
            archive = DeliveryArchive(MemoryDb())
            await WebhookMonitor(client, archive).top_up(hook)
            logs = [archive.log(hook, log_id) for log_id in originals]
            assert all(log is not None for log in logs)
            seen: list[str] = []
            replay = BulkReplay(
                client,
                archive,
                hook,
                [log for log in logs if log is not None],
                on_progress=lambda progress: seen.append(progress.state),
                sleep=wait,
            )
            progress: ReplayProgress = await replay.run()

            assert waits, "the rate limit was met"
            assert server.faults.dropped > 0, "some answers were lost"
            # Each asked once: every 2xx answer the server gave (sent or dropped) is one replay.
            assert server.faults.dropped + server.faults.passed == len(originals)
            for log_id, data in originals.items():
                assert replays_of(server, hook, data, log_id) == 1, log_id
            assert progress.queued + progress.confirmed == len(originals), progress
            assert progress.confirmed == server.faults.dropped
            assert progress.not_found == progress.refused == progress.not_asked == 0
            assert "waiting" in seen
            assert "checking" in seen
            assert progress.state == "finished"
            assert "12 of 12 replays queued" in progress.summary()

            # The same batch run again (a restart): nothing is asked twice.
            again = BulkReplay(
                client,
                archive,
                hook,
                replay_logs(archive, hook, originals),
                batch=replay.batch,
                sleep=wait,
            )
            await again.run()
            assert server.faults.dropped + server.faults.passed == len(originals)


def replay_logs(archive: DeliveryArchive, hook: str, ids: dict[str, Any]) -> list[Any]:
    return [log for log in (archive.log(hook, log_id) for log_id in ids) if log is not None]


@pytest.mark.asyncio
async def test_pause_holds_and_cancel_stops_between_deliveries(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "s.db") as server:
        hook = server.store.create_webhook("https://hooks.example.com/a", ["post.failed"])
        ids = [
            server.store.add_webhook_log(hook, outcome="failed", data={"id": f"p{n}"})
            for n in range(6)
        ]
        async with ApiClient(server.base_url, server.keys.admin, retry=ONE_TRY) as client:
            archive = DeliveryArchive(MemoryDb())
            await WebhookMonitor(client, archive).top_up(hook)
            replay: BulkReplay

            def on_progress(progress: ReplayProgress) -> None:
                if progress.queued == 2 and progress.state == "running":
                    replay.pause()
                    replay.cancel()

            replay = BulkReplay(
                client,
                archive,
                hook,
                replay_logs(archive, hook, dict.fromkeys(ids)),
                on_progress=on_progress,
            )
            progress = await replay.run()
        assert progress.state == "cancelled"
        assert progress.queued in (2, 3)  # the one in flight when cancelled ends
        assert progress.not_asked == 6 - progress.queued
        assert len(server.store.webhook_logs(hook)) == 6 + progress.queued

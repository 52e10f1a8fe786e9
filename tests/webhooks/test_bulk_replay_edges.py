"""A bulk replay at its edges (issue 18 §2): how long it keeps asking under 429s, what a pause
does while waiting or after the end, and the words of its summary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.webhooks import DeliveryLog
from app.sandbox.harness import SandboxServer
from app.store.delivery_logs import DeliveryArchive, MemoryDb
from app.sync.webhook_monitor import WebhookMonitor
from app.webhooks.bulk_replay import MAX_RATE_WAITS, BulkReplay, ReplayProgress
from tests.api.helpers import FakeClock


def test_the_summary_names_every_outcome_it_had() -> None:
    assert ReplayProgress(total=3, queued=3).summary() == "3 of 3 replays queued."
    every = ReplayProgress(
        total=2000, queued=1000, confirmed=2, refused=3, not_found=4, not_asked=991
    )
    assert every.summary() == (
        "1,002 of 2,000 replays queued; 2 of them confirmed from the log (answer lost); "
        "3 refused by the service; 4 sent without an answer and not in the log: check before "
        "replaying them again; 991 not asked (cancelled or rate-limited)."
    )


@pytest.mark.asyncio
async def test_a_delivery_refused_with_429_is_asked_again_until_the_limit_then_not_asked(
    tmp_path: Path,
) -> None:
    frozen = datetime.now(UTC)
    # The sandbox's minute never passes (its clock stands still); the client's does.
    with SandboxServer(tmp_path / "s.db", rate_limit=1, now=lambda: frozen) as server:
        hook = server.store.create_webhook("https://hooks.example.com/a", ["post.failed"])
        log_id = server.store.add_webhook_log(
            hook, outcome="failed", created_at=frozen - timedelta(minutes=5), data={"id": "p1"}
        )
        clock = FakeClock()
        async with ApiClient(
            server.base_url, server.keys.admin, retry=RetryPolicy(max_attempts=1), clock=clock
        ) as client:
            archive = DeliveryArchive(MemoryDb())
            await WebhookMonitor(client, archive).top_up(hook)  # the minute's one request
            log = archive.log(hook, log_id)
            assert log is not None
            waits: list[float] = []
            states: list[tuple[str, str, str]] = []
            seen: set[str] = set()
            replay: BulkReplay

            async def wait(seconds: float) -> None:
                waits.append(seconds)
                assert replay.progress.wait_s == seconds  # shown while waiting
                clock.advance(seconds)
                before = replay.progress.state
                replay.pause()  # a pause while waiting holds the batch...
                paused = replay.progress.state
                replay.resume()  # ...until resumed
                states.append((before, paused, replay.progress.state))

            replay = BulkReplay(
                client,
                archive,
                hook,
                [log],
                sleep=wait,
                on_progress=lambda progress: seen.add(progress.state),
            )
            progress = await replay.run()
            recorded = await archive.db.transaction(
                lambda connection: connection.execute(
                    "SELECT state, detail FROM delivery_replays"
                ).fetchall()
            )
    assert len(waits) == MAX_RATE_WAITS
    # The sandbox's Retry-After each time (the rest of its minute), not the 5 s default.
    assert waits == [60.0] * MAX_RATE_WAITS
    assert states == [("waiting", "paused", "running")] * MAX_RATE_WAITS
    assert (progress.asked, progress.not_asked, progress.queued) == (0, 1, 0)
    assert progress.wait_s == 0.0
    assert seen == {"running", "waiting", "paused", "finished"}
    # The record says why it was not asked: the service's own words for the 429.
    ((state, detail),) = recorded
    assert state == "not_asked"
    assert detail
    assert progress.state == "finished"
    replay.pause()  # after the end there is nothing to hold
    assert progress.state == "finished"


@pytest.mark.asyncio
async def test_a_pause_while_running_holds_until_resumed(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "s.db") as server:
        hook = server.store.create_webhook("https://hooks.example.com/a", ["post.failed"])
        ids = [
            server.store.add_webhook_log(hook, outcome="failed", data={"id": f"p{n}"})
            for n in range(2)
        ]
        async with ApiClient(server.base_url, server.keys.admin) as client:
            archive = DeliveryArchive(MemoryDb())
            await WebhookMonitor(client, archive).top_up(hook)
            logs = [log for log in (archive.log(hook, i) for i in ids) if log is not None]
            seen: list[tuple[str, str]] = []
            replay: BulkReplay

            def on_progress(progress: ReplayProgress) -> None:
                if progress.queued == 1 and not seen:
                    seen.append(("before", progress.state))
                    replay.pause()
                    seen.append(("paused", progress.state))
                    replay.resume()
                    seen.append(("resumed", progress.state))

            replay = BulkReplay(client, archive, hook, logs, on_progress=on_progress)
            progress = await replay.run()
    assert seen == [("before", "running"), ("paused", "paused"), ("resumed", "running")]
    assert (progress.queued, progress.state) == (2, "finished")


@pytest.mark.asyncio
async def test_lost_answers_over_several_log_pages_are_each_confirmed_by_their_own_new_row(
    tmp_path: Path,
) -> None:
    """Every answer is lost: each replay is confirmed from the log, across pages (15 a page),
    by a row made after the batch began, never by the original and never twice, even where
    two deliveries carry the same data."""
    with SandboxServer(tmp_path / "s.db", fail_after_commit=1.0) as server:
        hook = server.store.create_webhook("https://hooks.example.com/a", ["post.failed"])
        start = datetime.now(UTC)
        datas = [{"id": "same"}, {"id": "same"}, *({"id": f"p{n}"} for n in range(18))]
        originals = {
            server.store.add_webhook_log(
                hook,
                outcome="failed",
                created_at=start - timedelta(minutes=60 - n),
                data=data,
            ): data
            for n, data in enumerate(datas)
        }
        assert server.faults is not None
        server.faults.paths = tuple(
            f"/api/webhooks/{hook}/logs/{log_id}/replay" for log_id in originals
        )
        async with ApiClient(
            server.base_url, server.keys.admin, retry=RetryPolicy(max_attempts=1)
        ) as client:
            archive = DeliveryArchive(MemoryDb())
            await WebhookMonitor(client, archive).top_up(hook)  # the newest page is kept
            # The deliveries as the list shows them (more than one page of them).
            logs = [
                DeliveryLog(id=log_id, payload={"id": f"e-{log_id}", "type": "x", "data": data})
                for log_id, data in originals.items()
            ]
            replay = BulkReplay(client, archive, hook, logs)
            progress = await replay.run()
            recorded = await archive.db.transaction(
                lambda connection: connection.execute(
                    "SELECT log_id, state, detail FROM delivery_replays"
                ).fetchall()
            )
        rows = {row["id"]: row for row in server.store.webhook_logs(hook)}
    assert server.faults.dropped == len(originals)
    assert (progress.confirmed, progress.unknown, progress.not_found) == (20, 0, 0)
    assert progress.summary().startswith("20 of 20 replays queued; 20 of them confirmed")
    confirming = [detail for _, _, detail in recorded]
    assert {state for _, state, _ in recorded} == {"confirmed"}
    assert len(set(confirming)) == 20  # no row confirms two replays
    assert not set(confirming) & set(originals)
    for log_id, _, detail in recorded:
        assert (rows[detail]["payload"] or {}).get("data") == originals[log_id]

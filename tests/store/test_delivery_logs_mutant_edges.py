"""The delivery archive where a reader could be shown a wrong list (issue 18 §2): rows below an
unread gap held back until it is read, counts that are unknown said so, a run that holds
nothing, time to deliver at exactly 0 ms and a minute, times with and without an offset, logs
kept from the plain model, webhooks deleted together, and the rows kept in the workspace's
file surviving a restart."""

from __future__ import annotations

import errno
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.models.webhooks import DeliveryLog
from app.store.delivery_logs import DeliveryArchive, MemoryDb
from app.store.disk_full import is_disk_full
from app.store.local_store import LocalStore
from app.webhooks.raw_log import RawDeliveryLog


def _log(
    log_id: str,
    created: str | None,
    *,
    delivered: str | None = None,
    failed: str | None = None,
    attempts: int = 1,
) -> RawDeliveryLog:
    return RawDeliveryLog.model_validate(
        {
            "id": log_id,
            "event_type": "post.published",
            "payload": {"id": f"env-{log_id}"},
            "response_status": 200 if delivered else None,
            "response_body": "",
            "delivered_at": delivered,
            "failed_at": failed,
            "attempts": attempts,
            "created_at": created,
        }
    )


def _at(second: int) -> RawDeliveryLog:
    """A delivered log created at 10:00:<second> (higher: newer)."""
    moment = f"2026-11-20T10:00:{second:02d}Z"
    return _log(f"log-{second:02d}", moment, delivered=moment)


@pytest.fixture
def archive() -> DeliveryArchive:
    return DeliveryArchive(MemoryDb())


# -- rows below a gap -------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_rows_below_an_unread_gap_are_held_back_until_it_is_read(
    archive: DeliveryArchive,
) -> None:
    # Page 1: 50 and 40, then more on the server not read yet (a gap below 40).
    await archive.store_run("hook", [_at(50), _at(40)], reaches_end=False, head=True, total=9)
    # A later page read on its own: 20 and 10, with unknown rows between 40 and 20.
    await archive.store_run("hook", [_at(20), _at(10)], reaches_end=False, total=9)
    assert [row.id for row in archive.rows("hook")] == ["log-50", "log-40"]
    gap = archive.gap_for("hook")
    assert gap is not None
    assert gap.id == "log-40"
    # Paging on from 20: the rows down to its own gap (10's), not stopped at 40's.
    below_20 = archive.row("hook", "log-20")
    assert below_20 is not None
    assert [row.id for row in archive.rows("hook", below=below_20.key)] == ["log-10"]
    lower_gap = archive.gap_for("hook", below_20.key)
    assert lower_gap is not None
    assert lower_gap.id == "log-10"
    # Once the rows between are read, everything is listed in order.
    await archive.store_run("hook", [_at(30), _at(20)], reaches_end=False, after="log-40")
    assert [row.id for row in archive.rows("hook")] == [
        "log-50",
        "log-40",
        "log-30",
        "log-20",
        "log-10",
    ]
    last_gap = archive.gap_for("hook")
    assert last_gap is not None
    assert last_gap.id == "log-10"


@pytest.mark.asyncio
async def test_an_empty_run_changes_no_gap_and_keeps_no_webhook(archive: DeliveryArchive) -> None:
    await archive.store_run("hook", [_at(50), _at(40)], reaches_end=False)
    # The next page came back empty (the list moved): the gap below 40 is still unread.
    stored = await archive.store_run("hook", [], reaches_end=False, after="log-40")
    assert (stored.added, stored.changed, stored.met_kept) == ((), (), False)
    gap = archive.first_gap("hook")
    assert gap is not None
    assert gap.id == "log-40"
    # An empty read of a webhook never seen puts nothing in the archive's summary ...
    await archive.store_run("other", [], reaches_end=True)
    assert [kept.webhook_id for kept in archive.summary()] == ["hook"]
    assert archive.total("other") is None
    # ... but the server's count it brought is kept.
    await archive.store_run("empty", [], reaches_end=True, total=0, head=True)
    assert (archive.total("empty"), archive.head_total("empty")) == (0, 0)


# -- counts and single rows --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_counts_never_read_are_unknown_and_a_later_pages_count_is_not_the_heads(
    archive: DeliveryArchive,
) -> None:
    assert (archive.total("hook"), archive.head_total("hook")) == (None, None)
    assert archive.row("hook", "log-50") is None
    # A page read below the top: the server's count is known, the head's is not.
    await archive.store_run("hook", [_at(20)], reaches_end=False, total=7)
    assert (archive.total("hook"), archive.head_total("hook")) == (7, None)
    assert archive.row("hook", "log-99") is None
    await archive.store_run("hook", [_at(50)], reaches_end=False, total=8, head=True)
    assert (archive.total("hook"), archive.head_total("hook")) == (8, 8)


@pytest.mark.asyncio
async def test_webhooks_deleted_on_the_server_together_are_all_counted(
    archive: DeliveryArchive,
) -> None:
    await archive.note_listed([("a", "https://a.test"), ("b", "https://b.test"), ("c", "x")])
    assert await archive.note_listed([("c", "x")]) == 2
    assert await archive.note_listed([("c", "x")]) == 0  # already marked
    assert [(kept.webhook_id, kept.gone_utc is None) for kept in archive.summary()] == [
        ("c", True),
        ("a", False),
        ("b", False),
    ]


# -- what is kept of each log -----------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_row_that_becomes_undecided_again_counts_from_then(
    archive: DeliveryArchive,
) -> None:
    created = "2026-11-20T10:00:05Z"
    await archive.store_run("hook", [_log("a", created, attempts=0)], reaches_end=True)
    await archive.store_run(
        "hook", [_log("a", created, failed="2026-11-20T10:00:06Z", attempts=3)], reaches_end=True
    )
    assert archive.undecided("hook") == []
    between = datetime.now(UTC)
    # Listed as queued again (the service tries once more): undecided from this read on.
    await archive.store_run("hook", [_log("a", created, attempts=0)], reaches_end=True)
    assert [row.id for row in archive.undecided("hook", between)] == ["a"]


@pytest.mark.asyncio
async def test_time_to_deliver_at_its_bounds(archive: DeliveryArchive) -> None:
    logs = [
        _log("instant", "2026-11-20T10:00:05.100Z", delivered="2026-11-20T10:00:05.100Z"),
        _log("minute", "2026-11-20T10:00:04.100Z", failed="2026-11-20T10:01:04.100Z"),
        _log("past", "2026-11-20T10:00:03.100000Z", failed="2026-11-20T10:01:03.100500Z"),
        # Settled before it was created (two clocks): not a time.
        _log("before", "2026-11-20T10:00:02.500Z", delivered="2026-11-20T10:00:02.400Z"),
    ]
    await archive.store_run("hook", logs, reaches_end=True)
    _counts, elapsed = archive.chart_counts("hook", datetime(2026, 11, 20, 10, tzinfo=UTC))
    assert elapsed == [(0, 0.0)]


@pytest.mark.asyncio
async def test_times_with_an_offset_or_none_are_charted_at_their_utc_hour(
    archive: DeliveryArchive,
) -> None:
    logs = [
        _log("east", "2026-11-20T12:30:05+02:00", delivered="2026-11-20T12:30:05+02:00"),
        # No offset (UTC) created, settled with one: 250 ms, not an error.
        _log("mixed", "2026-11-20 11:00:05.100", delivered="2026-11-20T13:00:05.350+02:00"),
    ]
    await archive.store_run("hook", logs, reaches_end=True)
    counts, elapsed = archive.chart_counts("hook", datetime(2026, 11, 20, 9, tzinfo=UTC))
    assert sorted(counts) == [(1, "delivered", 1), (2, "delivered", 1)]
    assert elapsed == [(2, 250.0)]


@pytest.mark.asyncio
async def test_logs_of_the_plain_model_and_without_a_creation_time_are_kept(
    archive: DeliveryArchive,
) -> None:
    plain = DeliveryLog.model_validate(
        {"id": "plain", "response_status": 500, "failed_at": "2026-11-20T10:00:06Z", "attempts": 3}
    )
    stored = await archive.store_run("hook", [plain], reaches_end=True)
    assert stored.added == ("plain",)
    (row,) = archive.rows("hook")
    assert (row.id, row.created_utc, row.outcome, row.response_status) == (
        "plain",
        "",
        "failed",
        500,
    )
    log = archive.log("hook", "plain")
    assert log is not None
    assert (log.id, log.response_status, log.attempts) == ("plain", 500, 3)


# -- the durable file ---------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_rows_kept_in_the_workspace_file_are_there_after_a_restart(tmp_path: Path) -> None:
    file_path = tmp_path / "ws.local.sqlite3"
    store = LocalStore.open(file_path)
    try:
        await DeliveryArchive(store).store_run("hook", [_at(50), _at(40)], reaches_end=True)
    finally:
        store.close()
    again = LocalStore.open(file_path)
    try:
        assert [row.id for row in DeliveryArchive(again).rows("hook")] == ["log-50", "log-40"]
    finally:
        again.close()


def test_sqlites_full_disk_code_is_a_full_disk_whatever_its_words() -> None:
    error = sqlite3.OperationalError("could not write page 12")
    error.sqlite_errorcode = 13  # SQLITE_FULL
    assert is_disk_full(error)
    error.sqlite_errorcode = 10  # SQLITE_IOERR
    assert not is_disk_full(error)
    assert not is_disk_full(OSError(errno.EIO, "Input/output error"))

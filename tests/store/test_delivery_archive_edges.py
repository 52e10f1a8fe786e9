"""The delivery archive and its search at their edges (issue 18 §2): the retention's bounds, a
page of exactly 100 rows, what the archive's summary shows per webhook, and search words with
LIKE's own signs in them when SQLite has no FTS5."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.store.delivery_logs import (
    MAX_RETENTION_DAYS,
    MIN_RETENTION_DAYS,
    ArchivedWebhook,
    DeliveryArchive,
    MemoryDb,
)
from app.store.delivery_search import DeliverySearch, LogQuery
from app.webhooks.raw_log import RawDeliveryLog

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def delivery(n: int, *, status: int | None = 200, words: str = "") -> RawDeliveryLog:
    created = (NOW - timedelta(seconds=n)).isoformat()
    delivered = status is not None and 200 <= status < 300
    return RawDeliveryLog.model_validate(
        {
            "id": f"log-{n:03d}",
            "event_type": "post.published" if delivered else "post.failed",
            "payload": {"id": f"env-{n}", "type": "post.published", "data": {"text": words}},
            "response_status": status,
            "response_body": "",
            "delivered_at": created if delivered else None,
            "failed_at": None if delivered else created,
            "attempts": 1 if delivered else 3,
            "created_at": created,
        }
    )


@pytest.mark.asyncio
async def test_the_retention_bounds_themselves_are_allowed() -> None:
    archive = DeliveryArchive(MemoryDb())
    assert (MIN_RETENTION_DAYS, MAX_RETENTION_DAYS) == (7, 3650)
    await archive.set_retention_days(7)
    assert archive.retention_days() == 7
    await archive.set_retention_days(3650)
    assert archive.retention_days() == 3650
    for days in (6, 3651):
        with pytest.raises(ValueError, match=r"Keep deliveries between 7 and 3650 days\."):
            await archive.set_retention_days(days)
    assert archive.retention_days() == 3650


@pytest.mark.asyncio
async def test_a_page_of_rows_and_of_search_hits_is_a_hundred_by_default() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run("hook", [delivery(n) for n in range(101)], reaches_end=True)
    rows = archive.rows("hook")
    assert [row.id for row in rows] == [f"log-{n:03d}" for n in range(100)]
    hits = DeliverySearch(archive.db).search(LogQuery())  # no filter: every row
    assert [hit.row for hit in hits] == rows


@pytest.mark.asyncio
async def test_the_summary_names_each_webhook_its_endpoint_size_and_dates() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.note_listed([("hook-a", "https://a.example/in"), ("hook-b", "https://b.test")])
    await archive.store_run("hook-a", [delivery(1), delivery(30)], reaches_end=True)
    assert await archive.note_listed([("hook-b", "https://b.test")]) == 1  # hook-a deleted there
    gone, kept = archive.summary()[1], archive.summary()[0]
    assert kept == ArchivedWebhook("hook-b", "https://b.test", None, 0, 0, None, None)
    assert (gone.webhook_id, gone.endpoint, gone.rows) == ("hook-a", "https://a.example/in", 2)
    assert gone.gone_utc is not None
    assert gone.gone_utc.endswith("Z")
    assert (gone.oldest_utc, gone.newest_utc) == (
        "2026-11-20T11:59:30.000000Z",
        "2026-11-20T11:59:59.000000Z",
    )
    assert gone.bytes == sum(len(log.archive_json()) for log in (delivery(1), delivery(30)))


@pytest.mark.asyncio
async def test_search_hits_carry_the_whole_kept_row() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run(
        "hook", [delivery(1, status=None), delivery(2, status=504)], reaches_end=False
    )
    hits = DeliverySearch(archive.db).search(LogQuery(webhook_id="hook"))
    assert [(hit.webhook_id, hit.row) for hit in hits] == [
        ("hook", row) for row in archive.rows("hook")
    ]
    first, last = hits[0].row, hits[1].row
    assert (first.outcome, first.response_status, first.attempts) == ("failed", None, 3)
    assert first.settled_utc == first.created_utc
    assert (first.gap_below, last.gap_below) == (False, True)  # the run's last row, not the end
    assert (last.event_type, last.response_status) == ("post.failed", 504)


@pytest.mark.asyncio
async def test_a_status_class_is_its_hundred_and_nothing_past_it() -> None:
    archive = DeliveryArchive(MemoryDb())
    statuses = {1: 200, 2: 299, 3: 300, 4: 199}
    await archive.store_run(
        "hook", [delivery(n, status=s) for n, s in statuses.items()], reaches_end=True
    )
    hits = DeliverySearch(archive.db).search(LogQuery(status_class="2xx"))
    assert [hit.row.response_status for hit in hits] == [200, 299]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("word", "texts", "found"),
    [
        ("100%", ["100% sure", "1000 sure"], ["100% sure"]),
        ("a_b", ["a_b", "axb"], ["a_b"]),
        # The body is JSON: a line break is kept as backslash-n, and found as such.
        ("a\\nb", ["a\nb", "anb"], ["a\nb"]),
    ],
)
async def test_without_fts5_words_are_matched_literally(
    word: str, texts: list[str], found: list[str]
) -> None:
    archive = DeliveryArchive(MemoryDb())
    logs = [delivery(n, words=text) for n, text in enumerate(texts)]
    await archive.store_run("hook", logs, reaches_end=True)
    search = DeliverySearch(archive.db)
    search.indexed = False  # as on an SQLite built without FTS5
    hits = search.search(LogQuery(text=word))
    by_id = {log.id: text for log, text in zip(logs, texts, strict=True)}
    assert [by_id[hit.row.id] for hit in hits] == found


@pytest.mark.asyncio
async def test_prepare_says_the_index_is_there_and_remembers_a_missing_fts5() -> None:
    archive = DeliveryArchive(MemoryDb())
    search = DeliverySearch(archive.db)
    assert await search.prepare() is True
    assert search.indexed is True
    missing = DeliverySearch(archive.db)
    missing.indexed = False  # found missing before: not asked again
    assert await missing.prepare() is False


def _log(
    log_id: str,
    created: str,
    *,
    delivered: str | None = None,
    failed: str | None = None,
    attempts: int = 1,
    status: int | None = None,
) -> RawDeliveryLog:
    return RawDeliveryLog.model_validate(
        {
            "id": log_id,
            "event_type": "post.published",
            "payload": {"id": f"env-{log_id}"},
            "response_status": status,
            "response_body": "",
            "delivered_at": delivered,
            "failed_at": failed,
            "attempts": attempts,
            "created_at": created,
        }
    )


@pytest.mark.asyncio
async def test_outcomes_and_what_the_service_may_still_change() -> None:
    archive = DeliveryArchive()  # in memory when no file is given
    logs = [
        _log("ok", "2026-11-20T10:00:05Z", delivered="2026-11-20T10:00:06Z", status=200),
        _log("retrying", "2026-11-20T10:00:04Z", failed="2026-11-20T10:00:07Z", attempts=2),
        _log("failed", "2026-11-20T10:00:03Z", failed="2026-11-20T10:00:08Z", attempts=3),
        _log("queued", "2026-11-20T10:00:02Z", attempts=0),
    ]
    stored = await archive.store_run("hook", logs, reaches_end=True)
    assert (stored.added, stored.changed, stored.met_kept) == (
        ("ok", "retrying", "failed", "queued"),
        (),
        False,
    )
    rows = {row.id: row for row in archive.rows("hook")}
    assert [(r.outcome, r.settled_utc) for r in rows.values()] == [
        ("delivered", "2026-11-20T10:00:06.000000Z"),
        ("failed", "2026-11-20T10:00:07.000000Z"),
        ("failed", "2026-11-20T10:00:08.000000Z"),
        ("queued", None),
    ]
    assert rows["ok"].created_utc == "2026-11-20T10:00:05.000000Z"
    assert (rows["ok"].event_type, rows["ok"].response_status, rows["ok"].attempts) == (
        "post.published",
        200,
        1,
    )
    assert [row.id for row in archive.undecided("hook")] == ["retrying", "queued"]
    since = datetime.now(UTC) - timedelta(minutes=1)
    assert [row.id for row in archive.undecided("hook", since)] == ["retrying", "queued"]
    assert archive.undecided("hook", datetime.now(UTC) + timedelta(minutes=1)) == []
    newest = archive.newest("hook")
    assert newest is not None
    assert newest.id == "ok"
    assert archive.newest("other") is None


@pytest.mark.asyncio
async def test_a_time_without_an_offset_is_utc() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run(
        "hook",
        [_log("a", "2026-11-20 10:00:05", delivered="2026-11-20 10:00:06")],
        reaches_end=True,
    )
    (row,) = archive.rows("hook")
    assert (row.created_utc, row.settled_utc) == (
        "2026-11-20T10:00:05.000000Z",
        "2026-11-20T10:00:06.000000Z",
    )
    counts, _elapsed = archive.chart_counts("hook", datetime(2026, 11, 20, 9, tzinfo=UTC))
    assert counts == [(1, "delivered", 1)]


@pytest.mark.asyncio
async def test_time_to_deliver_is_charted_only_where_it_was_measured() -> None:
    archive = DeliveryArchive(MemoryDb())
    logs = [
        # Measured (sub-second times), first attempt: 250 ms.
        _log("fast", "2026-11-20T10:00:05.100Z", delivered="2026-11-20T10:00:05.350Z"),
        # Whole seconds say nothing about the receiver's time.
        _log("whole", "2026-11-20T10:00:04Z", delivered="2026-11-20T10:00:05Z"),
        # A second attempt: the time includes the wait between attempts.
        _log("again", "2026-11-20T10:00:03.100Z", delivered="2026-11-20T10:00:03.300Z", attempts=2),
        # Not settled yet.
        _log("queued", "2026-11-20T10:00:02.500Z", attempts=0),
        # A minute or more is not a delivery time.
        _log("slow", "2026-11-20T10:00:01.000Z", failed="2026-11-20T10:01:01.000Z"),
        _log("almost", "2026-11-20T10:00:00.500Z", failed="2026-11-20T10:01:00.499Z"),
    ]
    await archive.store_run("hook", logs, reaches_end=True)
    _counts, elapsed = archive.chart_counts("hook", datetime(2026, 11, 20, 10, tzinfo=UTC))
    assert sorted(elapsed) == [(0, 250.0), (0, 59999.0)]


@pytest.mark.asyncio
async def test_many_ids_are_looked_up_in_several_queries() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run("hook", [delivery(n) for n in range(450)], reaches_end=True)
    wanted = [f"log-{n:03d}" for n in range(450)]
    assert archive.known_ids("hook", [*wanted, "log-999"]) == set(wanted)
    assert [row.id for row in archive.rows_by_id("hook", wanted)] == wanted
    again = await archive.store_run("hook", [delivery(n) for n in range(450)], reaches_end=True)
    assert (again.added, again.changed, again.met_kept) == ((), (), True)


@pytest.mark.asyncio
async def test_a_run_closes_the_gaps_it_fills_and_leaves_one_below_its_last_new_row() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run(
        "hook", [delivery(1), delivery(2)], reaches_end=False, total=9, head=True
    )
    assert [(r.id, r.gap_below) for r in archive.rows("hook")] == [
        ("log-001", False),
        ("log-002", True),
    ]
    assert (archive.total("hook"), archive.head_total("hook")) == (9, 9)
    # The next page, read after log-002: its gap is closed, the new last row has one.
    run = await archive.store_run(
        "hook", [delivery(3), delivery(4)], reaches_end=False, total=10, after="log-002"
    )
    assert (run.added, run.met_kept) == (("log-003", "log-004"), False)
    assert [r.gap_below for r in archive.rows("hook")] == [False, False, False, True]
    assert (archive.total("hook"), archive.head_total("hook")) == (10, 9)
    # A run ending on a kept row leaves that row's gap as it was ...
    await archive.store_run("hook", [delivery(3), delivery(4)], reaches_end=False)
    assert archive.first_gap("hook") is not None
    # ... and one reaching the end of the list closes it.
    await archive.store_run("hook", [delivery(4)], reaches_end=True)
    assert archive.first_gap("hook") is None
    # A log listed twice in one run (the pages moved) is kept once.
    twice = await archive.store_run("hook", [delivery(5), delivery(5)], reaches_end=True)
    assert twice.added == ("log-005",)
    assert archive.count("hook") == 5


@pytest.mark.asyncio
async def test_a_changed_log_is_replaced_and_reported() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run(
        "hook", [_log("a", "2026-11-20T10:00:05Z", attempts=0)], reaches_end=True
    )
    decided = _log("a", "2026-11-20T10:00:05Z", delivered="2026-11-20T10:00:06Z", status=200)
    run = await archive.store_run("hook", [decided], reaches_end=True)
    assert (run.added, run.changed, run.met_kept) == ((), ("a",), True)
    row = archive.row("hook", "a")
    assert row is not None
    assert (row.outcome, row.response_status) == ("delivered", 200)
    assert archive.undecided("hook") == []


@pytest.mark.asyncio
async def test_a_time_with_an_offset_is_kept_as_the_same_instant_in_utc() -> None:
    archive = DeliveryArchive(MemoryDb())
    log = _log("a", "2026-11-20T12:00:05+02:00", delivered="2026-11-20T12:00:06+02:00")
    await archive.store_run("hook", [log], reaches_end=True)
    (row,) = archive.rows("hook")
    assert (row.created_utc, row.settled_utc) == (
        "2026-11-20T10:00:05.000000Z",
        "2026-11-20T10:00:06.000000Z",
    )


@pytest.mark.asyncio
async def test_rows_read_one_page_at_a_time_are_joined_by_a_run_that_holds_them_all() -> None:
    archive = DeliveryArchive(MemoryDb())
    for n in (1, 2, 3):  # three single-row pages: each row has a gap below it
        await archive.store_run("hook", [delivery(n)], reaches_end=False)
    assert [r.gap_below for r in archive.rows("hook", limit=1)] == [True]
    await archive.store_run("hook", [delivery(1), delivery(2), delivery(3)], reaches_end=False)
    assert [(r.id, r.gap_below) for r in archive.rows("hook")] == [
        ("log-001", False),
        ("log-002", False),
        ("log-003", True),
    ]

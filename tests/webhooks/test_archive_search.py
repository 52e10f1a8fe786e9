"""Issue 17 §1–§2 without a server: the user's retention, the archive's size, search over every
kept row (FTS5, and the LIKE fallback giving the same rows)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.store.delivery_logs import DeliveryArchive, MemoryDb
from app.store.delivery_search import DeliverySearch, LogQuery, match_expression
from app.webhooks.raw_log import RawDeliveryLog

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def delivery(
    n: int, *, days_ago: float = 0, status: int | None = 200, words: str = ""
) -> RawDeliveryLog:
    created = (NOW - timedelta(days=days_ago, seconds=n)).isoformat()
    failed = status is None or not 200 <= status < 300
    return RawDeliveryLog.model_validate(
        {
            "id": f"log-{n}",
            "event_type": "post.failed" if failed else "post.published",
            "payload": {
                "id": f"env-{n}",
                "type": "post.failed" if failed else "post.published",
                "data": {"id": f"post-{n}", "content": f"Roast number {n} {words}"},
                "created_at": created,
            },
            "response_status": status,
            "response_body": "upstream timeout" if status == 504 else '{"ok":true}',
            "delivered_at": None if failed else created,
            "failed_at": created if failed else None,
            "attempts": 3 if failed else 1,
            "created_at": created,
        }
    )


async def filled(count: int = 30) -> DeliveryArchive:
    archive = DeliveryArchive(MemoryDb())
    logs = [
        delivery(n, status=(200, 301, 404, 504, None)[n % 5], words="espresso" if n == 7 else "")
        for n in range(count)
    ]
    await archive.store_run("hook-a", logs, reaches_end=True)
    await archive.store_run("hook-b", [delivery(100, words="espresso")], reaches_end=True)
    return archive


@pytest.mark.asyncio
@pytest.mark.parametrize("indexed", [True, False])
async def test_search_filters_and_free_text_over_the_whole_archive(indexed: bool) -> None:
    archive = await filled()
    search = DeliverySearch(archive.db)
    if indexed:
        assert await search.prepare()
    else:
        search.indexed = False  # as on an SQLite without FTS5
    ids = lambda query: [(hit.webhook_id, hit.row.id) for hit in search.search(query)]  # noqa: E731
    assert ids(LogQuery(text="espresso")) == [("hook-a", "log-7"), ("hook-b", "log-100")]
    assert ids(LogQuery(webhook_id="hook-b", text="ESPRESSO")) == [("hook-b", "log-100")]
    assert ids(LogQuery(text="post-12")) == [("hook-a", "log-12")]
    assert [h for h in ids(LogQuery(text="upstream timeout"))] == [
        ("hook-a", f"log-{n}") for n in (3, 8, 13, 18, 23, 28)
    ]
    assert len(ids(LogQuery(webhook_id="hook-a", status_class="3xx"))) == 6
    assert len(ids(LogQuery(webhook_id="hook-a", status_class="none"))) == 6
    assert len(ids(LogQuery(webhook_id="hook-a", outcome="delivered"))) == 6
    assert len(ids(LogQuery(webhook_id="hook-a", event="post.failed"))) == 24
    since = (NOW - timedelta(seconds=4)).isoformat().replace("+00:00", ".000000Z")
    assert ids(LogQuery(webhook_id="hook-a", since_utc=since)) == [
        ("hook-a", f"log-{n}") for n in range(5)
    ]
    assert ids(LogQuery(text='"quoted OR')) == []  # words are text, never FTS syntax
    first = search.search(LogQuery(webhook_id="hook-a"), limit=10)
    more = search.search(
        LogQuery(webhook_id="hook-a"), below=("hook-a", first[-1].row.key), limit=100
    )
    assert [h.row.id for h in first + more] == [f"log-{n}" for n in range(30)]


@pytest.mark.asyncio
async def test_the_index_follows_rows_added_changed_and_removed() -> None:
    archive = await filled(5)
    search = DeliverySearch(archive.db)
    await search.prepare()
    await archive.store_run("hook-a", [delivery(50, words="cortado")], reaches_end=False)
    assert [h.row.id for h in search.search(LogQuery(text="cortado"))] == ["log-50"]
    await archive.remove("hook-b")
    assert [h.webhook_id for h in search.search(LogQuery(text="espresso"))] == []
    # hook-a's log-7 is not in a 5-row archive; log-100 went with hook-b.


@pytest.mark.asyncio
async def test_retention_is_the_users_and_the_size_is_shown() -> None:
    archive = DeliveryArchive(MemoryDb())
    assert archive.retention_days() == 90
    logs = [delivery(n, days_ago=days) for n, days in enumerate((1, 20, 40, 100))]
    await archive.store_run("hook-a", logs, reaches_end=True)
    (summary,) = archive.summary()
    assert summary.rows == 4
    assert summary.bytes > 1000
    with pytest.raises(ValueError, match="between"):
        await archive.set_retention_days(3)
    await archive.set_retention_days(30)
    assert archive.retention_days() == 30
    assert await archive.prune(NOW) == 2
    assert archive.count("hook-a") == 2


def test_match_expression_quotes_every_word() -> None:
    assert match_expression(['a"b', "post-1"]) == '"a""b" AND "post-1"'


@pytest.mark.asyncio
async def test_the_archive_keeps_the_payload_as_sent() -> None:
    archive = DeliveryArchive(MemoryDb())
    await archive.store_run("hook-a", [delivery(1)], reaches_end=True)
    kept = archive.log("hook-a", "log-1")
    assert kept is not None
    assert kept.payload_raw["created_at"].endswith("+00:00")

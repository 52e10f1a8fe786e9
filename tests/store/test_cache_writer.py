"""One writer thread owns the cache's write connection; the event loop only awaits its futures.
Integrity checks run only after an unclean shutdown."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.store import CacheError, WorkspaceCache
from tests.store.factories import make_post

FUTURE = datetime(2031, 1, 1, 9, tzinfo=UTC)


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "c.sqlite3") as opened:
        yield opened


@pytest.mark.asyncio
async def test_an_awaited_write_leaves_the_event_loop_free_while_it_waits(
    cache: WorkspaceCache,
) -> None:
    # Another connection holds the write lock, as a long sync transaction would.
    blocker = sqlite3.connect(cache.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        write = asyncio.ensure_future(cache.upsert_post_async(make_post("p1")))
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5  # the loop kept turning
        assert not write.done()  # the write is waiting, on the writer thread
        assert cache.post("p1") is None  # reads do not wait either
    finally:
        blocker.execute("COMMIT")
        blocker.close()
    assert await write is True
    assert cache.post("p1") is not None


@pytest.mark.asyncio
async def test_writes_run_in_order_on_one_thread(
    cache: WorkspaceCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: set[str] = set()
    original = cache._transaction

    def watched():  # type: ignore[no-untyped-def]
        threads.add(threading.current_thread().name)
        return original()

    monkeypatch.setattr(cache, "_transaction", watched)
    results = await asyncio.gather(
        cache.upsert_post_async(make_post("p1", content="one")),
        cache.upsert_post_async(make_post("p1", content="two")),
        cache.delete_post_async("p1"),
        cache.upsert_post_async(make_post("p2")),
        asyncio.to_thread(cache.upsert_post, make_post("p3")),
    )
    assert results == [True, True, True, True, True]
    assert cache.post_ids() == {"p2", "p3"}
    assert len(threads) == 1
    assert next(iter(threads)).startswith("cache-writer")
    assert cache.upsert_post(make_post("p2")) is False  # the plain API still works


@pytest.mark.asyncio
async def test_a_user_edit_queued_during_a_refresh_is_not_undone_by_it(
    cache: WorkspaceCache,
) -> None:
    cache.replace_all_posts([make_post("p1", scheduled_at="2030-01-01 10:00:00")])
    mark = cache.begin_refresh()  # the refresh reads the server...
    edited = make_post("p1", scheduled_at="2030-06-01 10:00:00")
    await cache.upsert_post_async(edited)  # ...while the user reschedules
    stale = [make_post("p1", scheduled_at="2030-01-01 10:00:00"), make_post("p2")]
    await cache.store_full_refresh_async([], [], stale, since=mark)
    post = cache.post("p1")
    assert post is not None
    assert post.scheduled_at == edited.scheduled_at
    assert cache.post_ids() == {"p1", "p2"}


@pytest.mark.asyncio
async def test_a_closed_cache_refuses_writes_in_words(tmp_path: Path) -> None:
    cache = WorkspaceCache(tmp_path / "c.sqlite3")
    cache.close()
    cache.close()  # twice is harmless
    with pytest.raises(CacheError, match="closed"):
        await cache.upsert_post_async(make_post("p1"))
    with pytest.raises(CacheError, match="closed"):
        cache.delete_post("p1")


def test_quick_check_runs_only_after_an_unclean_shutdown(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as fresh:
        assert fresh.checked_integrity is False
        fresh.upsert_post(make_post("p1"))
    with WorkspaceCache(path) as clean:
        assert clean.checked_integrity is False

    crashed = WorkspaceCache(path)  # never closed: as if the process were killed
    try:
        with WorkspaceCache(path) as after_crash:
            assert after_crash.checked_integrity is True
            assert after_crash.post_ids() == {"p1"}
    finally:
        crashed.close()
    with WorkspaceCache(path) as next_time:
        assert next_time.checked_integrity is False


def test_damage_found_after_an_unclean_shutdown_sets_the_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([make_post(f"p{i}", content="x" * 500) for i in range(200)])
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO sync_meta (key, value) VALUES ('open_since', 'x')")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        last_page = db.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(path.read_bytes())
    # Damage a page near the end (the posts' bodies), far from the schema and sync_meta.
    start = (last_page - 3) * page_size
    data[start : start + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))

    with WorkspaceCache(path) as reopened:
        assert reopened.checked_integrity is True
        assert reopened.reset is not None
        assert reopened.count_posts() == 0


def test_damage_met_after_a_clean_start_is_said_in_words_and_rebuilt_next_time(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts(
            [
                make_post(f"p{i}", content="x" * 500, scheduled_at="2030-01-01 10:00:00")
                for i in range(200)
            ]
        )
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        # A leaf of the index the calendar's read walks (the cards live there).
        leaf = db.execute(
            "SELECT max(pageno) FROM dbstat WHERE name = 'posts_calendar_cards'"
            " AND pagetype = 'leaf'"
        ).fetchone()[0]
    data = bytearray(path.read_bytes())
    start = (leaf - 1) * page_size
    data[start : start + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))

    with WorkspaceCache(path) as opened:
        assert opened.checked_integrity is False  # closed cleanly: not read at open
        with pytest.raises(CacheError, match=r"damaged\. Restart Postdesk") as caught:
            opened.cards_between(datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
        assert "sqlite" not in str(caught.value).lower()
        assert opened.damage_seen
    with WorkspaceCache(path) as next_start:
        assert next_start.checked_integrity is True
        assert next_start.reset is not None
        assert next_start.count_posts() == 0


def test_the_month_query_reads_only_the_card_index(cache: WorkspaceCache) -> None:
    # Read from the table, each card sits behind its post's large body (overflow pages).
    from app.store.workspace_cache import _between

    start, end = datetime(2030, 1, 1, tzinfo=UTC), datetime(2030, 2, 1, tzinfo=UTC)
    sql, params = _between("card, id", start, end, None, None, None)
    with sqlite3.connect(cache.path) as db:
        plan = " ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params))
    assert "COVERING INDEX posts_calendar_cards" in plan
    assert "TEMP B-TREE" not in plan  # already in calendar order


def test_a_version_2_file_gains_the_card_index_and_keeps_its_posts(tmp_path: Path) -> None:
    from app.store.schema import MIGRATIONS
    from app.store.sqlite_file import split_statements

    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.upsert_post(make_post("p1", scheduled_at="2030-01-05 10:00:00"))
    with sqlite3.connect(path, isolation_level=None) as db:  # back to version 2, as shipped
        db.execute("DROP INDEX posts_calendar_cards")
        for statement in split_statements(MIGRATIONS[0]):
            if "posts_by_calendar_time" in statement:
                db.execute(statement)
        db.execute("PRAGMA user_version = 2")
    with WorkspaceCache(path) as reopened:
        cards = reopened.cards_between(
            datetime(2030, 1, 1, tzinfo=UTC), datetime(2030, 2, 1, tzinfo=UTC)
        )
        assert [card.id for card in cards] == ["p1"]
    with sqlite3.connect(path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "posts_calendar_cards" in names
    assert "posts_by_calendar_time" not in names


@pytest.mark.asyncio
async def test_aclose_lets_queued_writes_finish_without_blocking_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    cache = WorkspaceCache(path)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    write = asyncio.ensure_future(cache.upsert_post_async(make_post("p1")))
    closing = asyncio.ensure_future(cache.aclose())
    for _ in range(3):
        await asyncio.sleep(0.01)
    assert not closing.done()
    blocker.execute("COMMIT")
    blocker.close()
    await closing
    assert await write is True
    with WorkspaceCache(path) as reopened:
        assert reopened.post_ids() == {"p1"}
        assert reopened.checked_integrity is False  # closed cleanly

"""The workspace cache at the edges its earlier tests left open (issue 18 §2): the async light
refresh with every argument given, pages from the middle that reach the end, a cache another
Postdesk holds, a damage found at open or while reading (what is said and logged), and the
stored time text and the sync's page-by-page encoding that the cache relies on."""

from __future__ import annotations

import asyncio
import locale
import logging
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.models import Post
from app.store import CacheError, WorkspaceCache, sqlite_file
from app.store.post_codec import encode_post, encode_posts
from app.store.private_files import PRIVATE_MODE, open_private_append
from app.store.utc_text import parse_utc_text, utc_text
from tests.local_zone import local_zone
from tests.store.factories import make_post


def _on(day: int) -> str:
    return f"2026-03-{day:02d} 09:00:00"


def _pages(*days: int) -> list[Post]:
    return [make_post(f"d{day}", scheduled_at=_on(day)) for day in days]


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    """Posts on March 1..10 plus an undated draft."""
    with WorkspaceCache(tmp_path / "workspace.sqlite3") as opened:
        posts = [make_post(f"d{day}", scheduled_at=_on(day)) for day in range(1, 11)]
        opened.replace_all_posts([*posts, make_post("draft", scheduled_at=None, status="draft")])
        yield opened


# -- the async light refresh passes each argument on ---------------------------------------------


def test_async_pages_that_reach_the_end_drop_every_post_they_did_not_hold(
    cache: WorkspaceCache,
) -> None:
    change = asyncio.run(cache.merge_first_pages_async(_pages(9, 6), reached_end=True))
    assert sorted(cache.post_ids()) == ["d6", "d9"]
    assert len(change.gone) == 9


def test_async_pages_from_the_middle_keep_what_lies_above_them(cache: WorkspaceCache) -> None:
    change = asyncio.run(cache.merge_first_pages_async(_pages(9, 6), from_top=False))
    assert sorted(change.gone) == ["d7", "d8"]
    assert cache.post("d10") is not None


def test_async_refresh_leaves_an_edit_made_after_its_mark(cache: WorkspaceCache) -> None:
    mark = cache.begin_refresh()
    cache.upsert_post(make_post("d7", scheduled_at=_on(7), content="edited meanwhile"))
    asyncio.run(cache.merge_first_pages_async(_pages(9, 6), since=mark))
    kept = cache.post("d7")
    assert kept is not None
    assert kept.content == "edited meanwhile"


def test_pages_from_the_middle_that_reach_the_end_drop_everything_earlier_and_the_drafts(
    cache: WorkspaceCache,
) -> None:
    assert cache.window_misses(_pages(6, 4), reached_end=True, from_top=False) == {
        "d1",
        "d2",
        "d3",
        "d5",
        "draft",
    }
    change = cache.merge_first_pages(_pages(6, 4), reached_end=True, from_top=False)
    assert sorted(change.gone) == ["d1", "d2", "d3", "d5", "draft"]
    assert cache.post("d10") is not None


# -- a cache held by another Postdesk ------------------------------------------------------------


def test_a_cache_locked_by_another_program_suggests_postdesk_is_already_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE held (x)")
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(sqlite_file, "BUSY_TIMEOUT_S", 0.0)  # give up at the first "locked"
    try:
        with pytest.raises(CacheError) as raised:
            WorkspaceCache(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert str(raised.value).endswith(
        "database is locked. Is Postdesk already running with this workspace?"
    )
    assert str(raised.value).startswith(f"Cannot open the local cache {path}: ")
    # Nothing was moved aside: a busy file is not a damaged one.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("c.")) == ["c.sqlite3"]


# -- damage found at open, and while reading -----------------------------------------------------


def _damaged_and_left_open(path: Path) -> str:
    """A cache whose posts index shares the posts table's pages, left open by a crash; returns
    what SQLite's quick check says of it."""
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([make_post(f"p{i}", content="x" * 500) for i in range(200)])
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'posts'").fetchone()[0]
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET rootpage = ? WHERE name = 'sqlite_autoindex_posts_1'",
            (root,),
        )
        db.execute("INSERT INTO sync_meta (key, value) VALUES ('open_since', 'crashed')")
    finally:
        db.close()
    check = sqlite3.connect(path)
    try:
        problems = [str(row[0]) for row in check.execute("PRAGMA quick_check")]
    finally:
        check.close()
    assert problems != ["ok"]
    return "; ".join(problems[:3])


def test_damage_found_by_the_check_at_open_is_the_reason_given_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite3"
    problems = _damaged_and_left_open(path)
    with (
        caplog.at_level(logging.WARNING, logger="app.store.workspace_cache"),
        WorkspaceCache(path) as reopened,
    ):
        reset = reopened.reset
        assert reset is not None
        assert reopened.checked_integrity
        assert reset.reason == problems
        assert "2nd reference to page" in reset.reason
        assert reopened.count_posts() == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert f"cache {path} was unreadable ({problems}); moved to {reset.moved_to}" in warnings


def test_many_problems_found_at_open_are_summed_up_by_the_first_three(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        drafts = [make_post(f"draft{i}", scheduled_at=None, status="draft") for i in range(5)]
        cache.replace_all_posts(drafts)
    db = sqlite3.connect(path, isolation_level=None)
    try:  # a rule the rows break, five times over, and a crash that left the file open
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = replace(sql, 'scheduled_utc TEXT,', "
            "'scheduled_utc TEXT NOT NULL,') WHERE name = 'posts'"
        )
        db.execute("INSERT INTO sync_meta (key, value) VALUES ('open_since', 'crashed')")
    finally:
        db.close()
    with WorkspaceCache(path) as reopened:
        assert reopened.reset is not None
        assert reopened.reset.reason == "; ".join(["NULL value in posts.scheduled_utc"] * 3)
        assert reopened.count_posts() == 0


def _closed_cleanly_then_damaged(path: Path) -> None:
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([make_post(f"p{i}", content="x" * 500) for i in range(200)])
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    # Pages of the posts only: the schema and the bookkeeping read at open stay intact.
    for page in range(20, len(data) // page_size, 2):
        data[page * page_size : page * page_size + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))


def test_damage_found_while_reading_tells_the_user_what_to_do_and_logs_the_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite3"
    _closed_cleanly_then_damaged(path)
    caplog.set_level(logging.WARNING, logger="app.store.workspace_cache")
    # No check at a clean open: the damage shows only when the pages are read.
    with WorkspaceCache(path) as reopened:
        assert reopened.reset is None
        with pytest.raises(CacheError) as raised:
            reopened.posts([f"p{i}" for i in range(200)])
        assert reopened.damage_seen
    assert str(raised.value) == (
        "The local copy of this workspace is damaged. Restart Postdesk: it will set the "
        "file aside and download everything again; nothing on the server is affected."
    )
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(
        w.startswith(f"cache {path} is damaged: ") and len(w) > len(f"cache {path} is damaged: ")
        for w in warnings
    ), warnings
    assert not any("None" in w for w in warnings), warnings


# -- the time text and the sync's encoding the cache relies on -----------------------------------


@pytest.fixture
def far_east_local_zone() -> Iterator[None]:
    """The process's local zone set to UTC+9 (the cache must not depend on it)."""
    with local_zone("Asia/Tokyo"):
        yield


@pytest.mark.usefixtures("far_east_local_zone")
def test_stored_times_are_utc_whatever_the_local_zone() -> None:
    moment = datetime(2026, 10, 25, 0, 30, tzinfo=timezone(timedelta(hours=2)))
    assert utc_text(moment) == "2026-10-24T22:30:00.000000Z"
    assert parse_utc_text(utc_text(moment)) == moment


def test_a_text_with_its_own_offset_reads_back_as_that_instant() -> None:
    assert parse_utc_text("2026-10-25T02:30:00+02:00") == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    # The cache's form before its schema step 4 had no zone and meant UTC.
    assert parse_utc_text("2026-10-25 00:30:00.000000") == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


def test_a_naive_time_is_refused_in_words() -> None:
    with pytest.raises(
        ValueError, match=r"^an aware datetime is needed \(naive times are ambiguous\)$"
    ):
        utc_text(datetime(2026, 10, 25, 0, 30))


def test_pages_encoded_into_one_collection_keep_every_post_and_the_first_copy() -> None:
    # The sync encodes each page into the same rows as it arrives and keeps only that dict.
    rows = encode_posts([make_post("a", content="first"), make_post("b")])
    returned = encode_posts([make_post("a", content="second"), make_post("c")], rows)
    assert returned is rows
    assert sorted(rows) == ["a", "b", "c"]
    assert rows["a"] == encode_post(make_post("a", content="first"))


def test_a_read_after_the_cache_was_closed_is_a_cache_error(tmp_path: Path) -> None:
    # A late read after a workspace switch: the caller handles a CacheError, nothing else.
    cache = WorkspaceCache(tmp_path / "c.sqlite3")
    cache.close()
    with pytest.raises(
        CacheError, match=r"^Cannot read the local cache .*closed database"
    ) as caught:
        cache.post_ids()
    assert not cache.damage_seen
    assert str(caught.value).endswith("closed database.")  # one full stop, not two


@pytest.fixture
def ascii_locale() -> Iterator[None]:
    """The locale of a system set up without UTF-8 (the text files must not depend on it)."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


@pytest.mark.usefixtures("ascii_locale")
def test_the_private_log_is_written_in_utf8_whatever_the_locale(tmp_path: Path) -> None:
    path = tmp_path / "crash.log"
    line = "Traceback naming «Café ✓.png»\n"
    with open_private_append(path) as handle:
        handle.write(line)
    with open_private_append(path) as handle:
        handle.write(line)
    assert path.read_bytes() == (line * 2).encode("utf-8")
    assert path.stat().st_mode & 0o777 == PRIVATE_MODE

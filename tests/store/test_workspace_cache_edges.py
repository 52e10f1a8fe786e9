"""Light refreshes of the cache at their edges (issue 18 §2): what the defaults mean (pages from
the top of the list, pruned), pages from the middle of the list, and the user's own edits made
while a refresh was reading the server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.models import Post
from app.store import CacheError, WorkspaceCache
from tests.store.factories import make_post


def _on(day: int) -> str:
    return f"2026-03-{day:02d} 09:00:00"


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    """Posts on March 1..10 plus an undated draft."""
    with WorkspaceCache(tmp_path / "workspace.sqlite3") as opened:
        posts = [make_post(f"d{day}", scheduled_at=_on(day)) for day in range(1, 11)]
        opened.replace_all_posts([*posts, make_post("draft", scheduled_at=None, status="draft")])
        yield opened


def _pages(*days: int) -> list[Post]:
    return [make_post(f"d{day}", scheduled_at=_on(day)) for day in days]


def test_by_default_pages_are_the_top_of_the_list_and_prune_below_it(
    cache: WorkspaceCache,
) -> None:
    # From the top: everything later than the earliest time read was on the pages.
    assert cache.window_misses(_pages(10, 6)) == {"d7", "d8", "d9"}
    assert cache.window_misses(_pages(10, 6), from_top=False) == {"d7", "d8", "d9"}
    # Pages from the middle bound the window above too: d10 may sit on a page not read.
    assert cache.window_misses(_pages(9, 6), from_top=False) == {"d7", "d8"}
    assert cache.window_misses(_pages(9, 6)) == {"d7", "d8", "d10"}
    change = cache.merge_first_pages(_pages(9, 6))
    assert sorted(change.gone) == ["d10", "d7", "d8"]


def test_pages_from_the_middle_keep_what_lies_above_them(cache: WorkspaceCache) -> None:
    change = cache.merge_first_pages(_pages(9, 6), from_top=False)
    assert sorted(change.gone) == ["d7", "d8"]
    assert cache.post("d10") is not None


def test_the_async_defaults_are_the_same_as_the_plain_ones(cache: WorkspaceCache) -> None:
    change = asyncio.run(cache.merge_first_pages_async(_pages(9, 6)))
    # Pruned, from the top, not taken for the whole list (d1..d5 and the draft stay).
    assert sorted(change.gone) == ["d10", "d7", "d8"]
    assert sorted(cache.post_ids()) == ["d1", "d2", "d3", "d4", "d5", "d6", "d9", "draft"]


def test_an_edit_made_while_the_pages_were_read_is_not_undone(cache: WorkspaceCache) -> None:
    mark = cache.begin_refresh()
    cache.upsert_post(make_post("d8", scheduled_at=_on(8), content="edited meanwhile"))
    cache.delete_post("d7")
    cache.upsert_post(make_post("late", scheduled_at=_on(9), content="made meanwhile"))
    # The pages were read before those edits: they lack "late", hold d7 and the old d8.
    stale = [*_pages(10, 9, 7), make_post("d8", scheduled_at=_on(8), content="old")]
    change = cache.merge_first_pages(stale, since=mark)
    assert change.gone == ()
    assert [card.id for card in change.cards] == []
    edited = cache.post("d8")
    assert edited is not None
    assert edited.content == "edited meanwhile"
    assert cache.post("d7") is None
    assert cache.post("late") is not None


def test_posts_kept_on_purpose_are_neither_dropped_nor_overwritten(cache: WorkspaceCache) -> None:
    mark = cache.begin_refresh()
    cache.upsert_post(make_post("d9", scheduled_at=_on(9), content="edited meanwhile"))
    change = cache.merge_first_pages(
        [make_post("d8", scheduled_at=_on(8), content="server")], since=mark, keep={"d10"}
    )
    assert change.gone == ()  # d9: the user's edit; d10: listed but unreadable
    assert [card.id for card in change.cards] == ["d8"]
    edited = cache.post("d9")
    assert edited is not None
    assert edited.content == "edited meanwhile"


def test_a_refresh_retires_the_edits_made_before_its_mark(cache: WorkspaceCache) -> None:
    first = cache.begin_refresh()
    cache.upsert_post(make_post("d9", scheduled_at=_on(9), content="edited"))
    second = cache.begin_refresh()
    # The second refresh read the server after the edit: the edit is no longer protected ...
    cache.merge_first_pages(_pages(10, 9), since=second)
    # ... not even from a refresh whose mark is older (one refresh at a time).
    cache.merge_first_pages(_pages(10, 8), since=first)
    assert cache.post("d9") is None


def test_a_light_refresh_stamps_the_last_sync_but_not_the_last_full_one(
    cache: WorkspaceCache,
) -> None:
    full = cache.last_full_sync_at()
    cache.merge_first_pages(_pages(10))
    light = cache.last_sync_at()
    assert full is not None
    assert light is not None
    assert light >= full
    assert cache.last_full_sync_at() == full


def test_a_full_refresh_keeps_edits_made_while_it_read_and_stamps_both_times(
    cache: WorkspaceCache,
) -> None:
    cache.upsert_post(make_post("d1", scheduled_at=_on(1), content="an older edit"))
    cache.upsert_post(make_post("d2", scheduled_at=_on(2), content="an older edit"))
    mark = cache.begin_refresh()
    cache.upsert_post(make_post("d3", scheduled_at=_on(3), content="edited meanwhile"))
    before = cache.last_full_sync_at()
    change = cache.store_full_refresh([], [], _pages(4, 5), since=mark)
    edited = cache.post("d3")
    assert edited is not None
    assert edited.content == "edited meanwhile"
    assert sorted(change.gone) == ["d1", "d10", "d2", "d6", "d7", "d8", "d9", "draft"]
    after = cache.last_full_sync_at()
    assert before is not None
    assert after is not None
    assert after >= before
    assert cache.last_sync_at() == after


@pytest.mark.parametrize("refresh", ["replace_all_posts", "store_full_refresh"])
def test_a_full_refresh_retires_the_edits_made_before_its_mark(
    cache: WorkspaceCache, refresh: str
) -> None:
    first = cache.begin_refresh()
    cache.upsert_post(make_post("d9", scheduled_at=_on(9), content="edited"))
    second = cache.begin_refresh()
    everything = _pages(*range(1, 11))
    if refresh == "replace_all_posts":
        cache.replace_all_posts(everything, since=second)
        cache.replace_all_posts(_pages(1, 2), since=first)
    else:
        cache.store_full_refresh([], [], everything, since=second)
        cache.store_full_refresh([], [], _pages(1, 2), since=first)
    assert sorted(cache.post_ids()) == ["d1", "d2"]


def test_a_cache_in_folders_not_made_yet_is_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "workspaces" / "w1.sqlite3"
    with WorkspaceCache(path) as opened:
        assert opened.count_posts() == 0
    assert path.is_file()


def test_a_cache_that_cannot_be_opened_says_why_without_blaming_another_postdesk(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w1.sqlite3"
    path.mkdir()  # a folder where the file should be
    with pytest.raises(CacheError) as raised:
        WorkspaceCache(path)
    assert str(raised.value) == (
        f"Cannot open the local cache {path}: unable to open database file."
    )


def test_a_closed_cache_refuses_writes_in_words(tmp_path: Path) -> None:
    opened = WorkspaceCache(tmp_path / "w1.sqlite3")
    opened.close()
    with pytest.raises(CacheError) as raised:
        opened.upsert_post(make_post("p1"))
    assert str(raised.value) == "The local cache is closed."


def test_a_fixed_offset_zone_and_a_missing_creation_time_read_back_as_they_were(
    cache: WorkspaceCache,
) -> None:
    plus_two = timezone(timedelta(hours=2))
    cache.upsert_post(make_post("offset", server_tz=plus_two, scheduled_at=_on(12)))
    cache.upsert_post(make_post("undated", created_at=None))
    back = cache.post("offset")
    assert back is not None
    assert back.scheduled_at is not None
    assert back.scheduled_at.utcoffset() == timedelta(hours=2)
    assert back.scheduled_at == datetime(2026, 3, 12, 7, 0, tzinfo=UTC)
    undated = cache.post("undated")
    assert undated is not None
    assert undated.created_at is None


def test_a_file_name_the_system_refuses_is_a_cache_error(tmp_path: Path) -> None:
    path = tmp_path / ("w" * 300 + ".sqlite3")  # longer than any file system takes
    with pytest.raises(CacheError, match="Cannot open the local cache"):
        WorkspaceCache(path)

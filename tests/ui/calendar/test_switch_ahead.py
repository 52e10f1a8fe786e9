"""A switch to a month the page read ahead while it idled takes what it read, without reading
the source again; any change of the data in between (a write's answer, a reload) makes the
switch read it. On the real cache; not timed: the reads are counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from app.calendar.grid import ViewKind, visible_range
from app.store import WorkspaceCache
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory
from tests.ui.calendar.factories import make_post, utc


def counted_reads(cache: WorkspaceCache) -> list[Any]:
    reads: list[Any] = []
    original = cache.cards_between

    def read(start: Any, end: Any, **filters: Any) -> Any:
        reads.append((start, end))
        return original(start, end, **filters)

    cache.cards_between = read  # type: ignore[method-assign]
    return reads


def test_a_switch_to_a_month_read_ahead_reads_nothing(
    make_page: PageFactory, qtbot: QtBot, tmp_path: Path
) -> None:
    posts = [
        make_post(when=utc(2025, month, day, 9 + hour))
        for month in (9, 10, 11, 12)
        for day in range(1, 29)
        for hour in range(2)
    ]
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        cache.replace_all_posts(posts)
        page = make_page(source=cache)  # type: ignore[arg-type]
        qtbot.waitUntil(lambda: not page.loader.prefetch_pending(), timeout=10_000)
        reads = counted_reads(cache)

        page.go_next()
        assert reads == []  # November was read ahead
        november = visible_range(ViewKind.MONTH, TODAY.replace(month=11, day=1), BERLIN)
        times = [p.scheduled_at for p in posts if p.scheduled_at is not None]
        assert [e.card.calendar_at for e in page.loader.visible] == sorted(
            when for when in times if november[0] <= when < november[1]
        )
        qtbot.waitUntil(lambda: not page.loader.prefetch_pending(), timeout=10_000)

        # A write's answer meanwhile: what was read ahead may be out of date.
        moved = page.loader.visible[0].card
        late = make_post(when=utc(2025, 12, 3, 12), post_id=moved.id)
        cache.upsert_post(late)
        page.show_posts([late])
        reads.clear()
        page.go_next()
        assert reads  # December read again, with the moved post in it
        assert page.entry(moved.id) is not None

"""The head start on the neighbouring months comes in short slices (a week read, or a few chips
drawn, per turn of the event loop), not as one ~20 ms block that a sync's pages or the user's
input would wait behind; and a month switch afterwards draws no chip anew. On the real cache."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from app.calendar.grid import ViewKind, visible_range
from app.store import WorkspaceCache
from tests.ui.calendar.conftest import BERLIN, TODAY, PageFactory
from tests.ui.calendar.factories import make_post, utc
from ui.calendar.loader import PREFETCH_READ
from ui.calendar.month_view import CHIPS_PER_STEP


def test_the_neighbouring_months_are_prepared_in_short_slices(
    make_page: PageFactory, qtbot: QtBot, tmp_path: Path
) -> None:
    posts = [
        make_post(when=utc(2025, month, day, 8 + hour))
        for month in (9, 10, 11)
        for day in range(1, 29)
        for hour in range(3)
    ]
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        cache.replace_all_posts(posts)
        events: list[tuple[int, str, Any]] = []  # (slice, what, detail)
        turn = [0]
        inside = [False]
        reads = cache.cards_between

        def read(start: Any, end: Any, **filters: Any) -> Any:
            if inside[0]:
                events.append((turn[0], "read", end - start))
            return reads(start, end, **filters)

        cache.cards_between = read  # type: ignore[method-assign]
        page = make_page(source=cache)  # type: ignore[arg-type]
        loader = page.loader
        slices = loader._prefetch_slices

        def counted_slices() -> Iterator[None]:
            steps = slices()
            while True:
                inside[0] = True  # only what a slice does is counted, not the page's paints
                try:
                    step = next(steps)
                except StopIteration:
                    return
                finally:
                    inside[0] = False
                turn[0] += 1
                yield step

        loader._prefetch_slices = counted_slices  # type: ignore[method-assign]
        pixmaps = page.month_view._chip_pixmaps
        render = pixmaps._render

        def drawn(*args: Any) -> Any:
            events.append((turn[0], "chip", None) if inside[0] else (-1, "paint", None))
            return render(*args)

        pixmaps._render = drawn  # type: ignore[method-assign]
        events.clear()

        qtbot.waitUntil(lambda: turn[0] > 0 and not loader.prefetch_pending(), timeout=10_000)

        per_slice: dict[int, list[str]] = {}
        for number, what, _detail in events:
            if what != "paint":
                per_slice.setdefault(number, []).append(what)
        assert len(per_slice) > 4  # it did come in slices
        for what in per_slice.values():
            assert what.count("read") <= 1
            assert what.count("chip") <= CHIPS_PER_STEP
            assert not ("read" in what and "chip" in what)
        spans = [detail for _number, what, detail in events if what == "read"]
        assert all(span <= PREFETCH_READ for span in spans)
        november = visible_range(ViewKind.MONTH, TODAY.replace(month=11, day=1), BERLIN)
        september = visible_range(ViewKind.MONTH, TODAY.replace(month=9, day=1), BERLIN)
        covered = november[1] - november[0] + september[1] - september[0]
        assert sum(spans, timedelta()) == covered  # both neighbours, whole
        chips = sum(1 for _number, what, _detail in events if what == "chip")
        assert chips > 2 * CHIPS_PER_STEP

        events.clear()
        page.go_next()
        page.month_view.repaint()
        assert [what for _number, what, _detail in events if what in ("chip", "paint")] == []

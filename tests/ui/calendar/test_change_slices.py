"""A sync's big change (a first sync into an empty cache) is read and drawn in bounded slices,
the period's chips first, and ends with the very picture an unsliced reload shows (issue 14 §8).
On the real cache; not timed: the bounds are counted (reads, their span, chips drawn)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.store import WorkspaceCache
from tests.ui.calendar.conftest import PageFactory
from tests.ui.calendar.factories import accounts, labels, make_post, utc
from ui.calendar.loader import PREFETCH_READ
from ui.calendar.month_view import CHIPS_PER_STEP
from ui.calendar.page import CalendarPage

NETWORKS = ("linkedin", "x", "instagram-facebook", "x-second")


def a_workspace() -> list[Any]:
    dated = [
        make_post(when=utc(2025, 10, day, 6 + hour), account=NETWORKS[(day + hour) % 4])
        for day in range(1, 32)
        for hour in range(0, 12, 2)
    ]
    drafts = [make_post(when=None, status="draft", account=NETWORKS[n % 4]) for n in range(30)]
    return dated + drafts


def picture(widget: QWidget) -> QImage:
    widget.repaint()
    return widget.grab().toImage()


def observe(page: CalendarPage, cache: WorkspaceCache) -> list[tuple[int, str, Any]]:
    """(slice, what, detail) for what each slice of the page's refresh does: reads of the
    cache (their span), chips drawn ahead, the month and the tray shown; chips drawn by a
    paint outside the slices are (-1, "paint")."""
    events: list[tuple[int, str, Any]] = []
    turn = [0]
    inside = [False]
    reads = cache.cards_between

    def read(start: Any, end: Any, **filters: Any) -> Any:
        if inside[0]:
            events.append((turn[0], "read", end - start))
        return reads(start, end, **filters)

    cache.cards_between = read  # type: ignore[method-assign]
    slices = page._refresh_slices

    def counted_slices() -> Iterator[None]:
        steps = slices()
        while True:
            inside[0] = True  # only what a slice does is counted, not the paints between
            try:
                step = next(steps)
            except StopIteration:
                return
            finally:
                inside[0] = False
            turn[0] += 1
            yield step

    page._refresh_slices = counted_slices  # type: ignore[method-assign]
    pixmaps = page.month_view._chip_pixmaps
    render = pixmaps._render

    def drawn(*args: Any) -> Any:
        events.append((turn[0], "chip", None) if inside[0] else (-1, "paint", None))
        return render(*args)

    pixmaps._render = drawn  # type: ignore[method-assign, assignment]
    month_entries = page.month_view.set_entries

    def month_shown(entries: Any) -> None:
        events.append((turn[0], "month", len(entries)))
        month_entries(entries)

    page.month_view.set_entries = month_shown  # type: ignore[method-assign]
    tray_entries = page.tray.show_entries

    def tray_shown(entries: Any) -> None:
        events.append((turn[0], "tray", len(entries)))
        tray_entries(entries)

    page.tray.show_entries = tray_shown  # type: ignore[method-assign]
    return events


def test_a_first_sync_is_drawn_in_bounded_slices_and_ends_as_a_reload(
    make_page: PageFactory, qtbot: QtBot, tmp_path: Path
) -> None:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        page = make_page(source=cache)  # type: ignore[arg-type]
        qtbot.waitUntil(lambda: not page.loader.prefetch_pending(), timeout=10_000)
        assert page.loader.visible == []
        empty = picture(page.month_view)
        events = observe(page, cache)

        change = cache.store_full_refresh(accounts(), labels(), a_workspace())
        page.show_change(change)  # the first slice runs at once: the filter's choices
        assert page.refresh_pending()
        assert page.filter_bar.account_combo.count() > 1
        assert page.loader.visible == []  # until the period is shown, the state before it
        assert picture(page.month_view) == empty
        qtbot.waitUntil(lambda: not page.refresh_pending(), timeout=10_000)

        per_slice: dict[int, list[str]] = {}
        for number, what, _detail in events:
            if what != "paint":
                per_slice.setdefault(number, []).append(what)
        assert len(per_slice) > 8  # it did come in slices
        for kinds in per_slice.values():
            assert kinds.count("read") <= 1
            assert kinds.count("chip") <= CHIPS_PER_STEP
            assert not ("read" in kinds and "chip" in kinds)
        spans = [detail for _number, what, detail in events if what == "read"]
        assert spans
        assert all(span <= PREFETCH_READ for span in spans)
        chips = [number for number, what, _detail in events if what == "chip"]
        assert len(chips) > 2 * CHIPS_PER_STEP
        # The period's chips first: all drawn ahead, then the month shown, then the tray.
        [month_turn] = [number for number, what, _detail in events if what == "month"]
        [tray_turn] = [number for number, what, _detail in events if what == "tray"]
        assert max(chips) < month_turn < tray_turn
        sliced = picture(page.month_view)
        assert [what for _number, what, _detail in events if what == "paint"] == []

        # The same picture and state as an unsliced reload of the same cache.
        other = make_page(source=cache)  # type: ignore[arg-type]
        other.reload()
        assert picture(other.month_view) == sliced
        assert sliced != empty
        assert [e.id for e in other.loader.visible] == [e.id for e in page.loader.visible]
        assert [e.id for e in other.loader.drafts] == [e.id for e in page.loader.drafts]
        assert page.tray.title.text() == other.tray.title.text() == "Unscheduled (30)"
        combo = page.filter_bar.account_combo
        assert [combo.itemText(i) for i in range(combo.count())] == [
            other.filter_bar.account_combo.itemText(i)
            for i in range(other.filter_bar.account_combo.count())
        ]


def test_a_reload_or_a_write_during_the_slices_shows_everything_at_once(
    make_page: PageFactory, qtbot: QtBot, tmp_path: Path
) -> None:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        page = make_page(source=cache)  # type: ignore[arg-type]
        posts = a_workspace()
        page.show_change(cache.store_full_refresh(accounts(), labels(), posts))
        assert page.refresh_pending()
        page.show_posts([])  # a write's answer meanwhile: the source is read whole, now
        assert not page.refresh_pending()
        assert len(page.loader.visible) == len(posts) - 30
        assert len(page.loader.drafts) == 30

        page.show_change(cache.store_full_refresh(accounts(), labels(), a_workspace()[:-1]))
        assert page.refresh_pending()
        page.go_next()  # another period meanwhile: read whole, drafts too
        assert not page.refresh_pending()
        assert len(page.loader.drafts) == 29


def test_a_small_change_during_the_slices_starts_them_over(
    make_page: PageFactory, qtbot: QtBot, tmp_path: Path
) -> None:
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        page = make_page(source=cache)  # type: ignore[arg-type]
        posts = a_workspace()
        page.show_change(cache.store_full_refresh(accounts(), labels(), posts))
        for _ in range(3):  # a few slices in: the first weeks are read already
            page._refresh_slice()
        moved = posts[0]
        later = make_post(when=utc(2025, 10, 30, 12), post_id=moved.id)
        small = cache.store_full_refresh(accounts(), labels(), [later, *posts[1:]])
        assert len(small.cards) == 1
        page.show_change(small)
        assert page.refresh_pending()
        qtbot.waitUntil(lambda: not page.refresh_pending(), timeout=10_000)
        entry = page.entry(moved.id)
        assert entry is not None
        assert entry.card.calendar_at == utc(2025, 10, 30, 12)

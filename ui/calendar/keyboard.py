"""Moving the selection and the selected post with the keyboard.

Arrows walk the shown posts: in the month, Up/Down go to the previous/next post in time (within
the day first) and Left/Right to the nearest day before/after that has posts; in the week,
Left/Right go to the neighbouring day column's post nearest in time of day, Up/Down along the
column; in the agenda, Up/Down go row to row. Alt+arrows move the selected post itself: a day,
or 15 minutes in the week view; each is one reschedule through the same path as a drag (same
refusals, undo)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Protocol

from ui.calendar.drag import DropTarget
from ui.calendar.entries import Entry

NUDGE_MINUTES = 15
DAY_MINUTES = 24 * 60


def ordered(entries: list[Entry], days: list[date]) -> list[Entry]:
    """The dated posts shown on `days`, earliest first (ties by id: a stable walk)."""
    shown = set(days)
    dated = [entry for entry in entries if entry.local is not None and entry.day in shown]
    return sorted(dated, key=lambda entry: (entry.local, entry.id))


def step_in_time(posts: list[Entry], current: str | None, step: int) -> str | None:
    """The post `step` (±1) places from `current` in time order; the first or last when no
    post is selected; `current` itself at either end."""
    if not posts:
        return None
    ids = [entry.id for entry in posts]
    if current not in ids:
        return ids[0] if step > 0 else ids[-1]
    index = ids.index(current) + step
    return ids[min(max(index, 0), len(ids) - 1)]


def step_in_column(posts: list[Entry], current: str | None, step: int) -> str | None:
    """Up/Down in the week: the previous/next post of the same day (it stays at the ends)."""
    selected = _find(posts, current)
    if selected is None:
        return step_in_time(posts, None, step)
    same_day = [entry for entry in posts if entry.day == selected.day]
    return step_in_time(same_day, current, step)


def step_across_days(posts: list[Entry], current: str | None, step: int) -> str | None:
    """Left/Right: the nearest day before/after the selected post's day that has posts, and
    on it the post nearest in time of day."""
    selected = _find(posts, current)
    if selected is None:
        return step_in_time(posts, None, step)
    days = sorted({entry.day for entry in posts if entry.day is not None})
    assert selected.day is not None
    later = [day for day in days if (day > selected.day if step > 0 else day < selected.day)]
    if not later:
        return selected.id
    target_day = later[0] if step > 0 else later[-1]
    on_day = [entry for entry in posts if entry.day == target_day]
    return min(on_day, key=lambda entry: abs(entry.minutes - selected.minutes)).id


def _find(posts: list[Entry], post_id: str | None) -> Entry | None:
    return next((entry for entry in posts if entry.id == post_id), None)


def nudged_target(entry: Entry, days: int = 0, minutes: int = 0) -> DropTarget | None:
    """Where Alt+arrow puts `entry`: `days` later keeping its time, or `minutes` later (a day
    boundary crossed as the clock says). None for an undated post."""
    if entry.day is None:
        return None
    if minutes == 0:
        return DropTarget(entry.day + timedelta(days=days))
    total = entry.minutes + minutes
    day = entry.day + timedelta(days=days + total // DAY_MINUTES)
    return DropTarget(day, total % DAY_MINUTES)


class Walked(Protocol):
    """What the walk needs of the calendar page (not the page itself: no import circle)."""

    def posts_in_order(self) -> list[Entry]: ...
    def selected_post_id(self) -> str | None: ...
    def select_and_reveal(self, post_id: str) -> None: ...
    def entry(self, post_id: str) -> Entry | None: ...
    def current_view(self) -> str: ...
    def move_post(self, post_id: str, target: DropTarget) -> None: ...
    def move_picked(self, days: int, minutes: int) -> bool: ...


class KeyboardWalk:
    """The calendar page's arrow and Alt+arrow commands (bound in `ui.calendar.commands`)."""

    def __init__(self, page: Walked) -> None:
        self._page = page

    def _posts(self) -> list[Entry]:
        return self._page.posts_in_order()

    def _select(self, post_id: str | None) -> None:
        if post_id is not None:
            self._page.select_and_reveal(post_id)

    def up(self) -> None:
        self._vertical(-1)

    def down(self) -> None:
        self._vertical(1)

    def left(self) -> None:
        self._horizontal(-1)

    def right(self) -> None:
        self._horizontal(1)

    def _vertical(self, step: int) -> None:
        page, posts = self._page, self._posts()
        current = page.selected_post_id()
        if page.current_view() == "week":
            self._select(step_in_column(posts, current, step))
        else:  # month and agenda: along time, within the day first
            self._select(step_in_time(posts, current, step))

    def _horizontal(self, step: int) -> None:
        page = self._page
        self._select(step_across_days(self._posts(), page.selected_post_id(), step))

    def move_days(self, days: int) -> None:
        self._move(days=days)

    def move_minutes(self, minutes: int) -> None:
        if self._page.current_view() == "week":
            self._move(minutes=minutes)

    def _move(self, days: int = 0, minutes: int = 0) -> None:
        page = self._page
        if page.move_picked(days, minutes):  # several posts picked: all of them, one question
            return
        post_id = page.selected_post_id()
        entry = page.entry(post_id) if post_id is not None else None
        if entry is None:
            return
        target = nudged_target(entry, days, minutes)
        if target is not None:
            page.move_post(entry.id, target)  # the drop's path: refusals, one write, undo

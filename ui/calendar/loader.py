"""What the calendar shows, read from its source: the period's posts, the tray's, the filter's
choices, and a head start on the neighbouring periods while the page idles.

The loader reads and keeps entries; it paints nothing. The page asks it to read (or to apply a
write's answer) and then hands the result to the widgets.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime, timedelta, tzinfo
from typing import NamedTuple

from PySide6.QtCore import QObject, QTimer

from app.calendar.grid import ViewKind, shift_anchor, visible_range
from app.calendar.post_card import AccountChoice, CardLabel, PostCard
from ui.calendar.entries import Entry, EntryCache
from ui.calendar.source import CalendarSource
from ui.calendar.state import CalendarState

PREFETCH_DELAY_MS = 150
PREFETCH_SLICE_GAP_MS = 10
"""Between two slices of the head start: the GUI thread's events (a sync's pages, the user's
input) come in between, so none waits behind a whole month (~20 ms read and drawn at once)."""
PREFETCH_READ = timedelta(days=7)
"""One slice reads a week of the neighbouring period (~250 cards of a dense month, ~1.5 ms)."""

Choices = tuple[list[AccountChoice], list[CardLabel]]


class CardChange(NamedTuple):
    """What a write's answer changed: entries that left the shown period, entries that joined
    it, and whether the tray was read again."""

    removed: list[Entry]
    added: list[Entry]
    tray_changed: bool


def _shown_at(entry: Entry) -> datetime:
    shown_at = entry.card.calendar_at
    assert shown_at is not None  # the shown period's posts all have a place on the calendar
    return shown_at


class CalendarLoader(QObject):
    def __init__(
        self,
        source: CalendarSource,
        state: CalendarState,
        tz: tzinfo,
        prepare_month: Callable[[date, list[Entry]], Iterable[None]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.source = source
        self._state = state
        self._tz = tz
        self._prepare_month = prepare_month
        self.entry_cache = EntryCache(tz)
        self.visible: list[Entry] = []
        self.drafts: list[Entry] = []
        self.entries: dict[str, Entry] = {}
        self._loaded_range: tuple[datetime, datetime] | None = None
        self._choices: Choices | None = None
        # Reads the periods before and after the shown one once the page is idle, so the next
        # switch finds their posts parsed (a month of ~1,100 cards takes ~10 ms to read first)
        # and, for months, their chips drawn: in slices of a few ms (`_prefetch_slice`).
        self._prefetch: Iterator[None] | None = None
        # What the head start read, by period and filter: a switch to that period takes it
        # instead of reading the source again (~1,100 cards of a dense month: 5-10 ms, 15-30 ms
        # on a slow machine). Any change of the data (a reload, a write's answer, a sync's
        # change, another source) drops it: `_generation` tells a head start under way.
        self._ahead: dict[tuple[ViewKind, datetime, datetime, object], list[Entry]] = {}
        self._generation = 0
        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.timeout.connect(self._prefetch_slice)

    def set_source(self, source: CalendarSource) -> None:
        self.source = source
        self._prefetch_timer.stop()
        self._prefetch = None
        self._forget_ahead()
        self.entry_cache.clear()

    def _forget_ahead(self) -> None:
        self._ahead.clear()
        self._generation += 1

    def period(self) -> tuple[datetime, datetime]:
        return visible_range(self._state.view, self._state.anchor, self._tz)

    def read_choices(self) -> Choices | None:
        """The accounts and labels to filter by, or None when they did not change (refilling
        the filter lists re-lays out and repaints the page)."""
        choices = (self.source.account_choices(), self.source.label_choices())
        if choices == self._choices:
            return None
        self._choices = choices
        return choices

    def read(self, *, whole: bool) -> bool:
        """Read what is shown; True when that is another period than last time.

        `whole=False` (another period, same data): the tray's posts and the sync mark do not
        depend on the period, so only the period's posts are read."""
        start, end = self.period()
        wanted = self._state.filter
        if whole:
            # Before reading: a read that fails must not leave the old head start to be shown.
            self._forget_ahead()
        ahead = None if whole else self._ahead.get((self._state.view, start, end, wanted))
        if ahead is not None:
            return self.take(ahead, whole=False)
        visible = self.entry_cache.entries(wanted.apply(self.source.cards_between(start, end)))
        return self.take(visible, whole=whole)

    def read_parts(self) -> Iterator[list[Entry]]:
        """The shown period's entries a week at a time, earliest first (`read` in slices: a
        week of a dense month is ~250 cards, a few ms); `take` what they add up to."""
        start, end = self.period()
        wanted = self._state.filter
        while start < end:
            stop = min(start + PREFETCH_READ, end)
            yield self.entry_cache.entries(wanted.apply(self.source.cards_between(start, stop)))
            start = stop

    def take(self, visible: list[Entry], *, whole: bool = True) -> bool:
        """The period's entries as read (`read`, or `read_parts` added up), with the tray's and
        the sync mark when `whole`; True when that is another period than last time."""
        start, end = self.period()
        self.visible = visible
        if whole:
            self._forget_ahead()  # the data may have changed since the head start read it
            self._read_drafts()
            self.read_sync_mark()
        self.entries = {entry.id: entry for entry in [*self.drafts, *self.visible]}
        if self._loaded_range != (start, end):
            self._loaded_range = (start, end)
            self._prefetch = None  # the old neighbours' slices are not wanted any more
            self._prefetch_timer.start(PREFETCH_DELAY_MS)
            return True
        return False

    def apply(self, cards: list[PostCard], gone: Iterable[str]) -> CardChange:
        """A write's answer (`cards`) and deleted posts (`gone`), without reading the period."""
        self._forget_ahead()
        changed = {card.id for card in cards} | set(gone)
        start, end = self.period()
        removed = [self.entries[post_id] for post_id in changed if post_id in self.entries]
        tray_changed = any(entry.local is None for entry in removed)
        added: list[Entry] = []
        for entry in self.entry_cache.entries(self._state.filter.apply(cards)):
            shown_at = entry.card.calendar_at
            if shown_at is None:
                tray_changed = True
            elif start <= shown_at < end:
                added.append(entry)
        visible = [entry for entry in self.visible if entry.card.id not in changed]
        for entry in added:
            bisect.insort(visible, entry, key=_shown_at)
        self.visible = visible
        if tray_changed:  # its order (newest first) is the source's: one small read
            self._read_drafts()
        for entry in removed:
            del self.entries[entry.id]
        if tray_changed:
            self.entries = {entry.id: entry for entry in [*self.drafts, *self.visible]}
        else:
            self.entries.update((entry.id, entry) for entry in added)
        return CardChange(removed, added, tray_changed)

    def _read_drafts(self) -> None:
        wanted = self._state.filter
        self.drafts = self.entry_cache.entries(wanted.apply(self.source.unscheduled_cards()))

    def read_sync_mark(self) -> None:
        """A cache knows whether a sync ever filled it; a source without that says nothing."""
        last_sync = getattr(self.source, "last_sync_at", None)
        if callable(last_sync):
            self._state.never_synced = last_sync() is None

    def prefetch_pending(self) -> bool:
        """Whether a head start on the neighbouring periods is queued or under way."""
        return self._prefetch_timer.isActive()

    def prefetch_again(self) -> None:
        """The data changed much (a sync): the neighbours' head start is made anew."""
        self._prefetch = None
        self._prefetch_timer.start(PREFETCH_DELAY_MS)

    def _prefetch_slice(self) -> None:
        """One slice of the head start (a week read, the entries made, or a few chips drawn);
        the next one is queued after a short gap."""
        if self._prefetch is None:
            self._prefetch = self._prefetch_slices()
        try:
            next(self._prefetch)
        except StopIteration:
            self._prefetch = None
            return
        except Exception:
            # Only a head start: a source that cannot be read now (a workspace closing)
            # says so at the next real reload, with the page's own error path.
            self._prefetch = None
            return
        self._prefetch_timer.start(PREFETCH_SLICE_GAP_MS)

    def _prefetch_slices(self) -> Iterator[None]:
        view, anchor, wanted = self._state.view, self._state.anchor, self._state.filter
        generation = self._generation
        self._ahead.clear()  # the periods around the shown one only
        for step in (1, -1):
            neighbour = shift_anchor(view, anchor, step)
            first, end = visible_range(view, neighbour, self._tz)
            start = first
            cards: list[PostCard] = []
            while start < end:
                cards += self.source.cards_between(start, min(start + PREFETCH_READ, end))
                start += PREFETCH_READ
                yield
            entries = self.entry_cache.entries(wanted.apply(cards))
            if generation == self._generation:  # no change of the data while it read
                self._ahead[(view, first, end, wanted)] = entries
            if view is ViewKind.MONTH:
                yield
                yield from self._prepare_month(neighbour, entries)
            yield

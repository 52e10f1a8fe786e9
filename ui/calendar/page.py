"""The calendar page: a thin controller between `CalendarState`, the source and the widgets.

The page never calls the API. It reads posts from a `CalendarSource`, and every change the user
asks for leaves as a signal; the shell performs it and calls `reload()` (and `set_busy()` while
the write is in flight). Day boundaries and times are computed in the display time zone
(`app.calendar.grid`), so DST days and zones far from the server's come out right.

What is shown (view, anchor, filter, selection, busy posts) lives in `self.state`; widgets
follow its signals. The week and agenda views, the detail panel and the "+N more" popup are
built the first time they are needed, so the first paint builds only the month.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING

from PySide6.QtCore import QMetaMethod, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCursor, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app.calendar.grid import (
    ViewKind,
    move_to_day,
    shift_anchor,
    slot_instant,
    visible_dates,
    visible_range,
)
from app.calendar.post_card import AccountChoice, CardLabel, PostCard, card_of
from app.domain.enums import PostStatus
from app.posts.lifecycle import PostAction, action_text, is_in_future
from ui.action_spec import ActionSpec
from ui.calendar.commands import calendar_specs
from ui.calendar.day_popup import DayPopup
from ui.calendar.drag import DropTarget
from ui.calendar.empty_state import EmptyState
from ui.calendar.entries import Entry, EntryCache
from ui.calendar.filter_bar import FilterBar
from ui.calendar.filters import PostFilter
from ui.calendar.legend import StatusLegend
from ui.calendar.month_view import MonthView
from ui.calendar.post_list import agenda_rows
from ui.calendar.post_list_view import PostListView
from ui.calendar.source import CalendarSource
from ui.calendar.state import CalendarState
from ui.calendar.style import PAGE_STYLE
from ui.calendar.timezone import system_time_zone
from ui.calendar.toolbar import CalendarToolbar, action_button
from ui.calendar.tray import TrayPanel

if TYPE_CHECKING:
    from app.models import Post
    from ui.calendar.detail_panel import PostDetailPanel
    from ui.calendar.reschedule_dialog import RescheduleDialog
    from ui.calendar.week_view import WeekView
    from ui.session import WorkspaceSession

UNDATED_DROP_MINUTES = 9 * 60
"""Time of day given to an undated draft dropped on a month day (no time is implied there)."""
NARROW_PAGE = 1120
"""Below this width the tray makes room while the detail panel is open."""
NOW_LINE_TICK_MS = 30_000
PREFETCH_DELAY_MS = 150
PREFETCH_GAP_MS = 30


def period_titles(view: ViewKind, days: list[date], anchor: date) -> list[str]:
    """The period's title, longest form first (the toolbar shows the longest that fits)."""
    if view is ViewKind.MONTH:
        return [anchor.strftime("%B %Y"), anchor.strftime("%b %Y")]
    first, last = days[0], days[-1]
    if first.year != last.year:
        return [
            f"{first.day} {first:%B %Y} – {last.day} {last:%B %Y}",
            f"{first.day} {first:%b %Y} – {last.day} {last:%b %Y}",
            f"{first.day}.{first.month}.{first:%y} – {last.day}.{last.month}.{last:%y}",
        ]
    if first.month != last.month:
        return [
            f"{first.day} {first:%B} – {last.day} {last:%B %Y}",
            f"{first.day} {first:%b} – {last.day} {last:%b %Y}",
        ]
    return [f"{first.day} – {last.day} {last:%B %Y}", f"{first.day}–{last.day} {last:%b %Y}"]


def period_title(view: ViewKind, days: list[date], anchor: date) -> str:
    return period_titles(view, days, anchor)[0]


def _shown_at(entry: Entry) -> datetime:
    shown_at = entry.card.calendar_at
    assert shown_at is not None  # the shown period's posts all have a place on the calendar
    return shown_at


def next_full_hour(now: datetime, tz: tzinfo) -> datetime:
    local = now.astimezone(tz)
    return (local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)).astimezone(UTC)


class CalendarPage(QWidget):
    rescheduleRequested = Signal(str, object)  # post id, aware datetime (UTC)
    scheduleRequested = Signal(str, object)  # post id, aware datetime (UTC): draft → scheduled
    publishNowRequested = Signal(str)  # only after the user confirmed
    moveToDraftRequested = Signal(str)  # scheduled or failed → draft
    unscheduleRequested = Signal(str)  # older name of the above; see _move_to_draft
    editRequested = Signal(str)
    duplicateRequested = Signal(str)
    deleteRequested = Signal(str)  # only after the user confirmed
    newPostRequested = Signal(object)  # date
    postSelected = Signal(str)
    visibleRangeChanged = Signal(object, object)  # start, end (aware UTC datetimes)

    def __init__(
        self,
        source: CalendarSource,
        *,
        display_tz: tzinfo | None = None,
        today: Callable[[], date] | None = None,
        now: Callable[[], datetime] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("calendarPage")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(PAGE_STYLE)
        self._source = source
        self._tz: tzinfo = display_tz if display_tz is not None else system_time_zone()
        if now is None and today is not None:
            # A fixed day without a clock: the clock stands at the start of that day.
            fixed_day = today
            now = lambda: datetime.combine(fixed_day(), time(0), self._tz)  # noqa: E731
        self._now: Callable[[], datetime] = now or (lambda: datetime.now(UTC))
        self._today: Callable[[], date] = today or (lambda: self._now().astimezone(self._tz).date())
        self.state = CalendarState(self._today(), self)
        self._entries: dict[str, Entry] = {}
        self._entry_cache = EntryCache(self._tz)
        self._visible: list[Entry] = []
        self._drafts: list[Entry] = []
        self._scroll_week = True
        self._loaded_range: tuple[datetime, datetime] | None = None
        self._choices: tuple[list[AccountChoice], list[CardLabel]] | None = None
        self._delete_box: QMessageBox | None = None
        self._publish_box: QMessageBox | None = None
        self._reschedule_dialog: RescheduleDialog | None = None
        self._week_view: WeekView | None = None
        self._agenda_view: PostListView | None = None
        self._detail: PostDetailPanel | None = None
        self._day_popup: DayPopup | None = None
        self._registry_keys = False

        self._build_actions()
        self._build_widgets()
        self._connect()
        self.reload()

    # -- construction ----------------------------------------------------------------------
    def _action(
        self,
        text: str,
        shortcuts: list[QKeySequence | QKeySequence.StandardKey | str] | None,
        slot: Callable[[], object],
        *,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcuts:
            action.setShortcuts([QKeySequence(key) for key in shortcuts])
        # Single-letter shortcuts must only fire while the calendar has focus.
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        if tip:
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        key = Qt.Key
        mod = Qt.KeyboardModifier
        self.action_today = self._action("Today", ["T"], self.go_today, tip="Go to today (T)")
        self.action_previous = self._action(
            "Previous",
            [QKeySequence(mod.ControlModifier | key.Key_Left), QKeySequence(key.Key_PageUp)],
            self.go_previous,
            tip="Previous period (Ctrl+Left, PgUp)",
        )
        self.action_next = self._action(
            "Next",
            [QKeySequence(mod.ControlModifier | key.Key_Right), QKeySequence(key.Key_PageDown)],
            self.go_next,
            tip="Next period (Ctrl+Right, PgDown)",
        )
        self.action_month = self._action(
            "Month", ["M"], lambda: self.set_view("month"), tip="Month view (M)"
        )
        self.action_week = self._action(
            "Week", ["W"], lambda: self.set_view("week"), tip="Week view (W)"
        )
        self.action_agenda = self._action(
            "Agenda", ["A"], lambda: self.set_view("agenda"), tip="Agenda view (A)"
        )
        self._view_group = QActionGroup(self)
        self._view_group.setExclusive(True)
        for action in (self.action_month, self.action_week, self.action_agenda):
            action.setCheckable(True)
            self._view_group.addAction(action)
        self.action_month.setChecked(True)
        self.action_jump = self._action("Jump to date…", ["Ctrl+G"], self.focus_jump_to_date)
        self.action_open = self._action(
            "Open details",
            [QKeySequence(key.Key_Return), QKeySequence(key.Key_Enter)],
            self.open_detail,
        )
        self.action_tray = self._action(
            "Unscheduled", None, self._toggle_tray, tip="Show or hide the posts without a date"
        )
        self.action_tray.setCheckable(True)
        self.action_tray.setChecked(True)
        self.action_new = self._action("New post", None, self._new_post_here)
        self.action_schedule = self._action("Schedule", None, self._schedule)
        self.action_reschedule = self._action("Reschedule…", None, self._reschedule)
        self.action_publish = self._action("Publish now…", None, self.request_publish_now)
        self.action_move_to_draft = self._action("Move back to draft", None, self._move_to_draft)
        self.action_edit = self._action("Edit", None, self._edit)
        self.action_duplicate = self._action("Duplicate", None, self._duplicate)
        self.action_delete = self._action(
            "Delete…", [QKeySequence(key.Key_Delete)], self.request_delete
        )
        self.post_actions: dict[PostAction, QAction] = {
            PostAction.SCHEDULE: self.action_schedule,
            PostAction.EDIT: self.action_edit,
            PostAction.RESCHEDULE: self.action_reschedule,
            PostAction.PUBLISH_NOW: self.action_publish,
            PostAction.MOVE_TO_DRAFT: self.action_move_to_draft,
            PostAction.DUPLICATE: self.action_duplicate,
            PostAction.DELETE: self.action_delete,
        }

    def navigation_actions(self) -> list[QAction]:
        return [self.action_today, self.action_previous, self.action_next, self.action_jump]

    def view_actions(self) -> list[QAction]:
        return [self.action_month, self.action_week, self.action_agenda, self.action_tray]

    def post_action_list(self) -> list[QAction]:
        return [self.action_open, *self.post_actions.values()]

    def action_specs(self) -> list[ActionSpec]:
        """The calendar's commands for the shell's registry, scoped to the calendar page.

        The registry binds the keys from then on, window-wide: the page's own QActions give
        theirs up here, or each key would be bound twice (an ambiguous shortcut fires neither).
        """
        self._hand_keys_to_registry()
        return calendar_specs(self)

    def _hand_keys_to_registry(self) -> None:
        if self._registry_keys:
            return
        self._registry_keys = True
        for action in self.actions():
            action.setShortcuts([])

    def _build_widgets(self) -> None:
        self.toolbar = CalendarToolbar(
            today=self.action_today,
            previous=self.action_previous,
            following=self.action_next,
            views=[self.action_month, self.action_week, self.action_agenda],
        )
        self.filter_bar = FilterBar()
        self.tray_button = action_button(self.action_tray, "trayToggle")
        filter_row = QHBoxLayout()
        filter_row.setContentsMargins(0, 0, 0, 0)
        filter_row.setSpacing(10)
        filter_row.addWidget(self.tray_button)
        filter_row.addWidget(self.filter_bar, 1)
        self.month_view = MonthView()
        self.stack = QStackedWidget()
        self.stack.setObjectName("calendarViews")
        self.stack.addWidget(self.month_view)
        self.empty_state = EmptyState(self.stack)
        self.legend = StatusLegend()

        self.tray = TrayPanel(self._today)
        self.tray_list = self.tray.list
        self.tray_title = self.tray.title
        self.tray_empty = self.tray.empty

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("calendarSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tray)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([210, 900])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 8)
        layout.setSpacing(8)
        layout.addWidget(self.toolbar)
        layout.addLayout(filter_row)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.legend)

        # Reads the periods before and after the shown one once the page is idle, so the next
        # switch finds their posts parsed (a month of ~1,100 cards takes ~10 ms to read first).
        self._prefetch_steps: list[int] = []
        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.setInterval(PREFETCH_DELAY_MS)
        self._prefetch_timer.timeout.connect(self._prefetch_neighbours)
        self._now_timer = QTimer(self)
        self._now_timer.setInterval(NOW_LINE_TICK_MS)
        self._now_timer.timeout.connect(self._update_now_line)

    def _connect(self) -> None:
        self.toolbar.dateChosen.connect(self.go_to)
        self.filter_bar.filterChanged.connect(self._filter_chosen)
        self._connect_post_view(self.month_view)
        self._connect_post_view(self.tray_list)
        self._connect_grid(self.month_view)
        self.month_view.moreClicked.connect(self.show_more)
        self.empty_state.actionClicked.connect(self._empty_action)
        state = self.state
        state.viewChanged.connect(self._view_changed)
        state.anchorChanged.connect(self._anchor_changed)
        state.filterChanged.connect(lambda _filter: self.reload())
        state.selectionChanged.connect(self._selection_changed)
        state.busyChanged.connect(self._busy_changed)
        state.neverSyncedChanged.connect(lambda _never: self._update_empty_state())

    def _connect_post_view(self, view: MonthView | WeekView | PostListView | DayPopup) -> None:
        view.postClicked.connect(self._on_post_clicked)
        view.postActivated.connect(self._on_post_activated)

    def _connect_grid(self, grid: MonthView | WeekView) -> None:
        grid.dayActivated.connect(self.newPostRequested)
        grid.dayClicked.connect(lambda _day: self.select_post(None))
        grid.moveRequested.connect(self.move_post)

    # -- views built on first use ----------------------------------------------------------
    @property
    def week_view(self) -> WeekView:
        if self._week_view is None:
            from ui.calendar.week_view import WeekView  # built on first use, imported then too

            view = WeekView()
            self._connect_post_view(view)
            self._connect_grid(view)
            view.set_busy(self.state.busy_ids())
            view.set_selected(self.state.selection)
            self.stack.addWidget(view)
            self._week_view = view
        return self._week_view

    @property
    def agenda_view(self) -> PostListView:
        if self._agenda_view is None:
            view = PostListView(self._today)
            view.setObjectName("agendaView")
            view.setAccessibleName("Agenda")
            self._connect_post_view(view)
            view.set_selected(self.state.selection)
            self.stack.addWidget(view)
            self._agenda_view = view
        return self._agenda_view

    @property
    def detail(self) -> PostDetailPanel:
        if self._detail is None:
            from ui.calendar.detail_panel import PostDetailPanel

            panel = PostDetailPanel()
            panel.bind_actions(self.post_actions)
            panel.hide()
            panel.closeRequested.connect(self.close_detail)
            sizes = self.splitter.sizes()
            self.splitter.addWidget(panel)
            self.splitter.setStretchFactor(2, 0)
            self.splitter.setSizes([*sizes[:2], 340])
            self._detail = panel
            self._show_detail(self._selected_entry())
        return self._detail

    @property
    def day_popup(self) -> DayPopup:
        if self._day_popup is None:
            self._day_popup = DayPopup(self._today, self)
            self._connect_post_view(self._day_popup)
        return self._day_popup

    def built_views(self) -> list[QWidget]:
        """The views built so far (the others are made when first shown)."""
        views: list[QWidget | None] = [self.month_view, self._week_view, self._agenda_view]
        return [view for view in views if view is not None]

    # -- public API ------------------------------------------------------------------------
    @property
    def display_tz(self) -> tzinfo:
        return self._tz

    def current_view(self) -> str:
        return self.state.view.value

    def anchor(self) -> date:
        return self.state.anchor

    def visible_range(self) -> tuple[datetime, datetime]:
        """`[start, end)` of the shown days in the display zone, as aware UTC datetimes."""
        return visible_range(self.state.view, self.state.anchor, self._tz)

    def visible_dates(self) -> list[date]:
        return visible_dates(self.state.view, self.state.anchor)

    def selected_post_id(self) -> str | None:
        return self.state.selection

    def current_filter(self) -> PostFilter:
        return self.state.filter

    def set_view(self, view: str) -> None:
        self.state.view = ViewKind(view)

    def go_to(self, day: date) -> None:
        self.state.anchor = day

    def go_today(self) -> None:
        self.go_to(self._today())

    def go_next(self) -> None:
        self.go_to(shift_anchor(self.state.view, self.state.anchor, 1))

    def go_previous(self) -> None:
        self.go_to(shift_anchor(self.state.view, self.state.anchor, -1))

    def focus_jump_to_date(self) -> None:
        editor = self.toolbar.jump_edit
        editor.setFocus(Qt.FocusReason.ShortcutFocusReason)
        # F4 is how a date edit opens its own calendar popup from the keyboard.
        QApplication.sendEvent(
            editor,
            QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_F4, Qt.KeyboardModifier.NoModifier),
        )

    def set_source(self, source: CalendarSource) -> None:
        """Show another workspace's posts (the selection belongs to the old one)."""
        self._source = source
        self._prefetch_timer.stop()
        self._prefetch_steps = []
        self._entry_cache.clear()
        self.state.selection = None
        for post_id in self.state.busy_ids():
            self.state.set_busy(post_id, False)
        if self._detail is not None:
            self._detail.hide()
        self.reload()

    def set_session(self, session: WorkspaceSession | None) -> None:
        """The page's side of opening a workspace: its cache becomes the source (the shell
        connects `session.writes.busyChanged` to `set_busy`)."""
        if session is not None and self._source is not session.cache:
            self.set_source(session.cache)

    def set_never_synced(self, never: bool) -> None:
        """Whether this workspace's calendar was never filled by a sync (the empty state says
        "Not synced yet" instead of "Nothing planned")."""
        self.state.never_synced = never

    def set_busy(self, post_id: str, busy: bool) -> None:
        """A write for `post_id` is in flight (or its answer came): the chip and the detail show
        it, and the post's actions wait until the answer."""
        self.state.set_busy(post_id, busy)

    def is_busy(self, post_id: str) -> bool:
        return self.state.is_busy(post_id)

    def reload(self) -> None:
        """Re-read the source for what is shown and repaint, keeping selection and scroll."""
        self._load(whole=True)

    def _load(self, *, whole: bool) -> None:
        """`whole=False` (another period, same data): the accounts, labels and the tray's
        posts do not depend on the period, so only the period's posts are read."""
        if whole:
            self._read_choices()
        start, end = self.visible_range()
        wanted = self.state.filter
        cards = wanted.apply(self._source.cards_between(start, end))
        self._visible = self._entry_cache.entries(cards)
        if whole:
            self._drafts = self._entry_cache.entries(wanted.apply(self._source.unscheduled_cards()))
            self._read_sync_mark()
        self._show_loaded()
        if self._loaded_range != (start, end):
            self._loaded_range = (start, end)
            self._prefetch_steps = [1, -1]
            self._prefetch_timer.start()
            self.visibleRangeChanged.emit(start, end)

    def _show_loaded(self) -> None:
        self._entries = {entry.id: entry for entry in [*self._drafts, *self._visible]}
        self._populate_view()
        self._populate_tray()
        self._update_header()
        if self.state.selection is not None and self.state.selection not in self._entries:
            self.select_post(None)
        else:
            self._refresh_selection()
        self._update_empty_state()

    def show_posts(self, posts: Iterable[Post]) -> None:
        """Show the server's answer to a write for these posts without reading the source.

        Moving, adding or dropping their chips costs ~1 ms; a `reload()` reads the whole period
        back (~4 ms alone, 10-20 ms while a sync writes to the cache meanwhile). What it shows
        is what the next reload shows. Call it once the answer is stored: when a post enters or
        leaves the tray, the tray (ordered by the source) is read again.
        """
        self._apply_cards([card_of(post) for post in posts], ())

    def forget_posts(self, post_ids: Iterable[str]) -> None:
        """Posts deleted on the server: their chips go without reading the source."""
        self._apply_cards([], post_ids)

    def _apply_cards(self, cards: list[PostCard], gone: Iterable[str]) -> None:
        changed = {card.id for card in cards} | set(gone)
        start, end = self.visible_range()
        removed = [self._entries[post_id] for post_id in changed if post_id in self._entries]
        tray_changed = any(entry.local is None for entry in removed)
        added: list[Entry] = []
        for entry in self._entry_cache.entries(self.state.filter.apply(cards)):
            shown_at = entry.card.calendar_at
            if shown_at is None:
                tray_changed = True
            elif start <= shown_at < end:
                added.append(entry)
        visible = [entry for entry in self._visible if entry.card.id not in changed]
        for entry in added:
            bisect.insort(visible, entry, key=_shown_at)
        self._visible = visible
        if tray_changed:  # its order (newest first) is the source's: one small read
            wanted = self.state.filter
            self._drafts = self._entry_cache.entries(wanted.apply(self._source.unscheduled_cards()))
        if self.state.view is not ViewKind.MONTH or tray_changed:
            self._show_loaded()
            return
        # The month's common case (a post moved, its status changed): only its days change.
        for entry in removed:
            del self._entries[entry.id]
        self._entries.update((entry.id, entry) for entry in added)
        self.month_view.change_entries(removed, added)
        if self.state.selection is not None and self.state.selection not in self._entries:
            self.select_post(None)
        else:
            self._refresh_selection()
        self._update_empty_state()

    def _read_choices(self) -> None:
        choices = (self._source.account_choices(), self._source.label_choices())
        if choices != self._choices:  # refilling the lists re-lays out and repaints the page
            self._choices = choices
            self.filter_bar.blockSignals(True)
            self.filter_bar.set_choices(*choices)
            self.filter_bar.blockSignals(False)
            self.state.blockSignals(True)  # this very reload applies it
            self.state.filter = self.filter_bar.current_filter()
            self.state.blockSignals(False)

    def select_post(self, post_id: str | None) -> None:
        self.state.selection = post_id if post_id in self._entries else None

    def open_detail(self) -> None:
        entry = self._selected_entry()
        if entry is None:
            return
        self._show_detail(entry)
        self._set_detail_visible(True)
        self._reveal(entry)
        self.detail.close_button.setFocus()

    def _reveal(self, entry: Entry) -> None:
        """A post opened from the palette may lie outside the week's visible hours: scroll to
        it. A post the user could click is left where it is (nothing moves under the cursor)."""
        if self.state.view is not ViewKind.WEEK or entry.local is None:
            return
        top, bottom = self.week_view.visible_minutes()
        if not top <= entry.minutes < bottom:
            self.week_view.scroll_to_minutes(entry.minutes)

    def close_detail(self) -> None:
        self._set_detail_visible(False)
        self._view_widget().setFocus()

    def request_delete(self) -> None:
        """Ask before deleting; `deleteRequested` is emitted only when the user confirmed."""
        entry = self._require(PostAction.DELETE)
        if entry is None:
            return
        from ui.calendar.confirm import ask

        when = f"{entry.time_text} · " if entry.time_text else ""
        self._delete_box = ask(
            self,
            "Delete post",
            "Delete this post?",
            f"{when}{entry.account_text}\n“{entry.summary}”\n\n"
            "It is removed from every network it has not been published to.",
            "Delete",
            lambda: self.deleteRequested.emit(entry.id),
            lambda: setattr(self, "_delete_box", None),
            destructive=True,
        )

    def request_publish_now(self) -> None:
        """Ask first, naming where it goes; `publishNowRequested` only when the user confirmed."""
        entry = self._require(PostAction.PUBLISH_NOW)
        if entry is None:
            return
        from ui.calendar.confirm import ask

        where = self.destinations_text(entry.id)
        self._publish_box = ask(
            self,
            "Publish now",
            f"Publish this post now to {where}?",
            f"“{entry.summary}”\n\nIt goes out at once instead of "
            + (f"at {entry.time_text} on {entry.local:%a %d %b}." if entry.local else "later."),
            "Publish now",
            lambda: self.publishNowRequested.emit(entry.id),
            lambda: setattr(self, "_publish_box", None),
        )

    def destinations_text(self, post_id: str) -> str:
        """Where a post goes: "LinkedIn (Maya Chen) and X (@northwind)"."""
        from ui.calendar.confirm import destinations_text

        entry = self._entries.get(post_id)
        return destinations_text(self._source.post(post_id), entry.card.networks if entry else ())

    def delete_confirmation(self) -> QMessageBox | None:
        return self._delete_box

    def publish_confirmation(self) -> QMessageBox | None:
        return self._publish_box

    def reschedule_dialog(self) -> RescheduleDialog | None:
        return self._reschedule_dialog

    def move_post(self, post_id: str, target: DropTarget) -> None:
        """A post dropped on a day (month) or a slot (week): ask to reschedule it there."""
        entry = self._entries.get(post_id)
        if entry is None or not entry.draggable or self.state.is_busy(post_id):
            return
        scheduled = entry.scheduled_at
        if target.minutes is not None:
            when = slot_instant(target.day, target.minutes, self._tz)
        elif scheduled is not None:
            when = move_to_day(scheduled, target.day, self._tz)
        else:
            when = slot_instant(target.day, UNDATED_DROP_MINUTES, self._tz)
        if scheduled is not None and when.astimezone(UTC) == scheduled:
            return
        waiting = entry.known_status is PostStatus.SCHEDULED
        if waiting and not is_in_future(when, self._now()):
            local = when.astimezone(self._tz)
            QToolTip.showText(
                QCursor.pos(),
                f"{local:%a %d %b %H:%M} has passed: a scheduled post can only move to a later "
                "time.",
                self,
            )
            return
        self.rescheduleRequested.emit(post_id, when)

    def show_more(self, day: date) -> None:
        entries = self.month_view.entries_on(day)
        rect = self.month_view.more_rect(day)
        anchor = self.month_view.mapToGlobal(rect.bottomLeft() + QPoint(0, 2))
        self.day_popup.show_day(day, entries, anchor, self.state.selection)

    def entry(self, post_id: str) -> Entry | None:
        return self._entries.get(post_id)

    def post(self, post_id: str) -> Post | None:
        """The full post behind a shown entry (read from the source: entries hold cards)."""
        return self._source.post(post_id) if post_id in self._entries else None

    def detail_is_open(self) -> bool:
        return self._detail is not None and not self._detail.isHidden()

    # -- state → widgets -------------------------------------------------------------------
    def _view_changed(self, kind: ViewKind) -> None:
        {
            ViewKind.MONTH: self.action_month,
            ViewKind.WEEK: self.action_week,
            ViewKind.AGENDA: self.action_agenda,
        }[kind].setChecked(True)
        self.stack.setCurrentWidget(self._view_widget())
        self._scroll_week = True
        self.reload()

    def _anchor_changed(self, _day: date) -> None:
        self._scroll_week = True
        self._load(whole=False)

    def _filter_chosen(self, wanted: PostFilter) -> None:
        self.state.filter = wanted

    def _selection_changed(self, post_id: str | None) -> None:
        self._refresh_selection()
        if post_id is None:
            self._set_detail_visible(False)
        else:
            self.postSelected.emit(post_id)

    def _busy_changed(self, post_id: str, _busy: bool) -> None:
        busy = self.state.busy_ids()
        self.month_view.set_busy(busy)
        if self._week_view is not None:
            self._week_view.set_busy(busy)
        if post_id == self.state.selection:
            self._refresh_selection()

    def _read_sync_mark(self) -> None:
        """A cache knows whether a sync ever filled it; a source without that says nothing."""
        last_sync = getattr(self._source, "last_sync_at", None)
        if callable(last_sync):
            self.state.never_synced = last_sync() is None

    # -- internals -------------------------------------------------------------------------
    def _view_widget(self) -> QWidget:
        kind = self.state.view
        if kind is ViewKind.WEEK:
            return self.week_view
        if kind is ViewKind.AGENDA:
            return self.agenda_view
        return self.month_view

    def _populate_view(self) -> None:
        today = self._today()
        days = self.visible_dates()
        anchor = self.state.anchor
        kind = self.state.view
        if kind is ViewKind.MONTH:
            self.month_view.set_month(anchor.year, anchor.month, today)
            self.month_view.set_entries(self._visible)
            self._now_timer.stop()
        elif kind is ViewKind.WEEK:
            zone = datetime.combine(days[3], datetime.min.time(), self._tz).tzname() or ""
            self.week_view.set_week(days, today, zone)
            self.week_view.set_entries(self._visible)
            self._update_now_line()
            self._now_timer.start()
            if self._scroll_week:
                self.week_view.scroll_to_first_post()
        else:
            rows = agenda_rows(self._visible, days, today)
            self.agenda_view.set_rows(rows, keep_scroll=not self._scroll_week)
            if self._scroll_week:
                self.agenda_view.scrollToTop()
            self._now_timer.stop()
        self._scroll_week = False

    def _prefetch_neighbours(self) -> None:
        """One neighbour per call (each ~10 ms for a dense month), the next one queued."""
        if not self._prefetch_steps:
            self._prefetch_steps = [1, -1]
        step = self._prefetch_steps.pop(0)
        view, anchor = self.state.view, self.state.anchor
        neighbour = shift_anchor(view, anchor, step)
        start, end = visible_range(view, neighbour, self._tz)
        try:
            cards = self._source.cards_between(start, end)
        except Exception:
            # Only a head start: a source that cannot be read now (a workspace closing)
            # says so at the next real reload, with the page's own error path.
            self._prefetch_steps = []
            return
        entries = self._entry_cache.entries(self.state.filter.apply(cards))
        if view is ViewKind.MONTH:
            self.month_view.prepare(neighbour.year, neighbour.month, entries)
        if self._prefetch_steps:
            QTimer.singleShot(PREFETCH_GAP_MS, self, self._prefetch_next)

    def _prefetch_next(self) -> None:
        if self._prefetch_steps and not self._prefetch_timer.isActive():
            self._prefetch_neighbours()

    def _update_now_line(self) -> None:
        if self._week_view is None:
            return
        local = self._now().astimezone(self._tz)
        self._week_view.set_now(local.date(), local.hour * 60 + local.minute)

    def _populate_tray(self) -> None:
        self.tray.show_entries(self._drafts)
        self.action_tray.setText(f"Unscheduled · {len(self._drafts)}")

    def _update_header(self) -> None:
        anchor = self.state.anchor
        self.toolbar.set_title(period_titles(self.state.view, self.visible_dates(), anchor))
        self.toolbar.set_jump_date(anchor)

    def _update_empty_state(self) -> None:
        if self._visible:
            self.empty_state.hide()
            return
        period = self.toolbar.title.forms()[0]
        if self.state.never_synced and not self._drafts:
            self.empty_state.show_message(
                "Not synced yet",
                "Posts appear here after the first sync with the server. The status bar says "
                "how it is going.",
                "",
            )
        elif self.state.filter.active:
            self.empty_state.show_message(
                "No posts match these filters",
                f"Nothing in {period} matches. Clear the filters to see every post.",
                "Clear filters",
            )
        else:
            self.empty_state.show_message(
                f"Nothing planned for {period}",
                "Double-click a day to start a post, or drag a draft from the tray.",
                "New post",
            )

    def _empty_action(self) -> None:
        if self.state.filter.active:
            self.filter_bar.clear()
        else:
            self._new_post_here()

    def _new_post_here(self) -> None:
        days = self.visible_dates()
        today = self._today()
        entry = self._selected_entry()
        if entry is not None and entry.day is not None:
            day = entry.day
        elif today in days:
            day = today
        else:
            anchor = self.state.anchor
            day = anchor if anchor in days else days[0]
        self.newPostRequested.emit(day)

    def _toggle_tray(self) -> None:
        self._fit_panels()

    def _set_detail_visible(self, visible: bool) -> None:
        if visible:
            self.detail.show()
        elif self._detail is not None:
            self._detail.hide()
        self._fit_panels()

    def _fit_panels(self) -> None:
        """The tray is shown when the user wants it, unless a narrow page needs its room for
        the open detail panel."""
        crowded = self.detail_is_open() and self.width() < NARROW_PAGE
        self.tray.setVisible(self.action_tray.isChecked() and not crowded)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_panels()

    def _selected_entry(self) -> Entry | None:
        post_id = self.state.selection
        return self._entries.get(post_id) if post_id else None

    def can(self, kind: PostAction) -> bool:
        """Whether the selected post offers `kind` now (allowed by its status, not busy)."""
        entry = self._selected_entry()
        return entry is not None and kind in entry.actions and not self.state.is_busy(entry.id)

    def _refresh_selection(self) -> None:
        post_id = self.state.selection
        for view in self.built_views():
            view.set_selected(post_id)  # type: ignore[attr-defined]
        self.tray_list.set_selected(post_id)
        entry = self._selected_entry()
        for kind, action in self.post_actions.items():
            action.setEnabled(self.can(kind))
        self.action_edit.setText(action_text(PostAction.EDIT, entry.status if entry else None))
        self.action_open.setEnabled(entry is not None)
        self._show_detail(entry)

    def _show_detail(self, entry: Entry | None) -> None:
        if self._detail is None:
            return
        # Entries hold cards; the full post is read (and decoded) for the panel only.
        post = self._source.post(entry.id) if entry is not None else None
        self._detail.show_entry(entry if post is not None else None, post)
        self._detail.set_busy(entry is not None and self.state.is_busy(entry.id))

    def _on_post_clicked(self, post_id: str) -> None:
        self.select_post(post_id)
        if self.state.selection is not None:
            self._set_detail_visible(True)

    def _on_post_activated(self, post_id: str) -> None:
        self.select_post(post_id)
        self.open_detail()

    def _require(self, action: PostAction) -> Entry | None:
        return self._selected_entry() if self.can(action) else None

    def _open_time_dialog(self, dialog: RescheduleDialog, chosen: Callable[..., None]) -> None:
        dialog.chosen.connect(chosen)
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(lambda _code: setattr(self, "_reschedule_dialog", None))
        self._reschedule_dialog = dialog
        dialog.open()

    def _reschedule(self) -> None:
        entry = self._require(PostAction.RESCHEDULE)
        if entry is None or entry.scheduled_at is None:
            return
        from ui.calendar.reschedule_dialog import RescheduleDialog

        dialog = RescheduleDialog(
            entry.id,
            entry.scheduled_at,
            self._tz,
            self,
            now=self._now,
            future_only=entry.known_status is PostStatus.SCHEDULED,
        )
        self._open_time_dialog(dialog, self._rescheduled)

    def _rescheduled(self, post_id: str, when: datetime) -> None:
        entry = self._entries.get(post_id)
        if entry is None or entry.scheduled_at != when.astimezone(UTC):
            self.rescheduleRequested.emit(post_id, when)

    def _schedule(self) -> None:
        """Draft → scheduled at its date; a date that has passed asks for a new time first."""
        entry = self._require(PostAction.SCHEDULE)
        if entry is None or entry.scheduled_at is None:
            return
        now = self._now()
        if is_in_future(entry.scheduled_at, now):
            self.scheduleRequested.emit(entry.id, entry.scheduled_at)
            return
        was = entry.local.strftime("%a %d %b %H:%M") if entry.local else "its date"
        from ui.calendar.reschedule_dialog import RescheduleDialog

        dialog = RescheduleDialog(
            entry.id,
            next_full_hour(now, self._tz),
            self._tz,
            self,
            now=self._now,
            title="Schedule post",
            button="Schedule",
            intro=f"This draft's time ({was}) has passed. When should it be published?",
        )
        self._open_time_dialog(dialog, self.scheduleRequested.emit)

    def _move_to_draft(self) -> None:
        entry = self._require(PostAction.MOVE_TO_DRAFT)
        if entry is None:
            return
        signal = QMetaMethod.fromSignal(self.moveToDraftRequested)
        if not self.isSignalConnected(signal) and entry.known_status is PostStatus.SCHEDULED:
            # Until the shell listens for the new signal, the old one does the same request.
            self.unscheduleRequested.emit(entry.id)
            return
        self.moveToDraftRequested.emit(entry.id)

    def _edit(self) -> None:
        entry = self._require(PostAction.EDIT)
        if entry is not None:
            self.editRequested.emit(entry.id)

    def _duplicate(self) -> None:
        entry = self._require(PostAction.DUPLICATE)
        if entry is not None:
            self.duplicateRequested.emit(entry.id)

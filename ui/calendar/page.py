"""The calendar page: toolbar, filters, month/week/agenda views, unscheduled tray, detail panel.

The page never calls the API. It reads posts from a `CalendarSource`, and every change the user
asks for leaves as a signal; the controller performs it and calls `reload()`. Day boundaries and
times are computed in the display time zone (`app.calendar.grid`), so DST days and zones far
from the server's come out right.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, tzinfo
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QLabel,
    QMessageBox,
    QSplitter,
    QStackedWidget,
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
from app.calendar.post_card import AccountChoice, CardLabel
from ui.calendar.actions import PostAction
from ui.calendar.day_popup import DayPopup
from ui.calendar.detail_panel import PostDetailPanel
from ui.calendar.drag import DropTarget
from ui.calendar.empty_state import EmptyState
from ui.calendar.entries import Entry, build_entries
from ui.calendar.filter_bar import FilterBar
from ui.calendar.filters import PostFilter
from ui.calendar.month_view import MonthView
from ui.calendar.post_list import agenda_rows, post_rows
from ui.calendar.post_list_view import PostListView
from ui.calendar.reschedule_dialog import RescheduleDialog
from ui.calendar.source import CalendarSource
from ui.calendar.style import PAGE_STYLE
from ui.calendar.timezone import system_time_zone
from ui.calendar.toolbar import CalendarToolbar
from ui.calendar.week_view import WeekView

if TYPE_CHECKING:
    from app.models import Post

UNDATED_DROP_MINUTES = 9 * 60
"""Time of day given to an undated draft dropped on a month day (no time is implied there)."""


def period_title(view: ViewKind, days: list[date], anchor: date) -> str:
    if view is ViewKind.MONTH:
        return anchor.strftime("%B %Y")
    first, last = days[0], days[-1]
    if first.year != last.year:
        return f"{first.day} {first:%B %Y} – {last.day} {last:%B %Y}"
    if first.month != last.month:
        return f"{first.day} {first:%B} – {last.day} {last:%B %Y}"
    return f"{first.day} – {last.day} {last:%B %Y}"


class CalendarPage(QWidget):
    rescheduleRequested = Signal(str, object)  # post id, aware datetime (UTC)
    publishNowRequested = Signal(str)
    unscheduleRequested = Signal(str)
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
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("calendarPage")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(PAGE_STYLE)
        self._source = source
        self._tz: tzinfo = display_tz if display_tz is not None else system_time_zone()
        self._today: Callable[[], date] = today or (lambda: datetime.now(self._tz).date())
        self._view = ViewKind.MONTH
        self._anchor = self._today()
        self._filter = PostFilter()
        self._entries: dict[str, Entry] = {}
        self._visible: list[Entry] = []
        self._drafts: list[Entry] = []
        self._selected_id: str | None = None
        self._scroll_week = True
        self._loaded_range: tuple[datetime, datetime] | None = None
        self._choices: tuple[list[AccountChoice], list[CardLabel]] | None = None
        self._delete_box: QMessageBox | None = None
        self._reschedule_dialog: RescheduleDialog | None = None

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
            "Unscheduled", None, self._toggle_tray, tip="Show or hide drafts without a date"
        )
        self.action_tray.setCheckable(True)
        self.action_tray.setChecked(True)
        self.action_new = self._action("New post", None, self._new_post_here)
        self.action_reschedule = self._action("Reschedule…", None, self._reschedule)
        self.action_publish = self._action("Publish now", None, self._publish_now)
        self.action_unschedule = self._action("Unschedule", None, self._unschedule)
        self.action_duplicate = self._action("Duplicate", None, self._duplicate)
        self.action_delete = self._action(
            "Delete…", [QKeySequence(key.Key_Delete)], self.request_delete
        )
        self.post_actions: dict[PostAction, QAction] = {
            PostAction.RESCHEDULE: self.action_reschedule,
            PostAction.PUBLISH_NOW: self.action_publish,
            PostAction.UNSCHEDULE: self.action_unschedule,
            PostAction.DUPLICATE: self.action_duplicate,
            PostAction.DELETE: self.action_delete,
        }

    def navigation_actions(self) -> list[QAction]:
        return [self.action_today, self.action_previous, self.action_next, self.action_jump]

    def view_actions(self) -> list[QAction]:
        return [self.action_month, self.action_week, self.action_agenda, self.action_tray]

    def post_action_list(self) -> list[QAction]:
        return [self.action_open, *self.post_actions.values()]

    def _build_widgets(self) -> None:
        self.toolbar = CalendarToolbar(
            today=self.action_today,
            previous=self.action_previous,
            following=self.action_next,
            views=[self.action_month, self.action_week, self.action_agenda],
            tray=self.action_tray,
        )
        self.filter_bar = FilterBar()
        self.month_view = MonthView()
        self.week_view = WeekView()
        self.agenda_view = PostListView(self._today)
        self.agenda_view.setObjectName("agendaView")
        self.agenda_view.setAccessibleName("Agenda")
        self.stack = QStackedWidget()
        self.stack.setObjectName("calendarViews")
        for view in (self.month_view, self.week_view, self.agenda_view):
            self.stack.addWidget(view)
        self.empty_state = EmptyState(self.stack)

        self.tray = QFrame()
        self.tray.setObjectName("trayPanel")
        self.tray_title = QLabel("Unscheduled drafts")
        self.tray_title.setObjectName("trayTitle")
        self.tray_hint = QLabel("Drag a draft onto a day to give it a date.")
        self.tray_hint.setObjectName("muted")
        self.tray_hint.setWordWrap(True)
        self.tray_list = PostListView(
            self._today, show_time=False, show_status=False, draggable=True, compact=True
        )
        self.tray_list.setObjectName("trayList")
        self.tray_empty = QLabel("No drafts without a date.")
        self.tray_empty.setObjectName("muted")
        self.tray_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        tray_layout = QVBoxLayout(self.tray)
        tray_layout.setContentsMargins(12, 12, 4, 8)
        tray_layout.setSpacing(6)
        tray_layout.addWidget(self.tray_title)
        tray_layout.addWidget(self.tray_hint)
        tray_layout.addWidget(self.tray_list, 1)
        tray_layout.addWidget(self.tray_empty, 1)

        self.detail = PostDetailPanel()
        self.detail.bind_actions(self.post_actions)
        self.detail.hide()
        self.day_popup = DayPopup(self._today, self)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("calendarSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tray)
        self.splitter.addWidget(self.stack)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 0)
        self.splitter.setSizes([230, 900, 340])
        self.tray.setMinimumWidth(200)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(10)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.splitter, 1)

    def _connect(self) -> None:
        self.toolbar.dateChosen.connect(self.go_to)
        self.filter_bar.filterChanged.connect(self._set_filter)
        for view in (
            self.month_view,
            self.week_view,
            self.agenda_view,
            self.tray_list,
            self.day_popup,
        ):
            view.postClicked.connect(self._on_post_clicked)
            view.postActivated.connect(self._on_post_activated)
        for grid in (self.month_view, self.week_view):
            grid.dayActivated.connect(self.newPostRequested)
            grid.dayClicked.connect(lambda _day: self.select_post(None))
            grid.moveRequested.connect(self.move_post)
        self.month_view.moreClicked.connect(self.show_more)
        self.detail.closeRequested.connect(self.close_detail)
        self.empty_state.actionClicked.connect(self._empty_action)

    # -- public API ------------------------------------------------------------------------
    @property
    def display_tz(self) -> tzinfo:
        return self._tz

    def current_view(self) -> str:
        return self._view.value

    def anchor(self) -> date:
        return self._anchor

    def visible_range(self) -> tuple[datetime, datetime]:
        """`[start, end)` of the shown days in the display zone, as aware UTC datetimes."""
        return visible_range(self._view, self._anchor, self._tz)

    def visible_dates(self) -> list[date]:
        return visible_dates(self._view, self._anchor)

    def selected_post_id(self) -> str | None:
        return self._selected_id

    def current_filter(self) -> PostFilter:
        return self._filter

    def set_view(self, view: str) -> None:
        kind = ViewKind(view)
        if kind is self._view:
            return
        self._view = kind
        {
            ViewKind.MONTH: self.action_month,
            ViewKind.WEEK: self.action_week,
            ViewKind.AGENDA: self.action_agenda,
        }[kind].setChecked(True)
        self.stack.setCurrentWidget(self._view_widget())
        self._scroll_week = True
        self.reload()

    def go_to(self, day: date) -> None:
        if day == self._anchor:
            return
        self._anchor = day
        self._scroll_week = True
        self.reload()

    def go_today(self) -> None:
        self.go_to(self._today())

    def go_next(self) -> None:
        self.go_to(shift_anchor(self._view, self._anchor, 1))

    def go_previous(self) -> None:
        self.go_to(shift_anchor(self._view, self._anchor, -1))

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
        self._selected_id = None
        self.detail.hide()
        self.reload()

    def reload(self) -> None:
        """Re-read the source for what is shown and repaint, keeping selection and scroll."""
        choices = (self._source.account_choices(), self._source.label_choices())
        if choices != self._choices:  # refilling the lists re-lays out and repaints the page
            self._choices = choices
            self.filter_bar.blockSignals(True)
            self.filter_bar.set_choices(*choices)
            self.filter_bar.blockSignals(False)
        self._filter = self.filter_bar.current_filter()
        start, end = self.visible_range()
        cards = self._filter.apply(self._source.cards_between(start, end))
        drafts = self._filter.apply(self._source.unscheduled_cards())
        self._visible = build_entries(cards, self._tz)
        self._drafts = build_entries(drafts, self._tz)
        self._entries = {entry.id: entry for entry in [*self._drafts, *self._visible]}
        self._populate_view()
        self._populate_tray()
        self._update_header()
        if self._selected_id is not None and self._selected_id not in self._entries:
            self.select_post(None)
        else:
            self._refresh_selection()
        self._update_empty_state()
        if self._loaded_range != (start, end):
            self._loaded_range = (start, end)
            self.visibleRangeChanged.emit(start, end)

    def select_post(self, post_id: str | None) -> None:
        changed = post_id != self._selected_id
        self._selected_id = post_id if post_id in self._entries else None
        self._refresh_selection()
        if self._selected_id is None:
            self.detail.hide()
        if changed and self._selected_id is not None:
            self.postSelected.emit(self._selected_id)

    def open_detail(self) -> None:
        if self._selected_id is None:
            return
        self._show_detail(self._entries[self._selected_id])
        self.detail.show()
        self.detail.close_button.setFocus()

    def close_detail(self) -> None:
        self.detail.hide()
        self._view_widget().setFocus()

    def request_delete(self) -> None:
        """Ask before deleting; `deleteRequested` is emitted only when the user confirms."""
        entry = self._selected_entry()
        if entry is None or PostAction.DELETE not in entry.actions:
            return
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Delete post")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText("Delete this post?")
        when = f"{entry.time_text} · " if entry.time_text else ""
        box.setInformativeText(
            f"{when}{entry.account_text}\n“{entry.summary}”\n\n"
            "It is removed from every network it has not been published to."
        )
        delete_button = box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        post_id = entry.id

        def finished() -> None:
            if box.clickedButton() is delete_button:
                self.deleteRequested.emit(post_id)
            self._delete_box = None
            box.deleteLater()

        box.finished.connect(finished)
        self._delete_box = box
        box.open()

    def delete_confirmation(self) -> QMessageBox | None:
        return self._delete_box

    def reschedule_dialog(self) -> RescheduleDialog | None:
        return self._reschedule_dialog

    def move_post(self, post_id: str, target: DropTarget) -> None:
        """A post dropped on a day (month) or a slot (week): ask to reschedule it there."""
        entry = self._entries.get(post_id)
        if entry is None or not entry.draggable:
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
        self.rescheduleRequested.emit(post_id, when)

    def show_more(self, day: date) -> None:
        entries = self.month_view.entries_on(day)
        rect = self.month_view.more_rect(day)
        anchor = self.month_view.mapToGlobal(rect.bottomLeft() + QPoint(0, 2))
        self.day_popup.show_day(day, entries, anchor, self._selected_id)

    # -- internals -------------------------------------------------------------------------
    def _view_widget(self) -> QWidget:
        return {
            ViewKind.MONTH: self.month_view,
            ViewKind.WEEK: self.week_view,
            ViewKind.AGENDA: self.agenda_view,
        }[self._view]

    def _populate_view(self) -> None:
        today = self._today()
        days = self.visible_dates()
        if self._view is ViewKind.MONTH:
            self.month_view.set_month(self._anchor.year, self._anchor.month, today)
            self.month_view.set_entries(self._visible)
        elif self._view is ViewKind.WEEK:
            zone = datetime.combine(days[3], datetime.min.time(), self._tz).tzname() or ""
            self.week_view.set_week(days, today, zone)
            self.week_view.set_entries(self._visible)
            if self._scroll_week:
                self.week_view.scroll_to_first_post()
        else:
            rows = agenda_rows(self._visible, days, today)
            self.agenda_view.set_rows(rows, keep_scroll=not self._scroll_week)
            if self._scroll_week:
                self.agenda_view.scrollToTop()
        self._scroll_week = False

    def _populate_tray(self) -> None:
        self.tray_list.set_rows(post_rows(self._drafts))
        count = len(self._drafts)
        self.tray_list.setVisible(count > 0)
        self.tray_empty.setVisible(count == 0)
        self.action_tray.setText(f"Unscheduled · {count}")
        self.tray_title.setText(f"Unscheduled drafts ({count})")

    def _update_header(self) -> None:
        self.toolbar.set_title(period_title(self._view, self.visible_dates(), self._anchor))
        self.toolbar.set_jump_date(self._anchor)

    def _update_empty_state(self) -> None:
        if self._visible:
            self.empty_state.hide()
            return
        period = self.toolbar.title.text()
        if self._filter.active:
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
        if self._filter.active:
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
            day = self._anchor if self._anchor in days else days[0]
        self.newPostRequested.emit(day)

    def _set_filter(self, wanted: PostFilter) -> None:
        if wanted != self._filter:
            self._filter = wanted
            self.reload()

    def _toggle_tray(self) -> None:
        self.tray.setVisible(self.action_tray.isChecked())

    def _selected_entry(self) -> Entry | None:
        return self._entries.get(self._selected_id) if self._selected_id else None

    def _refresh_selection(self) -> None:
        post_id = self._selected_id
        self.month_view.set_selected(post_id)
        self.week_view.set_selected(post_id)
        self.agenda_view.set_selected(post_id)
        self.tray_list.set_selected(post_id)
        entry = self._selected_entry()
        allowed = entry.actions if entry is not None else frozenset()
        for kind, action in self.post_actions.items():
            action.setEnabled(kind in allowed)
        self.action_open.setEnabled(entry is not None)
        self._show_detail(entry)

    def _show_detail(self, entry: Entry | None) -> None:
        # Entries hold cards; the full post is read (and decoded) for the panel only.
        post = self._source.post(entry.id) if entry is not None else None
        self.detail.show_entry(entry if post is not None else None, post)

    def _on_post_clicked(self, post_id: str) -> None:
        self.select_post(post_id)
        if self._selected_id is not None:
            self.detail.show()

    def _on_post_activated(self, post_id: str) -> None:
        self.select_post(post_id)
        self.open_detail()

    def _require(self, action: PostAction) -> Entry | None:
        entry = self._selected_entry()
        return entry if entry is not None and action in entry.actions else None

    def _reschedule(self) -> None:
        entry = self._require(PostAction.RESCHEDULE)
        if entry is None or entry.scheduled_at is None:
            return
        dialog = RescheduleDialog(entry.id, entry.scheduled_at, self._tz, self)
        dialog.chosen.connect(self._rescheduled)
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(lambda _code: setattr(self, "_reschedule_dialog", None))
        self._reschedule_dialog = dialog
        dialog.open()

    def _rescheduled(self, post_id: str, when: datetime) -> None:
        entry = self._entries.get(post_id)
        if entry is None or entry.scheduled_at != when.astimezone(UTC):
            self.rescheduleRequested.emit(post_id, when)

    def _publish_now(self) -> None:
        entry = self._require(PostAction.PUBLISH_NOW)
        if entry is not None:
            self.publishNowRequested.emit(entry.id)

    def _unschedule(self) -> None:
        entry = self._require(PostAction.UNSCHEDULE)
        if entry is not None:
            self.unscheduleRequested.emit(entry.id)

    def _duplicate(self) -> None:
        entry = self._require(PostAction.DUPLICATE)
        if entry is not None:
            self.duplicateRequested.emit(entry.id)

    def entry(self, post_id: str) -> Entry | None:
        return self._entries.get(post_id)

    def post(self, post_id: str) -> Post | None:
        """The full post behind a shown entry (read from the source: entries hold cards)."""
        return self._source.post(post_id) if post_id in self._entries else None

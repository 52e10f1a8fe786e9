"""The calendar page's widgets: toolbar, filters, tray, the views' stack, empty state and legend.

What the month's first paint needs is built at once; the week and agenda views, the detail
panel and the "+N more" popup the first time they are asked for (their modules are imported
then too). Views follow the busy posts from `CalendarState` themselves; the selection is handed
to them by `SelectionFollower`, which re-applies it after every refill.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, tzinfo
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from app.calendar.grid import ViewKind
from app.calendar.post_card import AccountChoice, CardLabel
from ui.calendar.empty_state import EmptyState, empty_message
from ui.calendar.entries import Entry
from ui.calendar.filter_bar import FilterBar
from ui.calendar.legend import StatusLegend
from ui.calendar.month_view import MonthView
from ui.calendar.page_actions import CalendarActions
from ui.calendar.state import CalendarState
from ui.calendar.toolbar import CalendarToolbar, action_button, period_titles
from ui.calendar.tray import TrayPanel

if TYPE_CHECKING:
    from app.models import Post
    from ui.calendar.day_popup import DayPopup
    from ui.calendar.detail_panel import PostDetailPanel
    from ui.calendar.post_list_view import PostListView
    from ui.calendar.week_view import WeekView

NARROW_PAGE = 1120
"""Below this width the tray makes room while the detail panel is open."""
NOW_LINE_TICK_MS = 30_000

if TYPE_CHECKING:
    PostView = MonthView | PostListView | DayPopup


class Hooks(NamedTuple):
    """How the page hears from a widget built later (the same as from those built at once)."""

    post_view: Callable[[PostView | WeekView], None]
    grid: Callable[[MonthView | WeekView], None]
    close_detail: Callable[[], None]
    detail_built: Callable[[], None]


class PageWidgets:
    def __init__(
        self,
        page: QWidget,
        actions: CalendarActions,
        state: CalendarState,
        clock: tuple[Callable[[], date], Callable[[], datetime], tzinfo],
        hooks: Hooks,
    ) -> None:
        self._page = page
        self._actions = actions
        self._state = state
        self._today, self._now, self._tz = clock
        self._hooks = hooks
        self._week_view: WeekView | None = None
        self._agenda_view: PostListView | None = None
        self._detail: PostDetailPanel | None = None
        self._day_popup: DayPopup | None = None
        # Each widget is made inside its parent: adding a finished subtree to the styled page
        # re-styles all of it (the splitter with the tray and the month: ~1.7 ms at start).
        self.toolbar = CalendarToolbar(
            today=actions.today,
            previous=actions.previous,
            following=actions.next,
            views=actions.views(),
            parent=page,
        )
        self.tray_button = action_button(actions.tray, "trayToggle", parent=page)
        self.filter_bar = FilterBar(page)
        filter_row = QHBoxLayout()
        filter_row.setContentsMargins(0, 0, 0, 0)
        filter_row.setSpacing(10)
        filter_row.addWidget(self.tray_button)
        filter_row.addWidget(self.filter_bar, 1)
        self.filter_row = filter_row  # the bar for several picked posts takes the filters' place
        self.splitter = QSplitter(Qt.Orientation.Horizontal, page)
        self.tray = TrayPanel(self._today, self.splitter, list_built=hooks.post_view)
        # What floats over the views (the empty-state card, the posts' mirror list) is a child
        # of this host, not of the stack: a QStackedWidget shows only its pages to AT-SPI.
        self.views_host = QWidget(self.splitter)
        self.views_host.setObjectName("calendarViewsHost")
        self.stack = QStackedWidget(self.views_host)
        self.stack.setObjectName("calendarViews")
        host_layout = QVBoxLayout(self.views_host)
        host_layout.setContentsMargins(0, 0, 0, 0)
        host_layout.addWidget(self.stack)
        self.month_view = MonthView(self.stack)
        self._follow_busy(self.month_view)
        self.stack.addWidget(self.month_view)
        self.empty_state = EmptyState(self.views_host)
        self.legend = StatusLegend(page)

        self.splitter.setObjectName("calendarSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tray)
        self.splitter.addWidget(self.views_host)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([210, 900])

        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 10, 16, 8)
        layout.setSpacing(8)
        layout.addWidget(self.toolbar)
        layout.addLayout(filter_row)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.legend)

        self._now_timer = QTimer(page)
        self._now_timer.setInterval(NOW_LINE_TICK_MS)
        self._now_timer.timeout.connect(self._update_now_line)
        self._scroll_to_start = True
        hooks.post_view(self.month_view)
        hooks.grid(self.month_view)

    def _follow_busy(self, view: MonthView | WeekView) -> None:
        view.set_busy(self._state.busy_ids())
        self._state.busyChanged.connect(lambda *_: view.set_busy(self._state.busy_ids()))
        view.set_marked(self._state.marked)
        self._state.markedChanged.connect(view.set_marked)

    # -- built on first use ----------------------------------------------------------------
    @property
    def week_view(self) -> WeekView:
        if self._week_view is None:
            from ui.calendar.week_view import WeekView

            view = WeekView()
            self._hooks.post_view(view)
            self._hooks.grid(view)
            self._follow_busy(view)
            view.set_selected(self._state.selection)
            self.stack.addWidget(view)
            self._week_view = view
        return self._week_view

    @property
    def agenda_view(self) -> PostListView:
        if self._agenda_view is None:
            from ui.calendar.post_list_view import PostListView

            view = PostListView(self._today)
            view.setObjectName("agendaView")
            view.setAccessibleName("Agenda")
            self._hooks.post_view(view)
            view.set_selected(self._state.selection)
            self.stack.addWidget(view)
            self._agenda_view = view
        return self._agenda_view

    @property
    def detail(self) -> PostDetailPanel:
        if self._detail is None:
            from ui.calendar.detail_panel import PostDetailPanel

            panel = PostDetailPanel()
            panel.bind_actions(self._actions.post)
            panel.hide()
            panel.closeRequested.connect(self._hooks.close_detail)
            sizes = self.splitter.sizes()
            self.splitter.addWidget(panel)
            self.splitter.setStretchFactor(2, 0)
            self.splitter.setSizes([*sizes[:2], 340])
            self._detail = panel
            self._hooks.detail_built()
        return self._detail

    @property
    def day_popup(self) -> DayPopup:
        if self._day_popup is None:
            from ui.calendar.day_popup import DayPopup

            self._day_popup = DayPopup(self._today, self._page)
            self._hooks.post_view(self._day_popup)
        return self._day_popup

    def built_views(self) -> list[QWidget]:
        views: list[QWidget | None] = [self.month_view, self._week_view, self._agenda_view]
        return [view for view in views if view is not None]

    # -- showing ---------------------------------------------------------------------------
    def current_view(self) -> QWidget:
        kind = self._state.view
        if kind is ViewKind.WEEK:
            return self.week_view
        if kind is ViewKind.AGENDA:
            return self.agenda_view
        return self.month_view

    def scroll_to_start(self) -> None:
        """The next fill of the week or agenda view scrolls to its first post / its top."""
        self._scroll_to_start = True

    def show_period(self, days: list[date], visible: list[Entry]) -> None:
        today = self._today()
        anchor = self._state.anchor
        kind = self._state.view
        scroll = self._scroll_to_start
        self._scroll_to_start = False
        if kind is ViewKind.MONTH:
            self.month_view.set_month(anchor.year, anchor.month, today)
            self.month_view.set_entries(visible)
            self._now_timer.stop()
        elif kind is ViewKind.WEEK:
            zone = datetime.combine(days[3], datetime.min.time(), self._tz).tzname() or ""
            self.week_view.set_week(days, today, zone)
            self.week_view.set_entries(visible)
            self._update_now_line()
            self._now_timer.start()
            if scroll:
                self.week_view.scroll_to_first_post()
        else:
            from ui.calendar.post_list import agenda_rows

            self.agenda_view.set_rows(agenda_rows(visible, days, today), keep_scroll=not scroll)
            if scroll:
                self.agenda_view.scrollToTop()
            self._now_timer.stop()

    def _update_now_line(self) -> None:
        if self._week_view is None:
            return
        local = self._now().astimezone(self._tz)
        self._week_view.set_now(local.date(), local.hour * 60 + local.minute)

    def show_tray(self, drafts: list[Entry]) -> None:
        self.tray.show_entries(drafts)
        self._actions.tray.setText(f"Unscheduled · {len(drafts)}")

    def show_empty_state(self, visible: bool, has_drafts: bool) -> None:
        if visible:
            self.empty_state.hide()
            return
        period = self.toolbar.title.forms()[0]
        state = self._state
        message = empty_message(period, state.never_synced and not has_drafts, state.filter.active)
        self.empty_state.show_message(*message)

    def show_selection(self, post_id: str | None) -> None:
        for view in self.built_views():
            view.set_selected(post_id)  # type: ignore[attr-defined]
        self.tray.set_selected(post_id)

    def show_header(self, days: list[date]) -> None:
        anchor = self._state.anchor
        self.toolbar.set_title(period_titles(self._state.view, days, anchor))
        self.toolbar.set_jump_date(anchor)

    def show_choices(self, accounts: list[AccountChoice], labels: list[CardLabel]) -> None:
        """New filter choices; what stays chosen becomes the state's filter without a signal
        (the load that read the choices applies it)."""
        self.filter_bar.blockSignals(True)
        self.filter_bar.set_choices(accounts, labels)
        self.filter_bar.blockSignals(False)
        self._state.blockSignals(True)
        self._state.filter = self.filter_bar.current_filter()
        self._state.blockSignals(False)

    def show_detail(self, entry: Entry | None, post: Post | None) -> None:
        """What the detail panel shows, if it was built (it is filled when it is)."""
        if self._detail is not None:
            self._detail.show_entry(entry, post)
            self._detail.set_busy(entry is not None and self._state.is_busy(entry.id))

    def detail_is_open(self) -> bool:
        return self._detail is not None and not self._detail.isHidden()

    def set_detail_visible(self, visible: bool) -> None:
        if visible:
            self.detail.show()
        elif self._detail is not None:
            self._detail.hide()
        self.fit_panels()

    def reveal(self, entry: Entry) -> None:
        """A post opened from the palette may lie outside the week's visible hours: scroll to
        it. A post the user could click is left where it is (nothing moves under the cursor)."""
        if self._state.view is not ViewKind.WEEK or entry.local is None:
            return
        top, bottom = self.week_view.visible_minutes()
        if not top <= entry.minutes < bottom:
            self.week_view.scroll_to_minutes(entry.minutes)

    def fit_panels(self) -> None:
        """The tray is shown when the user wants it, unless a narrow page needs its room for
        the open detail panel."""
        crowded = self.detail_is_open() and self._page.width() < NARROW_PAGE
        self.tray.setVisible(self._actions.tray.isChecked() and not crowded)

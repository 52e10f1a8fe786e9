"""The calendar page: a thin controller between `CalendarState`, the loader and the widgets.

The page never calls the API. It reads posts through a `CalendarLoader`, and every change the
user asks for leaves as a signal (`PostFlows` asks first where needed); the shell performs it
and calls `show_posts()` / `forget_posts()` / `reload()` (and `set_busy()` while the write is in
flight). Day boundaries and times are computed in the display time zone (`app.calendar.grid`),
so DST days and zones far from the server's come out right.

What is shown (view, anchor, filter, selection, busy posts) lives in `self.state`; the page
follows its signals and hands the result to `PageWidgets`, which builds the week and agenda
views, the detail panel and the "+N more" popup the first time they are needed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, time, tzinfo
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QIcon, QResizeEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.calendar.grid import ViewKind, shift_anchor, visible_dates, visible_range
from app.calendar.post_card import card_of
from app.posts.lifecycle import PostAction
from ui import theme
from ui.action_spec import ActionSpec
from ui.assistive_tech import when_assistive_tech_listens
from ui.calendar.bulk_flow import BulkFlow
from ui.calendar.commands import calendar_specs
from ui.calendar.drag import DropTarget
from ui.calendar.entries import Entry
from ui.calendar.filters import PostFilter
from ui.calendar.keyboard import KeyboardWalk, ordered
from ui.calendar.loader import CalendarLoader
from ui.calendar.multi_select import MultiSelect
from ui.calendar.page_actions import CalendarActions, Navigation
from ui.calendar.page_widgets import Hooks, PageWidgets
from ui.calendar.post_flows import PostFlows, Requests, listened
from ui.calendar.selection import SelectedPost, SelectionFollower
from ui.calendar.source import CalendarSource
from ui.calendar.state import CalendarState
from ui.calendar.style import page_style
from ui.calendar.thumbnails import Thumbnails
from ui.calendar.timezone import system_time_zone
from ui.day_change import DayChangeTimer
from ui.locale_text import follow_locale_week

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

    from app.calendar.post_card import PostCard
    from app.models import Post
    from app.store import CacheChange
    from ui.calendar.accessible import PostMirror
    from ui.calendar.bulk_bar import BulkBar
    from ui.calendar.day_popup import DayPopup
    from ui.calendar.detail_panel import PostDetailPanel
    from ui.calendar.month_view import MonthView
    from ui.calendar.post_list_view import PostListView
    from ui.calendar.reschedule_dialog import RescheduleDialog
    from ui.calendar.week_view import WeekView
    from ui.session import WorkspaceSession

log = logging.getLogger(__name__)

FEW_CHANGES = 200
"""Up to this many changed posts, a sync's change is placed post by post (~1 ms for a few);
beyond, the period is read again, in slices (`REFRESH_SLICE_GAP_MS`)."""
REFRESH_SLICE_GAP_MS = 0
"""Between two slices of a big change's refresh (the filter's choices; the period a week at a
time; its month chips drawn ahead a few at a time; the period shown; the tray): the next turn of
the event loop, so input, paints and the sync's callbacks come in between. At once, a sync into
an empty cache (~1,300 posts read, ~100 chips drawn for the first time) held the GUI thread for
35-60 ms here and 75-130 ms on a machine where an empty window takes 286 ms to appear."""


class CalendarPage(QWidget):
    rescheduleRequested = Signal(str, object)  # post id, aware datetime (UTC)
    scheduleRequested = Signal(str, object)  # post id, aware datetime (UTC): draft → scheduled
    publishNowRequested = Signal(str)  # only after the user confirmed
    moveToDraftRequested = Signal(str)  # scheduled or failed → draft
    unscheduleRequested = Signal(str)  # older name of the above; see PostFlows.move_to_draft
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
        read_now: bool = True,
    ) -> None:
        """`read_now=False` leaves the page unread: its maker sets the real source (or calls
        `reload`) before the page is shown, instead of reading a stand-in source first."""
        super().__init__(parent)
        self.setObjectName("calendarPage")
        follow_locale_week()  # the grids' weeks start on the locale's first day
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(page_style())
        theme.on_change(self._restyle)
        self._tz: tzinfo = display_tz if display_tz is not None else system_time_zone()
        if now is None and today is not None:
            # A fixed day without a clock: the clock stands at the start of that day.
            fixed_day = today
            now = lambda: datetime.combine(fixed_day(), time(0), self._tz)  # noqa: E731
        self._now: Callable[[], datetime] = now or (lambda: datetime.now(UTC))
        self._today: Callable[[], date] = today or (lambda: self._now().astimezone(self._tz).date())
        self.state = state = CalendarState(self._today(), self)
        # Past midnight "Today" is the new day (issue 19 §5).
        self.day_change = DayChangeTimer(
            self._today, lambda: self._now().astimezone(self._tz), self
        )
        self.day_change.dayChanged.connect(self._day_changed)
        self.loader = CalendarLoader(source, state, self._tz, self._prepare_month, self)
        self._selected = SelectedPost(state, self.loader)
        requests = Requests(
            self.rescheduleRequested.emit,
            self.scheduleRequested.emit,
            self.publishNowRequested.emit,
            self.deleteRequested.emit,
            self.moveToDraftRequested.emit,
            self.unscheduleRequested.emit,
            self.editRequested.emit,
            self.duplicateRequested.emit,
            self.newPostRequested.emit,
            lambda: listened(self, self.moveToDraftRequested),
        )
        clock = (self._today, self._now, self._tz)
        self._flows = flows = PostFlows(self, self._selected, state, self.loader, clock, requests)
        go = Navigation(
            self.go_today,
            self.go_previous,
            self.go_next,
            self.set_view,
            self.focus_jump_to_date,
            self.open_detail,
            lambda: self.widgets.fit_panels(),
        )
        self.commands = commands = CalendarActions(self, go, flows)
        self.keyboard = KeyboardWalk(self)
        self._session: WorkspaceSession | None = None
        self.multi = MultiSelect(state, self.posts_in_order)
        self.bulk = BulkFlow(
            self,
            self.multi,
            lambda: self.loader.entries,
            lambda: self._session,
            self._tz,
            self._now,
        )
        self._bulk_bar: BulkBar | None = None
        state.markedChanged.connect(self._marked_changed)
        self._mirror: PostMirror | None = None
        when_assistive_tech_listens(self._assistive_tech_arrived)
        self.action_previous = commands.previous
        self.action_month = commands.month
        self.action_tray = commands.tray
        self.action_new = commands.new
        self.post_actions: dict[PostAction, QAction] = commands.post
        self.action_schedule = commands.post[PostAction.SCHEDULE]
        self.action_reschedule = commands.post[PostAction.RESCHEDULE]
        self.action_publish = commands.post[PostAction.PUBLISH_NOW]
        self.action_move_to_draft = commands.post[PostAction.MOVE_TO_DRAFT]
        self.action_edit = commands.post[PostAction.EDIT]
        self.action_duplicate = commands.post[PostAction.DUPLICATE]
        self.action_delete = commands.post[PostAction.DELETE]

        # Post images for the grids and the details; the open workspace downloads them.
        self.thumbnails = Thumbnails(parent=self)
        hooks = Hooks(
            self._connect_post_view,
            self._connect_grid,
            self.close_detail,
            self._detail_built,
        )
        self.widgets = widgets = PageWidgets(self, commands, state, clock, hooks)
        self.selection = SelectionFollower(
            self._selected,
            state,
            self.loader,
            widgets,
            self._selection_shown,
            self.postSelected.emit,
        )
        self.toolbar = widgets.toolbar
        self.filter_bar = widgets.filter_bar
        self.tray_button = widgets.tray_button
        self.month_view = widgets.month_view
        self.stack = widgets.stack
        self.empty_state = widgets.empty_state
        self.legend = widgets.legend
        self.tray = widgets.tray
        self.tray_title = widgets.tray.title
        self.tray_empty = widgets.tray.empty
        self.toolbar.dateChosen.connect(self.go_to)
        self.filter_bar.filterChanged.connect(self._filter_chosen)
        self.month_view.moreClicked.connect(self.show_more)
        self.empty_state.actionClicked.connect(self._empty_action)
        state.viewChanged.connect(self._view_changed)
        state.anchorChanged.connect(self._anchor_changed)
        state.filterChanged.connect(lambda _filter: self.reload())
        state.neverSyncedChanged.connect(lambda _never: self._update_empty_state())
        self._slices: Iterator[None] | None = None
        self._slice_timer = QTimer(self)
        self._slice_timer.setSingleShot(True)
        self._slice_timer.timeout.connect(self._refresh_slice)
        if read_now:
            self.reload()

    def _connect_post_view(self, view: MonthView | WeekView | PostListView | DayPopup) -> None:
        view.postClicked.connect(self._post_clicked)
        toggled = getattr(view, "postToggled", None)
        if toggled is not None:  # the grids and the agenda: Ctrl/Shift+click pick several
            toggled.connect(self.multi.toggle)
            view.postExtended.connect(self.multi.extend)  # type: ignore[union-attr]
        view.postActivated.connect(self._post_activated)
        if view.objectName() == "agendaView":  # not the tray's list (its posts have no day)
            from ui.calendar.post_list_view import PostListView

            assert isinstance(view, PostListView)
            view.picks_several = True
            view.set_marked(self.state.marked)
            self.state.markedChanged.connect(view.set_marked)

    def _post_clicked(self, post_id: str) -> None:
        self.multi.clicked(post_id)
        self.selection.clicked(post_id)

    def _post_activated(self, post_id: str) -> None:
        self.selection.activated(post_id)

    def _selection_shown(self, entry: Entry | None) -> None:
        self.commands.follow_selection(entry, self._selected.can)
        self.follow_for_assistive_tech(entry)

    def _connect_grid(self, grid: MonthView | WeekView) -> None:
        grid.dayActivated.connect(self.newPostRequested)
        grid.dayClicked.connect(lambda _day: self.select_post(None))
        grid.moveRequested.connect(self.move_post)
        if hasattr(grid, "more_rects"):  # the week: "+N" of a crowded hour opens its list
            grid.moreClicked.connect(self._show_cluster)
        self._use_thumbnails(grid)

    def _use_thumbnails(self, view: QWidget) -> None:
        """A view that shows post images offers `set_thumbnails(source)` and repaints on
        `thumbnails_changed()` (month, week, details)."""
        use = getattr(view, "set_thumbnails", None)
        repaint = getattr(view, "thumbnails_changed", None)
        if use is not None and repaint is not None:
            use(self.thumbnails)
            self.thumbnails.changed.connect(repaint)

    def _detail_built(self) -> None:
        self._use_thumbnails(self.widgets.detail)
        self.selection.refresh()

    def _show_cluster(self, day: date, entries: list[Entry], anchor: QPoint) -> None:
        self.day_popup.show_day(day, entries, anchor, self.state.selection)

    # -- actions ---------------------------------------------------------------------------
    def action_specs(self) -> list[ActionSpec]:
        """The calendar's commands for the shell's registry, scoped to the calendar page: the
        one place their keys are defined (the page's QActions, shown by its buttons, have none)."""
        return calendar_specs(self)

    # -- widgets built on first use --------------------------------------------------------
    @property
    def week_view(self) -> WeekView:
        return self.widgets.week_view

    @property
    def agenda_view(self) -> PostListView:
        return self.widgets.agenda_view

    @property
    def detail(self) -> PostDetailPanel:
        return self.widgets.detail

    @property
    def day_popup(self) -> DayPopup:
        return self.widgets.day_popup

    @property
    def tray_list(self) -> PostListView:
        """The tray's list (built after the tray's first paint, or here when asked first)."""
        return self.widgets.tray.list

    def built_views(self) -> list[QWidget]:
        """The views built so far (the others are made when first shown)."""
        return self.widgets.built_views()

    # -- public API ------------------------------------------------------------------------
    @property
    def display_tz(self) -> tzinfo:
        return self._tz

    @property
    def source(self) -> CalendarSource:
        return self.loader.source

    # -- assistive technology --------------------------------------------------------------
    def follow_for_assistive_tech(self, entry: Entry | None, *, force: bool = False) -> None:
        """The grid's name says the selected post; the mirror list holds the shown posts (both
        only while an assistive technology listens, or when `force`d)."""
        from PySide6.QtGui import QAccessible

        if not (force or QAccessible.isActive()):
            return
        from ui.calendar.accessible import PostMirror, announce

        kind = self.state.view
        if kind is ViewKind.AGENDA:  # a list already, item by item
            if self._mirror is not None:
                self._mirror.hide()
            return
        view = self.month_view if kind is ViewKind.MONTH else self.week_view
        announce(view, "Month calendar" if kind is ViewKind.MONTH else "Week calendar", entry)
        if self._mirror is None:
            self._mirror = PostMirror(self.widgets.views_host, self.select_post)
        self._mirror.show()
        self._mirror.raise_()
        posts = self.posts_in_order()
        self._mirror.refresh(posts, entry.id if entry else None, force=True)

    def post_mirror(self) -> PostMirror | None:
        return self._mirror

    def _assistive_tech_arrived(self) -> None:
        # The month shown before the screen reader came (at start: always) gets its mirror.
        selected = self.state.selection
        self.follow_for_assistive_tech(self.entry(selected) if selected else None)

    def _restyle(self, _theme: theme.Theme) -> None:
        self.setStyleSheet(page_style())

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

    def today(self) -> date:
        return self._today()

    def _day_changed(self, old: date, new: date) -> None:
        # A page left on the old today follows the day; any other period stays, re-marked.
        if self.state.anchor == old:
            self.go_to(new)
        else:
            self.reload()

    def go_today(self) -> None:
        self.go_to(self._today())

    def go_next(self) -> None:
        self.go_to(shift_anchor(self.state.view, self.state.anchor, 1))

    def go_previous(self) -> None:
        self.go_to(shift_anchor(self.state.view, self.state.anchor, -1))

    def focus_jump_to_date(self) -> None:
        self.toolbar.open_date_picker()

    def set_source(self, source: CalendarSource) -> None:
        """Show another workspace's posts (the selection belongs to the old one)."""
        self.loader.set_source(source)
        self.state.selection = None
        for post_id in self.state.busy_ids():
            self.state.set_busy(post_id, False)
        self.widgets.set_detail_visible(False)
        self.reload()

    def set_session(self, session: WorkspaceSession | None) -> None:
        """The page's side of opening a workspace: its cache becomes the source, its write
        gate's busy posts are shown (the shell leaves that to a page with `set_session`), and
        actions on several posts are written through it."""
        if self._session is not None and self._session is not session:
            with contextlib.suppress(RuntimeError, TypeError):  # never connected: nothing to undo
                self._session.writes.busyChanged.disconnect(self.set_busy)
        if session is not None and session is not self._session:
            session.writes.busyChanged.connect(self.set_busy)
            for post_id in session.writes.busy_keys():
                self.set_busy(post_id, True)
        self._session = session
        self.thumbnails.set_source(session.thumbnail_cache if session is not None else None)
        if session is not None and self.loader.source is not session.cache:
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

    def show_change(self, change: CacheChange) -> None:
        """What a sync changed in the source, shown like a write's answer (`show_posts`):
        only those posts' chips move, come or go. The whole period is read again instead when
        the accounts or labels changed (the filter lists) or when so many posts changed that
        one read is cheaper than placing them one by one: in slices of a few ms each, the
        period's chips first (`refresh_pending()` until the last one); what is shown meanwhile
        is the state before the change, whole. The first slice runs at once (a source that
        cannot be read fails here, as a reload does)."""
        big = change.lists or len(change.cards) + len(change.gone) > FEW_CHANGES
        if big or self._slices is not None:
            # A change while slices are under way: they may have read past its posts already.
            self._slices = self._refresh_slices()
            self._slice_timer.stop()
            self._refresh_slice(first=True)
            return
        self.loader.read_sync_mark()  # a first sync ends "Not synced yet"
        self._apply_cards(list(change.cards), change.gone)

    def refresh_pending(self) -> bool:
        """Whether a big change (`show_change`) is still being read and drawn in slices."""
        return self._slices is not None

    def select_post(self, post_id: str | None) -> None:
        self.selection.select(post_id)

    def select_and_reveal(self, post_id: str) -> None:
        """Select a post and scroll the week to it if it lies outside the hours shown."""
        self.select_post(post_id)
        entry = self.entry(post_id)
        if entry is not None:
            self.widgets.reveal(entry)

    def posts_in_order(self) -> list[Entry]:
        """The shown period's posts in time order (the arrows' and Shift+click's order)."""
        return ordered(self.loader.visible, self.visible_dates())

    def move_picked(self, days: int, minutes: int) -> bool:
        """Move the picked posts (False, nothing done, when fewer than two are picked)."""
        if not self.bulk.active():
            return False
        self.bulk.move(days, minutes)
        return True

    def open_detail(self) -> None:
        self.selection.open_detail()

    def close_detail(self) -> None:
        self.widgets.set_detail_visible(False)
        self.widgets.current_view().setFocus()

    def detail_is_open(self) -> bool:
        return self.widgets.detail_is_open()

    def request_delete(self) -> None:
        """Ask before deleting; `deleteRequested` is emitted only when the user confirmed."""
        self._flows.request_delete()

    def request_publish_now(self) -> None:
        """Ask first, naming where it goes; `publishNowRequested` only when the user confirmed."""
        self._flows.request_publish_now()

    def destinations_text(self, post_id: str) -> str:
        """Where a post goes: "LinkedIn (Maya Chen) and X (@northwind)"."""
        return self._flows.destinations_text(post_id)

    def delete_confirmation(self) -> QMessageBox | None:
        return self._flows.delete_box

    def publish_confirmation(self) -> QMessageBox | None:
        return self._flows.publish_box

    def reschedule_dialog(self) -> RescheduleDialog | None:
        return self._flows.time_dialog

    def move_post(self, post_id: str, target: DropTarget) -> None:
        """A post dropped on a day (month) or a slot (week): ask to reschedule it there. A
        picked post takes the other picked posts along by as much."""
        entry = self.loader.entries.get(post_id)
        if post_id in self.state.marked and self.bulk.active() and entry and entry.day:
            days = (target.day - entry.day).days
            minutes = target.minutes - entry.minutes if target.minutes is not None else 0
            self.bulk.move(days, minutes)
            return
        self._flows.move_post(post_id, target)

    def show_more(self, day: date) -> None:
        entries = self.month_view.entries_on(day)
        rect = self.month_view.more_rect(day)
        anchor = self.month_view.mapToGlobal(rect.bottomLeft() + QPoint(0, 2))
        self.day_popup.show_day(day, entries, anchor, self.state.selection)

    def entry(self, post_id: str) -> Entry | None:
        return self.loader.entries.get(post_id)

    def post(self, post_id: str) -> Post | None:
        """The full post behind a shown entry (read from the source: entries hold cards)."""
        return self.loader.source.post(post_id) if post_id in self.loader.entries else None

    def can(self, kind: PostAction) -> bool:
        """Whether the selected post offers `kind` now (allowed by its status, not busy)."""
        return self._selected.can(kind)

    # -- loading ---------------------------------------------------------------------------
    def _load(self, *, whole: bool) -> None:
        if self._slices is not None:  # a big change not shown yet: this load shows it all
            self._slices = None
            self._slice_timer.stop()
            whole = True
        if whole:
            choices = self.loader.read_choices()
            if choices is not None:
                self.widgets.show_choices(*choices)
        new_period = self.loader.read(whole=whole)
        self._show_loaded()
        if new_period:
            self.visibleRangeChanged.emit(*self.loader.period())

    def _show_loaded(self) -> None:
        self.widgets.show_period(self.visible_dates(), self.loader.visible)
        self.widgets.show_tray(self.loader.drafts)
        self.widgets.show_header(self.visible_dates())
        self._after_load()
        self._update_empty_state()

    def _apply_cards(self, cards: list[PostCard], gone: Iterable[str]) -> None:
        if self._slices is not None:  # the source holds these too: read it all now
            self.reload()
            return
        change = self.loader.apply(cards, gone)
        if self.state.view is not ViewKind.MONTH or change.tray_changed:
            self._show_loaded()
        else:  # the month's common case (a post moved, its status changed): only its days
            self.month_view.change_entries(change.removed, change.added)
            self._after_load()
            self._update_empty_state()

    def _after_load(self) -> None:
        self.selection.after_load()
        self.multi.keep_shown()

    # -- several posts ---------------------------------------------------------------------
    def select_all(self) -> None:
        """Ctrl+A: every post of the shown period that the filter lets through."""
        self.multi.select_all()

    def picks_several(self) -> bool:
        """Whether several posts are picked (Ctrl/Shift+click, Ctrl+A)."""
        return bool(self.state.marked)

    def escape(self) -> None:
        """Esc: a multi-selection is dropped first, then the details close."""
        if self.picks_several():
            self.multi.clear()
        else:
            self.close_detail()

    def bulk_bar(self) -> BulkBar:
        if self._bulk_bar is None:
            from ui.calendar.bulk_bar import BulkBar, BulkReportView

            bar = BulkBar(self._label_choices, self)
            bar.hide()
            # In the filters' row, in their place while shown: the grid does not move under
            # the pointer of a Ctrl+click.
            self.widgets.filter_row.insertWidget(2, bar, 1)
            bar.shownChanged.connect(lambda shown: self.filter_bar.setVisible(not shown))
            report = BulkReportView(self)
            layout = self.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.insertWidget(2, report)  # under the row: after a run, not under a click
            self.bulk.attach(bar, report)
            self._bulk_bar = bar
        return self._bulk_bar

    def _label_choices(self) -> list[tuple[str, str, QIcon]]:
        combo = self.filter_bar.label_combo
        return [
            (combo.itemData(index), combo.itemText(index), combo.itemIcon(index))
            for index in range(combo.count())
            if isinstance(combo.itemData(index), str)
        ]

    def _marked_changed(self, marked: frozenset[str]) -> None:
        if marked or self._bulk_bar is not None:
            self.bulk_bar().show_count(len(marked))

    def _prepare_month(self, anchor: date, entries: list[Entry]) -> Iterator[None]:
        return self.month_view.prepare(anchor.year, anchor.month, entries)

    def _refresh_slice(self, *, first: bool = False) -> None:
        """One slice of a big change's refresh; the next one is queued after it."""
        if self._slices is None:
            return
        try:
            next(self._slices)
        except StopIteration:
            self._slices = None
            return
        except Exception:
            self._slices = None
            if first:
                raise  # as a reload would (the shell reports an unreadable cache)
            log.exception("the calendar could not show a sync's change; the next reload will")
            return
        self._slice_timer.start(REFRESH_SLICE_GAP_MS)

    def _refresh_slices(self) -> Iterator[None]:
        """`reload()` in slices: the filter's choices; the period a week at a time; in the
        month view its chips drawn ahead into the chip cache a few at a time; then the period
        shown (its chips only copied) with the loader's state switched at once; then the tray.
        The neighbouring months' head start is made again afterwards (their posts changed)."""
        loader = self.loader
        choices = loader.read_choices()
        if choices is not None:
            self.widgets.show_choices(*choices)
        yield
        visible: list[Entry] = []
        for part in loader.read_parts():
            visible += part
            yield
        if self.state.view is ViewKind.MONTH:
            anchor = self.state.anchor
            yield from self.month_view.prepare(anchor.year, anchor.month, visible)
            yield
        new_period = loader.take(visible)
        self.widgets.show_period(self.visible_dates(), loader.visible)
        self.widgets.show_header(self.visible_dates())
        self._after_load()
        self._update_empty_state()
        if new_period:
            self.visibleRangeChanged.emit(*loader.period())
        yield
        self.widgets.show_tray(loader.drafts)
        self._after_load()  # a selected draft is found in the tray's list again
        loader.prefetch_again()

    # -- state → widgets -------------------------------------------------------------------
    def _view_changed(self, kind: ViewKind) -> None:
        self.commands.check_view(kind)
        self.stack.setCurrentWidget(self.widgets.current_view())
        self.widgets.scroll_to_start()
        self.reload()

    def _anchor_changed(self, _day: date) -> None:
        self.widgets.scroll_to_start()
        self._load(whole=False)

    def _filter_chosen(self, wanted: PostFilter) -> None:
        self.state.filter = wanted

    def _update_empty_state(self) -> None:
        self.widgets.show_empty_state(bool(self.loader.visible), bool(self.loader.drafts))

    def _empty_action(self) -> None:
        if self.state.filter.active:
            self.filter_bar.clear()
        else:
            self._flows.new_post()

    # -- layout ----------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.widgets.fit_panels()

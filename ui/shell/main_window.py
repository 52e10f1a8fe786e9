"""The main window: a sidebar of sections, the current page, the message toast and a status bar.

The toast floats over the bottom of the page area: it never moves the page, so a click aimed at a
button lands on that button whether or not a message is showing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QPaintEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.workspaces.plain_http import clear_text_warning
from ui.messages import Banner, Message, MessageBridge
from ui.sections import SECTIONS
from ui.shell.page_contract import KeepsClear
from ui.shell.status import (
    NOT_CONNECTED,
    SYNC_TOOLTIP,
    connection_text,
    last_sync_text,
    utc_now,
    workspace_text,
)

if TYPE_CHECKING:
    from app.sync.state import SyncState

MENU_ORDER = ("File", "View", "Go", "Post", "Workspace", "Help")
"""The menu bar's menus, made with the window (empty) so that it paints at its final size;
the action registry fills them once the rest of the app has loaded."""
PREFERRED_SIZE = (1360, 860)
MINIMUM_SIZE = (1024, 640)
WINDOW_FRAME_ALLOWANCE = 48
"""Room left for the window manager's title bar and borders, not known before the first show."""
CLOCK_TICK_MS = 10_000
"""How often "Today: 20 s ago" is rewritten (its finest step is ten seconds)."""
TOAST_MARGIN = 16
TOAST_MAX_WIDTH = 760


def fitted_size(preferred: tuple[int, int], available: tuple[int, int] | None) -> tuple[int, int]:
    """The preferred window size, made smaller (never below the minimum) so that the whole
    window, title bar included, fits a smaller screen such as a 1366x768 laptop's."""
    if available is None:
        return preferred
    width = min(preferred[0], available[0])
    height = min(preferred[1], available[1] - WINDOW_FRAME_ALLOWANCE)
    return max(width, MINIMUM_SIZE[0]), max(height, MINIMUM_SIZE[1])


def _available_area() -> tuple[int, int] | None:
    # The offscreen platform's pretend 800x600 screen would shrink screenshots and tests to the
    # minimum size: there is no screen to fit there.
    if QGuiApplication.platformName() == "offscreen":
        return None
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return None
    area = screen.availableGeometry()
    return area.width(), area.height()


class Sidebar(QListWidget):
    """The section list without type-ahead: letters belong to the page's shortcuts."""

    def keyboardSearch(self, search: str) -> None:
        return None


class MainWindow(QMainWindow):
    closing = Signal()
    firstPainted = Signal()
    sectionChanged = Signal(str)
    retryNowRequested = Signal()

    def __init__(
        self,
        messages: MessageBridge,
        parent: QWidget | None = None,
        *,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Postdesk")
        self.resize(*fitted_size(PREFERRED_SIZE, _available_area()))
        self.setMinimumSize(*MINIMUM_SIZE)
        self.messages = messages
        self.clock = clock
        self.painted = False
        """Whether the window has been on screen; slow start-up work waits for it."""
        # Each widget is made inside its parent: adding a finished subtree to a styled window
        # re-styles all of it (~1.5 ms each for the sidebar and the page area, at start).
        body = QWidget(self)
        self.sidebar = Sidebar(body)
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName("Sections")
        self.sidebar.setFixedWidth(180)
        self._sidebar_column: QVBoxLayout | None = None  # made by `add_under_sidebar`
        self.page_area = QWidget(body)
        self.pages = QStackedWidget(self.page_area)
        self._section_pages: dict[str, QWidget] = {}
        self._page_builders: dict[str, Callable[[QWidget], QWidget]] = {}
        for name in SECTIONS:
            item = QListWidgetItem(name.capitalize())
            item.setData(Qt.ItemDataRole.UserRole, name)
            self.sidebar.addItem(item)
            placeholder = QLabel("Loading…", self.pages)
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._section_pages[name] = placeholder
            self.pages.addWidget(placeholder)
        self.sidebar.currentRowChanged.connect(self._show_row)

        column = QVBoxLayout(self.page_area)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.pages, 1)
        self.banner = Banner(self.page_area)  # not in the layout: it floats
        self.banner.changed.connect(self._place_banner)
        self.page_area.installEventFilter(self)
        messages.posted.connect(self._show_message)
        messages.withdrawn.connect(self.banner.withdraw)
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        row.addWidget(self.page_area, 1)
        self.setCentralWidget(body)

        bar = self.menuBar()
        for name in MENU_ORDER:
            bar.addMenu(f"&{name}").setObjectName(f"menu{name}")

        self.workspace_label = QLabel("No workspace")
        # "Connecting…" only once a workspace is opened: a first run has nothing to connect to.
        self.connection_label = QLabel(NOT_CONNECTED)
        self.sync_label = QLabel("Never synced")
        # Shown only while a server's Retry-After holds the workspace (issue 19 §3).
        self.retry_now_button = QPushButton("Retry now")
        self.retry_now_button.setAccessibleName("Retry now")
        self.retry_now_button.setToolTip("End the wait the server asked for and try again now")
        self.retry_now_button.setVisible(False)
        self.retry_now_button.clicked.connect(self.retryNowRequested)
        self.statusBar().addPermanentWidget(self.workspace_label)
        self.statusBar().addPermanentWidget(self.connection_label)
        self.statusBar().addPermanentWidget(self.retry_now_button)
        self.statusBar().addPermanentWidget(self.sync_label)
        self._last_state: SyncState | None = None
        self._last_sync_at: datetime | None = None
        self._last_full_sync_at: datetime | None = None
        self.sync_label.setToolTip(SYNC_TOOLTIP)
        # "N min ago" ages even when nothing syncs.
        self.status_clock = QTimer(self)
        self.status_clock.setInterval(CLOCK_TICK_MS)
        self.status_clock.timeout.connect(self.refresh_sync_label)
        self.status_clock.start()
        # While rate limited, the wait counts down each second.
        self._retry_deadline: float | None = None
        self.countdown = QTimer(self)
        self.countdown.setInterval(1000)
        self.countdown.timeout.connect(self._show_connection)
        self.sidebar.setCurrentRow(0)

    # -- sections ---
    def set_page(self, name: str, widget: QWidget) -> None:
        self._page_builders.pop(name, None)
        old = self._section_pages[name]
        index = self.pages.indexOf(old)
        self.pages.insertWidget(index, widget)
        self.pages.removeWidget(old)
        old.deleteLater()
        self._section_pages[name] = widget
        if self.sidebar.currentRow() == index:
            self.pages.setCurrentIndex(index)

    def set_page_builder(self, name: str, build: Callable[[QWidget], QWidget]) -> None:
        """Build the page, as `build(parent)`, when its section is first shown or asked for
        (`page`): start-up then spends no time on pages that are not on screen."""
        self._page_builders[name] = build
        if self.current_section() == name:
            self.page(name)

    def page(self, name: str) -> QWidget:
        build = self._page_builders.pop(name, None)
        if build is not None:
            self.set_page(name, build(self.pages))
        return self._section_pages[name]

    def add_under_sidebar(self, widget: QWidget) -> None:
        """A control under the sections, as wide as the sidebar (the "Needs attention" entry):
        added once the app has loaded, so the first paint makes none of it."""
        column = self._sidebar_column
        if column is None:
            body = self.centralWidget()
            row = body.layout() if body is not None else None
            assert isinstance(row, QHBoxLayout)
            index = row.indexOf(self.sidebar)
            row.removeWidget(self.sidebar)
            column = QVBoxLayout()
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(0)
            column.addWidget(self.sidebar, 1)
            row.insertLayout(index, column)
            self._sidebar_column = column
        widget.setFixedWidth(self.sidebar.width())
        column.addWidget(widget)

    def sections(self) -> tuple[str, ...]:
        return SECTIONS

    def built_page(self, name: str) -> QWidget | None:
        """The page if it exists already (never builds it)."""
        return None if name in self._page_builders else self._section_pages[name]

    def _show_row(self, row: int) -> None:
        if row >= 0:
            self.page(SECTIONS[row])
        self.pages.setCurrentIndex(row)
        self._place_banner()  # the new page may keep another part of the window clear
        if row >= 0:
            self.sectionChanged.emit(SECTIONS[row])

    def show_section(self, name: str) -> None:
        self.sidebar.setCurrentRow(SECTIONS.index(name))

    def current_section(self) -> str:
        return SECTIONS[self.sidebar.currentRow()]

    # -- status ---
    def set_workspace_name(self, name: str, base_url: str = "") -> None:
        """`base_url`: an http:// one off this computer is said beside the name."""
        self.workspace_label.setText(workspace_text(name, base_url))
        self.workspace_label.setToolTip(clear_text_warning(base_url))
        self.setWindowTitle(f"{name} — Postdesk")
        if self._last_state is None and self.connection_label.text() == NOT_CONNECTED:
            self._show_connection()

    def show_sync_state(self, state: SyncState | None) -> None:
        self._last_state = state
        if state is not None:
            self._last_sync_at = state.last_sync_at
            self._last_full_sync_at = state.last_full_sync_at
        limited = state is not None and state.phase == "rate_limited" and bool(state.retry_in)
        if limited and state is not None and state.retry_in:
            self._retry_deadline = time.monotonic() + state.retry_in
            self.countdown.start()
        else:
            self._retry_deadline = None
            self.countdown.stop()
        self.retry_now_button.setVisible(
            state is not None and (state.phase == "rate_limited" or state.kind == "rate_limited")
        )
        tips = [state.unreadable_summary()] if state is not None and state.unreadable else []
        if state is not None and state.clock_warning:
            tips.append(state.clock_warning)
        self.connection_label.setToolTip("\n".join(tips))
        self._show_connection()
        self.refresh_sync_label()

    def _show_connection(self) -> None:
        left = None
        if self._retry_deadline is not None:
            left = max(0.0, self._retry_deadline - time.monotonic())
            if left <= 0:
                self.countdown.stop()
        self.connection_label.setText(connection_text(self._last_state, left))

    def show_saved_sync(self, when: datetime | None, everything: datetime | None = None) -> None:
        """When the opened workspace's saved data was last synced (before any sync this run):
        `when` the last refresh of any kind, `everything` the last full one."""
        self._last_sync_at = when
        self._last_full_sync_at = everything
        self.refresh_sync_label()

    def show_connection_text(self, text: str) -> None:
        """A connection state no sync reported (e.g. no key to connect with)."""
        self.connection_label.setText(text)

    def refresh_sync_label(self) -> None:
        self.sync_label.setText(
            last_sync_text(self._last_sync_at, self.clock(), self._last_full_sync_at)
        )

    # -- messages ---
    def _show_message(self, message: Message) -> None:
        self.banner.show_message(message)

    def _place_banner(self) -> None:
        banner = self.banner
        if banner.isHidden():
            return
        area = self.page_area.rect()
        width = min(TOAST_MAX_WIDTH, max(area.width() - 2 * TOAST_MARGIN, 200))
        height = banner.heightForWidth(width)
        if height <= 0:
            height = banner.sizeHint().height()
        x = area.left() + (area.width() - width) // 2
        y = area.bottom() - height - TOAST_MARGIN
        if self._covers_kept_clear(QRect(x, y, width, height)):
            y = area.top() + TOAST_MARGIN  # e.g. the composer's send button is at the bottom
        banner.setGeometry(x, y, width, height)
        banner.raise_()

    def _covers_kept_clear(self, toast: QRect) -> bool:
        """Whether the toast would hide a control the current page asks to keep in sight
        (the page's `keep_clear()`, `ui.shell.page_contract.KeepsClear`)."""
        page = self.pages.currentWidget()
        if not isinstance(page, KeepsClear):
            return False
        for widget in page.keep_clear():
            if widget.isVisible():
                corner = widget.mapTo(self.page_area, QPoint(0, 0))
                if toast.intersects(QRect(corner, widget.size())):
                    return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.page_area and event.type() == QEvent.Type.Resize:
            self._place_banner()
        return super().eventFilter(watched, event)

    # -- window ---
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            self.firstPainted.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        from ui.quit_guard import quit_guard

        # The window's close button asks like Ctrl+Q when text would be lost; the app's own
        # close() at the end of a confirmed quit is not spontaneous and goes through.
        if event.spontaneous() and not quit_guard().ask_or_go(self, self.closing.emit):
            event.ignore()
            return
        self.closing.emit()
        super().closeEvent(event)

"""The main window: a sidebar of sections, the current page, the message banner and a status bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ui.messages import Banner, Message, MessageBridge
from ui.sections import SECTIONS
from ui.shell.status import connection_text, last_sync_text

if TYPE_CHECKING:
    from app.sync.state import SyncState


class MainWindow(QMainWindow):
    closing = Signal()
    firstPainted = Signal()

    def __init__(self, messages: MessageBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Postdesk")
        self.resize(1360, 860)
        self.messages = messages
        self.painted = False
        """Whether the window has been on screen; slow start-up work waits for it."""
        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setFixedWidth(180)
        self.pages = QStackedWidget()
        self.banner = Banner()
        messages.posted.connect(self._show_message)
        self._section_pages: dict[str, QWidget] = {}
        self._page_builders: dict[str, Callable[[QWidget], QWidget]] = {}
        for index, name in enumerate(SECTIONS):
            item = QListWidgetItem(name.capitalize())
            item.setData(Qt.ItemDataRole.UserRole, name)
            self.sidebar.addItem(item)
            placeholder = QLabel("Loading…")
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._section_pages[name] = placeholder
            self.pages.addWidget(placeholder)
            self._add_section_shortcut(index, name)
        self.sidebar.currentRowChanged.connect(self._show_row)

        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.banner)
        column.addWidget(self.pages, 1)
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        row.addWidget(content, 1)
        self.setCentralWidget(body)

        self.workspace_label = QLabel("No workspace")
        self.connection_label = QLabel("Connecting…")
        self.sync_label = QLabel("Never synced")
        for label in (self.workspace_label, self.connection_label, self.sync_label):
            self.statusBar().addPermanentWidget(label)
        self._last_state: SyncState | None = None
        # The "N min ago" text ages even when nothing syncs.
        self._clock = QTimer(self)
        self._clock.setInterval(30_000)
        self._clock.timeout.connect(self._refresh_sync_label)
        self._clock.start()
        self.sidebar.setCurrentRow(0)

    def _add_section_shortcut(self, index: int, name: str) -> None:
        action = QAction(f"Go to {name.capitalize()}", self)
        action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
        action.triggered.connect(lambda: self.show_section(name))
        self.addAction(action)

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

    def _show_row(self, row: int) -> None:
        if row >= 0:
            self.page(SECTIONS[row])
        self.pages.setCurrentIndex(row)

    def show_section(self, name: str) -> None:
        self.sidebar.setCurrentRow(SECTIONS.index(name))

    def current_section(self) -> str:
        return SECTIONS[self.sidebar.currentRow()]

    # -- status ---
    def set_workspace_name(self, name: str) -> None:
        self.workspace_label.setText(f"Workspace: {name}")
        self.setWindowTitle(f"{name} — Postdesk")

    def show_sync_state(self, state: SyncState) -> None:
        self._last_state = state
        self.connection_label.setText(connection_text(state))
        self._refresh_sync_label()

    def _refresh_sync_label(self) -> None:
        state = self._last_state
        self.sync_label.setText(last_sync_text(state.last_sync_at if state else None))

    def _show_message(self, message: Message) -> None:
        self.banner.show_message(message)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            self.firstPainted.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closing.emit()
        super().closeEvent(event)

"""The calendar page's QActions: navigation, views, the tray toggle and the post actions.

Buttons (toolbar, detail panel) show these very actions, so a button and a key run one handler
and are enabled together. Their keys work while the page has focus until the shell's registry
takes them over (`hand_keys_to_registry`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QWidget

from app.calendar.grid import ViewKind
from app.posts.lifecycle import PostAction, action_text
from ui.calendar.entries import Entry

if TYPE_CHECKING:
    from ui.calendar.page import CalendarPage
    from ui.calendar.post_flows import PostFlows

Slot = Callable[[], object]
Keys = list[QKeySequence | QKeySequence.StandardKey | str] | None


class CalendarActions:
    def __init__(self, page: CalendarPage, flows: PostFlows) -> None:
        self._owner: QWidget = page
        self._registry_keys = False
        key = Qt.Key
        ctrl = Qt.KeyboardModifier.ControlModifier
        self.today = self._action("Today", ["T"], page.go_today, tip="Go to today (T)")
        self.previous = self._action(
            "Previous",
            [QKeySequence(ctrl | key.Key_Left), QKeySequence(key.Key_PageUp)],
            page.go_previous,
            tip="Previous period (Ctrl+Left, PgUp)",
        )
        self.next = self._action(
            "Next",
            [QKeySequence(ctrl | key.Key_Right), QKeySequence(key.Key_PageDown)],
            page.go_next,
            tip="Next period (Ctrl+Right, PgDown)",
        )
        self.month = self._action(
            "Month", ["M"], lambda: page.set_view("month"), tip="Month view (M)"
        )
        self.week = self._action("Week", ["W"], lambda: page.set_view("week"), tip="Week view (W)")
        self.agenda = self._action(
            "Agenda", ["A"], lambda: page.set_view("agenda"), tip="Agenda view (A)"
        )
        self._view_group = QActionGroup(page)
        self._view_group.setExclusive(True)
        for action in (self.month, self.week, self.agenda):
            action.setCheckable(True)
            self._view_group.addAction(action)
        self.month.setChecked(True)
        self.jump = self._action("Jump to date…", ["Ctrl+G"], page.focus_jump_to_date)
        self.open = self._action(
            "Open details",
            [QKeySequence(key.Key_Return), QKeySequence(key.Key_Enter)],
            page.open_detail,
        )
        self.tray = self._action(
            "Unscheduled",
            None,
            lambda: page.widgets.fit_panels(),
            tip="Show or hide the posts without a date",
        )
        self.tray.setCheckable(True)
        self.tray.setChecked(True)
        self.new = self._action("New post", None, flows.new_post)
        self.post: dict[PostAction, QAction] = {
            PostAction.SCHEDULE: self._action("Schedule", None, flows.schedule),
            PostAction.EDIT: self._action("Edit", None, flows.edit),
            PostAction.RESCHEDULE: self._action("Reschedule…", None, flows.reschedule),
            PostAction.PUBLISH_NOW: self._action("Publish now…", None, flows.request_publish_now),
            PostAction.MOVE_TO_DRAFT: self._action("Move back to draft", None, flows.move_to_draft),
            PostAction.DUPLICATE: self._action("Duplicate", None, flows.duplicate),
            PostAction.DELETE: self._action(
                "Delete…", [QKeySequence(key.Key_Delete)], flows.request_delete
            ),
        }

    def _action(self, text: str, shortcuts: Keys, slot: Slot, *, tip: str = "") -> QAction:
        action = QAction(text, self._owner)
        if shortcuts:
            action.setShortcuts([QKeySequence(key) for key in shortcuts])
        # Single-letter shortcuts must only fire while the calendar has focus.
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        if tip:
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self._owner.addAction(action)
        return action

    def views(self) -> list[QAction]:
        return [self.month, self.week, self.agenda]

    def check_view(self, kind: ViewKind) -> None:
        {ViewKind.MONTH: self.month, ViewKind.WEEK: self.week, ViewKind.AGENDA: self.agenda}[
            kind
        ].setChecked(True)

    def follow_selection(self, entry: Entry | None, can: Callable[[PostAction], bool]) -> None:
        """Enable what the selected post (`entry`, None when nothing is selected) offers now."""
        for kind, action in self.post.items():
            action.setEnabled(can(kind))
        self.post[PostAction.EDIT].setText(
            action_text(PostAction.EDIT, entry.status if entry else None)
        )
        self.open.setEnabled(entry is not None)

    def hand_keys_to_registry(self) -> None:
        """The registry binds the keys from then on, window-wide: an ambiguous shortcut (bound
        twice) fires neither, so these actions give theirs up."""
        if self._registry_keys:
            return
        self._registry_keys = True
        for action in self._owner.actions():
            action.setShortcuts([])

"""The calendar page's QActions: navigation, views, the tray toggle and the post actions.

Buttons (toolbar, detail panel) show these very actions, so a button and a key run one handler
and are enabled together. They carry no keys: the keys are defined once, in the ActionSpecs
(`ui.calendar.commands`), which the shell's registry binds (and lists in the key table); the
tooltips name them from there (`keys_text`). It is given the few callables it runs, not the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QWidget

from app.calendar.grid import ViewKind
from app.posts.lifecycle import PostAction, action_text
from ui.calendar.commands import keys_text
from ui.calendar.entries import Entry

if TYPE_CHECKING:
    from ui.calendar.post_flows import PostFlows

Slot = Callable[[], object]


class Navigation(NamedTuple):
    """What the page's own actions run besides the post flows."""

    today: Slot
    previous: Slot
    next: Slot
    set_view: Callable[[str], object]
    jump: Slot
    open_detail: Slot
    fit_panels: Slot


class CalendarActions:
    def __init__(self, owner: QWidget, go: Navigation, flows: PostFlows) -> None:
        self._owner = owner
        self.today = self._action("Today", go.today, tip="Go to today" + keys_text("today"))
        self.previous = self._action(
            "Previous", go.previous, tip="Previous period" + keys_text("previous", "previous.page")
        )
        self.next = self._action(
            "Next", go.next, tip="Next period" + keys_text("next", "next.page")
        )
        self.month = self._action(
            "Month", lambda: go.set_view("month"), tip="Month view" + keys_text("view.month")
        )
        self.week = self._action(
            "Week", lambda: go.set_view("week"), tip="Week view" + keys_text("view.week")
        )
        self.agenda = self._action(
            "Agenda", lambda: go.set_view("agenda"), tip="Agenda view" + keys_text("view.agenda")
        )
        self._view_group = QActionGroup(owner)
        self._view_group.setExclusive(True)
        for action in (self.month, self.week, self.agenda):
            action.setCheckable(True)
            self._view_group.addAction(action)
        self.month.setChecked(True)
        self.jump = self._action("Jump to date…", go.jump, tip="Jump to a date" + keys_text("jump"))
        self.open = self._action("Open details", go.open_detail)
        self.tray = self._action(
            "Unscheduled", go.fit_panels, tip="Show or hide the posts without a date"
        )
        self.tray.setCheckable(True)
        self.tray.setChecked(True)
        self.new = self._action("New post", flows.new_post)
        self.post: dict[PostAction, QAction] = {
            PostAction.SCHEDULE: self._action("Schedule", flows.schedule),
            PostAction.EDIT: self._action("Edit", flows.edit),
            PostAction.RESCHEDULE: self._action("Reschedule…", flows.reschedule),
            PostAction.PUBLISH_NOW: self._action("Publish now…", flows.request_publish_now),
            PostAction.MOVE_TO_DRAFT: self._action("Move back to draft", flows.move_to_draft),
            PostAction.DUPLICATE: self._action("Duplicate", flows.duplicate),
            PostAction.DELETE: self._action(
                "Delete…", flows.request_delete, tip="Delete" + keys_text("delete")
            ),
        }

    def _action(self, text: str, slot: Slot, *, tip: str = "") -> QAction:
        action = QAction(text, self._owner)
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
        """Kept for callers of the transition: these actions have no keys to give up."""

"""The calendar's commands as ActionSpecs: the shell's registry turns them into menus, window-wide
shortcuts (active while the calendar page is shown), the command palette and the key table.

The one place the calendar's keys are written: buttons name them in their tooltips through
`keys_text`. The specs are built from `Commanded`, the few things of the page they run."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtGui import QKeySequence

from app.posts.lifecycle import PostAction
from ui.action_spec import ActionSpec

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from ui.calendar.keyboard import KeyboardWalk

SCOPE = "calendar"

# kind, id, text, shortcut, help
_POST_COMMANDS: tuple[tuple[PostAction, str, str, str, str], ...] = (
    (PostAction.SCHEDULE, "post.schedule", "Schedule", "", "Schedule the selected draft"),
    (PostAction.EDIT, "post.edit", "Edit post", "", "Edit the selected post (or retry it)"),
    (PostAction.RESCHEDULE, "post.reschedule", "Reschedule…", "", "Give it a new time"),
    (PostAction.PUBLISH_NOW, "post.publish_now", "Publish now…", "", "Publish it at once"),
    (PostAction.MOVE_TO_DRAFT, "post.move_to_draft", "Move back to draft", "", "Unschedule"),
    (PostAction.DUPLICATE, "post.duplicate", "Duplicate", "", "Copy it as a new draft"),
    (PostAction.DELETE, "delete", "Delete post…", "Delete", "Delete it (asks first)"),
)

# id, text, key, help: the arrows walk the shown posts (ui.calendar.keyboard)
_SELECT_KEYS: tuple[tuple[str, str, str, str], ...] = (
    ("select.up", "Select the post before", "Up", "Earlier in time (week: in the same day)"),
    ("select.down", "Select the post after", "Down", "Later in time (week: in the same day)"),
    ("select.left", "Select on the day before", "Left", "The nearest post on an earlier day"),
    ("select.right", "Select on the day after", "Right", "The nearest post on a later day"),
)
# id, text, key, days, minutes: Alt+arrows move the selected post as a drag would
_MOVE_KEYS: tuple[tuple[str, str, str, int, int], ...] = (
    ("move.day_earlier", "Move post a day earlier", "Alt+Left", -1, 0),
    ("move.day_later", "Move post a day later", "Alt+Right", 1, 0),
    ("move.earlier", "Move post 15 minutes earlier", "Alt+Up", 0, -15),
    ("move.later", "Move post 15 minutes later", "Alt+Down", 0, 15),
)

# id (after "calendar."), key: the navigation's keys, read by the specs and the buttons' tooltips
KEYS: dict[str, str] = {
    "view.month": "M",
    "view.week": "W",
    "view.agenda": "A",
    "today": "T",
    "previous": "Ctrl+Left",
    "next": "Ctrl+Right",
    "previous.page": "PgUp",
    "next.page": "PgDown",
    "jump": "Ctrl+G",
    "open": "Return",
    "select_all": "Ctrl+A",
    "close_detail": "Escape",
}


def key_of(id_: str) -> str:
    """The key of the command `calendar.<id_>` ("" for none)."""
    return dict(_all_keys()).get(id_, "")


def keys_text(*ids: str) -> str:
    """A tooltip's tail naming these commands' keys as the user sees them: " (Ctrl+Left, PgUp)"."""
    keys = [key_of(id_) for id_ in ids]
    shown = [
        QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) for key in keys if key
    ]
    return f" ({', '.join(shown)})" if shown else ""


def _all_keys() -> list[tuple[str, str]]:
    return [
        *KEYS.items(),
        *((id_, key) for _kind, id_, _text, key, _help in _POST_COMMANDS),
        *((id_, key) for id_, _text, key, _help in _SELECT_KEYS),
        *((id_, key) for id_, _text, key, _days, _minutes in _MOVE_KEYS),
    ]


class OnSeveral(Protocol):
    """The actions on several picked posts (`ui.calendar.bulk_flow.BulkFlow`)."""

    def active(self) -> bool: ...
    def delete(self) -> None: ...
    def to_draft(self) -> None: ...
    def duplicate(self) -> None: ...


class Commanded(Protocol):
    """What the calendar's commands run (the calendar page)."""

    @property
    def keyboard(self) -> KeyboardWalk: ...
    @property
    def bulk(self) -> OnSeveral: ...
    @property
    def post_actions(self) -> dict[PostAction, QAction]: ...
    @property
    def action_tray(self) -> QAction: ...
    def set_view(self, view: str) -> None: ...
    def go_today(self) -> None: ...
    def go_previous(self) -> None: ...
    def go_next(self) -> None: ...
    def focus_jump_to_date(self) -> None: ...
    def open_detail(self) -> None: ...
    def detail_is_open(self) -> bool: ...
    def selected_post_id(self) -> str | None: ...
    def can(self, kind: PostAction) -> bool: ...
    def select_all(self) -> None: ...
    def escape(self) -> None: ...
    def picks_several(self) -> bool: ...


def calendar_specs(page: Commanded) -> list[ActionSpec]:
    def spec(id_: str, text: str, run: object, menu: str = "") -> ActionSpec:
        assert callable(run)
        return ActionSpec(f"calendar.{id_}", text, run, KEYS.get(id_, ""), menu, SCOPE)

    specs = [
        spec("view.month", "Month view", functools.partial(page.set_view, "month"), "View"),
        spec("view.week", "Week view", functools.partial(page.set_view, "week"), "View"),
        spec("view.agenda", "Agenda view", functools.partial(page.set_view, "agenda"), "View"),
        spec("tray", "Unscheduled posts", page.action_tray.trigger, "View"),
        spec("today", "Today", page.go_today, "Go"),
        spec("previous", "Previous period", page.go_previous, "Go"),
        spec("next", "Next period", page.go_next, "Go"),
        spec("previous.page", "Previous period (Page Up)", page.go_previous),
        spec("next.page", "Next period (Page Down)", page.go_next),
        spec("jump", "Jump to date…", page.focus_jump_to_date, "Go"),
        ActionSpec(
            "calendar.open",
            "Open post details",
            page.open_detail,
            KEYS["open"],
            "Post",
            SCOPE,
            lambda: page.selected_post_id() is not None,
            "Show the selected post's details",
        ),
    ]
    walk = page.keyboard
    views = "calendarViews"  # the arrows belong to the lists and boxes everywhere else
    steps = {"select.up": walk.up, "select.down": walk.down}
    steps |= {"select.left": walk.left, "select.right": walk.right}
    run: Callable[[], object]
    for id_, text, key, help_ in _SELECT_KEYS:
        run = steps[id_]
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "", SCOPE, None, help_, views))
    specs.append(
        ActionSpec(
            "calendar.select_all",
            "Select all shown posts",
            page.select_all,
            KEYS["select_all"],
            "Post",
            SCOPE,
            None,
            "Every post of the shown period that the filter shows (Ctrl/Shift+click pick a few)",
            views,
        )
    )
    bulk = page.bulk

    def can_move() -> bool:
        return bulk.active() or page.can(PostAction.RESCHEDULE)

    for id_, text, key, days, minutes in _MOVE_KEYS:
        run = (
            functools.partial(walk.move_minutes, minutes)
            if minutes
            else (functools.partial(walk.move_days, days))
        )
        help_ = (
            "Week view; one reschedule, undone from the message bar"
            if minutes
            else ("Same time; one reschedule, undone from the message bar")
        )
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "Post", SCOPE, can_move, help_))
    specs.append(
        ActionSpec(
            "calendar.close_detail",
            "Close post details",
            page.escape,
            KEYS["close_detail"],
            "",
            SCOPE,
            lambda: page.picks_several() or page.detail_is_open(),
            "Back to the calendar (first drops a selection of several posts)",
            "calendarPage",
        )
    )
    on_several: dict[PostAction, Callable[[], None]] = {
        PostAction.DELETE: bulk.delete,
        PostAction.MOVE_TO_DRAFT: bulk.to_draft,
        PostAction.DUPLICATE: bulk.duplicate,
    }
    for kind, id_, text, key, help_ in _POST_COMMANDS:
        # Through the page's QAction: one handler whether it comes from a button or a key.
        run = page.post_actions[kind].trigger
        allowed = functools.partial(page.can, kind)
        several = on_several.get(kind)
        if several is not None:  # with several posts picked: all of them, one question
            run = functools.partial(_either, bulk.active, several, run)
            allowed = functools.partial(_either, bulk.active, _true, allowed)
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "Post", SCOPE, allowed, help_))
    return specs


def _true() -> bool:
    return True


def _either(test: Callable[[], bool], yes: Callable[[], Any], no: Callable[[], Any]) -> Any:
    return yes() if test() else no()

"""The calendar's commands as ActionSpecs: the shell's registry turns them into menus, window-wide
shortcuts (active while the calendar page is shown), the command palette and the key table."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.posts.lifecycle import PostAction
from ui.action_spec import ActionSpec

if TYPE_CHECKING:
    from ui.calendar.page import CalendarPage

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


def calendar_specs(page: CalendarPage) -> list[ActionSpec]:
    def spec(id_: str, text: str, run: object, key: str = "", menu: str = "") -> ActionSpec:
        assert callable(run)
        return ActionSpec(f"calendar.{id_}", text, run, key, menu, SCOPE)

    specs = [
        spec("view.month", "Month view", functools.partial(page.set_view, "month"), "M", "View"),
        spec("view.week", "Week view", functools.partial(page.set_view, "week"), "W", "View"),
        spec("view.agenda", "Agenda view", functools.partial(page.set_view, "agenda"), "A", "View"),
        spec("tray", "Unscheduled posts", page.action_tray.trigger, "", "View"),
        spec("today", "Today", page.go_today, "T", "Go"),
        spec("previous", "Previous period", page.go_previous, "Ctrl+Left", "Go"),
        spec("next", "Next period", page.go_next, "Ctrl+Right", "Go"),
        spec("previous.page", "Previous period (Page Up)", page.go_previous, "PgUp"),
        spec("next.page", "Next period (Page Down)", page.go_next, "PgDown"),
        spec("jump", "Jump to date…", page.focus_jump_to_date, "Ctrl+G", "Go"),
        ActionSpec(
            "calendar.open",
            "Open post details",
            page.open_detail,
            "Return",
            "Post",
            SCOPE,
            lambda: page.selected_post_id() is not None,
            "Show the selected post's details",
        ),
    ]
    walk = page.keyboard
    views = "calendarViews"  # the arrows belong to the lists and boxes everywhere else
    for id_, text, key, help_ in _SELECT_KEYS:
        run = getattr(walk, id_.removeprefix("select."))
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "", SCOPE, None, help_, views))
    specs.append(
        ActionSpec(
            "calendar.select_all",
            "Select all shown posts",
            page.select_all,
            "Ctrl+A",
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
            "Escape",
            "",
            SCOPE,
            lambda: bool(page.state.marked) or page.detail_is_open(),
            "Back to the calendar (first drops a selection of several posts)",
            "calendarPage",
        )
    )
    for kind, id_, text, key, help_ in _POST_COMMANDS:
        # Through the page's QAction: one handler whether it comes from a button or a key.
        run = page.post_actions[kind].trigger
        allowed = functools.partial(page.can, kind)
        several = _ON_SEVERAL.get(kind)
        if several is not None:  # with several posts picked: all of them, one question
            run = functools.partial(_either, bulk.active, getattr(bulk, several), run)
            allowed = functools.partial(_either, bulk.active, _true, allowed)
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "Post", SCOPE, allowed, help_))
    return specs


_ON_SEVERAL = {
    PostAction.DELETE: "delete",
    PostAction.MOVE_TO_DRAFT: "to_draft",
    PostAction.DUPLICATE: "duplicate",
}


def _true() -> bool:
    return True


def _either(test: Callable[[], bool], yes: Callable[[], Any], no: Callable[[], Any]) -> Any:
    return yes() if test() else no()

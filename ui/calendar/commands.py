"""The calendar's commands as ActionSpecs: the shell's registry turns them into menus, window-wide
shortcuts (active while the calendar page is shown), the command palette and the key table."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

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
    for kind, id_, text, key, help_ in _POST_COMMANDS:
        # Through the page's QAction: one handler whether it comes from a button or a key.
        run = page.post_actions[kind].trigger
        allowed = functools.partial(page.can, kind)
        specs.append(ActionSpec(f"calendar.{id_}", text, run, key, "Post", SCOPE, allowed, help_))
    return specs

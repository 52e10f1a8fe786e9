"""The checks as the user sees them: red fields, the line under the send button and ⚠ on the
destination tabs. A server's 422 marks stay on their fields until those fields change."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QTabWidget, QWidget

from app.compose.checks import (
    Issue,
    blocker_summary,
    blocking,
    check_document,
    issues_by_path,
    value_at,
)
from ui.composer.field_errors import FieldErrors
from ui.composer.schedule_bar import ScheduleBar
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData
from ui.icons import network_name


class CheckMarks:
    def __init__(
        self,
        state: ComposerState,
        data: WorkspaceData,
        errors: FieldErrors,
        schedule: ScheduleBar,
        tabs: QTabWidget,
        tab_of: Callable[[str], QWidget | None],
    ) -> None:
        self.state = state
        self.data = data
        self.errors = errors
        self.schedule = schedule
        self.tabs = tabs
        self.tab_of = tab_of
        """The destination tab of an account (its `overrides()` name what it overrides)."""
        self.server_errors: dict[str, list[str]] = {}
        self._server_values: dict[str, object] = {}
        self.current_issues: list[Issue] = []

    # -- a server's marks ----------------------------------------------------------------------
    def remember_server_errors(self, errors: dict[str, list[str]]) -> None:
        self.server_errors = errors
        self._server_values = {path: value_at(self.state.doc, path) for path in errors}

    def forget_server_errors(self) -> None:
        self.server_errors = {}

    def keep_unchanged(self) -> None:
        """After an edit: a server's mark stays until its own field changes (the general one
        goes on any change)."""
        if not self.server_errors:
            return
        self.server_errors = {
            path: messages
            for path, messages in self.server_errors.items()
            if path and value_at(self.state.doc, path) == self._server_values.get(path)
        }

    # -- showing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        accounts = self.data.accounts_by_id() or None
        issues = check_document(
            self.state.doc,
            accounts,
            board_ids=self.data.known_ids("boards"),
            channel_ids=self.data.known_ids("channels"),
        )
        shown = issues_by_path(issues)
        for path, messages in self.server_errors.items():
            shown.setdefault(path, [])
            shown[path] = [*messages, *(m for m in shown[path] if m not in messages)]
        doc = self.state.doc
        pristine = not (doc.content or doc.destinations or doc.media or self.server_errors)
        # An empty composer is not wrong yet: no red fields before the user did anything (the
        # line under the send button still says what is missing).
        self.errors.show({} if pristine else shown)
        self.current_issues = issues
        stops = blocking(issues)
        summary = blocker_summary(stops, self.destination_name)
        # A time problem alone is shown at the time field; the button is still off.
        self.schedule.set_blocked(summary or (" " if stops else ""))
        self._mark_tabs(shown)

    def destination_name(self, path: str) -> str | None:
        parts = path.split(".")
        if len(parts) > 1 and parts[0] == "destinations" and parts[1].isdigit():
            index = int(parts[1])
            if index < len(self.state.doc.destinations):
                dest = self.state.doc.destinations[index]
                name = network_name(dest.platform)
                account = self.data.accounts_by_id().get(dest.account_id)
                if account is not None and account.username:
                    name += f" @{account.username.lstrip('@')}"
                return name
        return None

    def _mark_tabs(self, shown: dict[str, list[str]]) -> None:
        for i, dest in enumerate(self.state.doc.destinations):
            tab = self.tab_of(dest.account_id)
            if tab is None:
                continue
            index = self.tabs.indexOf(tab)
            prefix = f"destinations.{i}"
            problem = any(p == prefix or p.startswith(prefix + ".") for p in shown)
            own: list[str] = tab.overrides()  # type: ignore[attr-defined]
            text = network_name(dest.platform)
            account = self.data.accounts_by_id().get(dest.account_id)
            if account is not None and account.username:
                text += f" @{account.username}"
            if own:
                text += " •"
            if problem:
                text += " ⚠"
            self.tabs.setTabText(index, text)
            self.tabs.setTabToolTip(
                index,
                ("Own " + " and ".join(own) + ". ") if own else "Uses the shared text and media.",
            )

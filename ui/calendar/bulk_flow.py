"""From a multi-selection to a `BulkRun`: one question naming the count, then the run, its
progress in the `BulkBar`, its report, and for moves one Undo that puts every moved post back.

It needs only the narrow things it uses: the state (what is picked), the posts shown, the
workspace session (None: not connected, nothing is sent), a parent for its questions, the zone
and the clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from app.posts.lifecycle import PostAction
from ui.calendar.bulk_bar import BulkBar, BulkReportView, posts_text
from ui.calendar.entries import Entry
from ui.calendar.multi_select import MultiSelect

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

    from ui.calendar.bulk import BulkReport, BulkRun, Job, Planner, Refusal
    from ui.session import WorkspaceSession


class BulkFlow:
    def __init__(
        self,
        parent: QWidget,
        multi: MultiSelect,
        entries: Callable[[], dict[str, Entry]],
        session: Callable[[], WorkspaceSession | None],
        tz: tzinfo,
        now: Callable[[], datetime],
    ) -> None:
        self._parent = parent
        self._multi = multi
        self._entries = entries
        self._session = session
        self._tz = tz
        self._now = now
        self.bar: BulkBar | None = None
        self.report_view: BulkReportView | None = None
        self.question: QMessageBox | None = None
        self.run: BulkRun | None = None
        self.last_report: BulkReport | None = None

    def attach(self, bar: BulkBar, report_view: BulkReportView) -> None:
        self.bar = bar
        self.report_view = report_view
        bar.moveRequested.connect(lambda days: self.move(days))
        bar.labelRequested.connect(self.label)
        bar.toDraftRequested.connect(self.to_draft)
        bar.duplicateRequested.connect(self.duplicate)
        bar.deleteRequested.connect(self.delete)
        bar.clearRequested.connect(self._multi.clear)

    def active(self) -> bool:
        """Whether a multi-selection is there to act on (otherwise the one selected post)."""
        return len(self._multi.ids()) >= 2

    def _picked(self) -> list[Entry]:
        entries = self._entries()
        return [entries[post_id] for post_id in self._multi.ids() if post_id in entries]

    def _planner(self) -> Planner | None:
        session = self._session()
        if session is None or session.closed:
            return None
        # The runner brings asyncio and the API's models: loaded on the first bulk action, not
        # before the calendar's first paint (tests/test_startup_imports.py).
        from ui.calendar.bulk import Planner

        return Planner(session, self._tz, self._now)

    # -- the actions -----------------------------------------------------------------------
    def move(self, days: int, minutes: int = 0) -> None:
        planner, picked = self._planner(), self._picked()
        if planner is None or len(picked) < 2 or (days == 0 and minutes == 0):
            return
        jobs, refused, before = planner.move(picked, days, minutes)
        way = _way(days, minutes)
        self._ask(
            f"Move {posts_text(len(picked))} {way}?",
            "Each keeps its time of day." if minutes == 0 else "Each keeps its day.",
            "Move",
            "Moved",
            jobs,
            refused,
            before,
        )

    def delete(self) -> None:
        planner, picked = self._planner(), self._picked()
        if planner is None or len(picked) < 2:
            return
        fit, refused = planner.applicable(picked, PostAction.DELETE, "it cannot be deleted now")
        self._ask(
            f"Delete {posts_text(len(picked))}?",
            "They are removed from every network they have not been published to.",
            "Delete",
            "Deleted",
            planner.delete(fit),
            refused,
            destructive=True,
        )

    def to_draft(self) -> None:
        planner, picked = self._planner(), self._picked()
        if planner is None or len(picked) < 2:
            return
        fit, refused = planner.applicable(
            picked, PostAction.MOVE_TO_DRAFT, "only a scheduled or failed post goes back to draft"
        )
        self._ask(
            f"Move {posts_text(len(picked))} back to draft?",
            "They will not be published until they are scheduled again.",
            "Move back to draft",
            "Moved back to draft",
            planner.to_draft(fit),
            refused,
        )

    def duplicate(self) -> None:
        planner, picked = self._planner(), self._picked()
        if planner is None or len(picked) < 2:
            return
        fit, refused = planner.applicable(picked, PostAction.DUPLICATE, "it cannot be copied")
        self._ask(
            f"Duplicate {posts_text(len(picked))}?",
            "Each copy is a new draft (one per destination), without its media.",
            "Duplicate",
            "Duplicated",
            planner.duplicate(fit),
            refused,
        )

    def label(self, label_id: str, add: bool) -> None:
        planner, picked = self._planner(), self._picked()
        if planner is None or len(picked) < 2:
            return
        jobs, refused = planner.label(picked, label_id, add)
        name = self._label_name(label_id)
        self._ask(
            f"{'Add' if add else 'Remove'} the label “{name}” "
            f"{'to' if add else 'from'} {posts_text(len(picked))}?",
            f"{posts_text(len(jobs))} change; the others "
            f"{'have it already' if add else 'do not have it'}."
            if len(jobs) != len(picked) - len(refused)
            else "",
            "Add label" if add else "Remove label",
            "Labelled" if add else "Unlabelled",
            jobs,
            refused,
        )

    def _label_name(self, label_id: str) -> str:
        for entry in self._picked():
            for label in entry.card.labels:
                if label.id == label_id:
                    return label.name
        if self.bar is not None:
            for choice_id, name, _icon in self.bar.label_choices():
                if choice_id == label_id:
                    return name
        return label_id

    # -- asking, running, reporting --------------------------------------------------------
    def _ask(
        self,
        question: str,
        detail: str,
        button: str,
        title: str,
        jobs: list[Job],
        refused: list[Refusal],
        before: dict[str, datetime] | None = None,
        *,
        destructive: bool = False,
    ) -> None:
        if self.run is not None and self.run.running:
            return  # one run at a time: its posts are busy anyway
        from ui.calendar.confirm import ask

        if refused:
            detail += f"\n\n{posts_text(len(refused))} will be left unchanged (listed after)."
        self.question = ask(
            self._parent,
            title if title != "Labelled" else "Add label",
            question,
            detail.strip(),
            button,
            lambda: self.start(title, jobs, refused, before),
            lambda: setattr(self, "question", None),
            destructive=destructive,
        )

    def start(
        self,
        title: str,
        jobs: list[Job],
        refused: list[Refusal],
        before: dict[str, datetime] | None = None,
    ) -> None:
        """Run now (after the question): `self.run` follows it."""
        session = self._session()
        if session is None or session.closed:
            return
        from ui.calendar.bulk import BulkRun

        run = BulkRun(session, title, jobs, refused, before, self._parent)
        self.run = run
        if self.report_view is not None:
            self.report_view.hide()
        if self.bar is not None:
            self.bar.start(_ING.get(title, title), run.total)
            run.progressed.connect(self.bar.progressed)
        run.finished.connect(self._finished)
        run.start()

    def _finished(self, report: BulkReport) -> None:
        self.last_report = report
        if self.bar is not None:
            self.bar.finished()
        if self.report_view is not None:
            self.report_view.show_report(report)
        session = self._session()
        if session is None or session.closed or not report.undo:
            return
        moved = dict(report.undo)
        session.messages.info(
            f"{posts_text(len(moved))} moved.",
            action_label="Undo",
            action=lambda: self.undo(moved),
        )

    def undo(self, times: dict[str, datetime]) -> None:
        """Every post of one move back where it was: one run, each post written once."""
        planner = self._planner()
        if planner is not None:
            self.start("Moved", planner.move_back(times, self._entries()), [])


_ING = {
    "Moved": "Moving",
    "Deleted": "Deleting",
    "Duplicated": "Duplicating",
    "Moved back to draft": "Moving back to draft",
    "Labelled": "Labelling",
    "Unlabelled": "Removing the label",
}


def _way(days: int, minutes: int) -> str:
    if minutes:
        return f"{abs(minutes)} minutes {'later' if minutes > 0 else 'earlier'}"
    unit = "a day" if abs(days) == 1 else f"{abs(days)} days"
    return f"{unit} {'later' if days > 0 else 'earlier'}"

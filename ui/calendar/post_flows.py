"""What happens between a post action the user picked and the page's request signal: the
questions asked first (delete, publish now), the time dialogs (reschedule, a draft whose date
has passed), the checks of a drop, and the small requests that need none of that.

Every flow ends in one of the page's signals, handed over as `Requests`; the shell performs the
write. Dialogs open with `open()` (never `exec()`) over `owner`, and a new one replaces the
handle of the last.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, NamedTuple

from app.calendar.grid import move_to_day, slot_instant, visible_dates
from app.domain.enums import PostStatus
from app.posts.lifecycle import PostAction, is_in_future
from ui.calendar.drag import DropTarget
from ui.calendar.entries import Entry
from ui.calendar.loader import CalendarLoader
from ui.calendar.selection import SelectedPost
from ui.calendar.state import CalendarState
from ui.locale_text import date_time, weekday_day_month

if TYPE_CHECKING:
    from PySide6.QtCore import QObject, SignalInstance
    from PySide6.QtWidgets import QMessageBox, QWidget

    from ui.calendar.reschedule_dialog import RescheduleDialog

PostRequest = Callable[[str], None]
TimedRequest = Callable[[str, datetime], None]


class Requests(NamedTuple):
    """The page's request signals' `emit`s (see `CalendarPage`)."""

    reschedule: TimedRequest
    schedule: TimedRequest
    publish_now: PostRequest
    delete: PostRequest
    move_to_draft: PostRequest
    unschedule: PostRequest
    edit: PostRequest
    duplicate: PostRequest
    new_post: Callable[[date], None]
    draft_heard: Callable[[], bool]
    """Whether anybody listens to `move_to_draft` (else `unschedule` asks for it)."""


def listened(owner: QObject, signal: SignalInstance) -> bool:
    from PySide6.QtCore import QMetaMethod  # not before the first paint (its enums)

    return owner.isSignalConnected(QMetaMethod.fromSignal(signal))


UNDATED_DROP_MINUTES = 9 * 60
"""Time of day given to an undated draft dropped on a month day (no time is implied there)."""


def next_full_hour(now: datetime, tz: tzinfo) -> datetime:
    local = now.astimezone(tz)
    return (local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)).astimezone(UTC)


class PostFlows:
    def __init__(
        self,
        owner: QWidget,
        selected: SelectedPost,
        state: CalendarState,
        loader: CalendarLoader,
        clock: tuple[Callable[[], date], Callable[[], datetime], tzinfo],
        requests: Requests,
    ) -> None:
        self._owner = owner
        self._selected = selected
        self._state = state
        self._loader = loader
        self._today, self._now, self._tz = clock
        self._requests = requests
        self.delete_box: QMessageBox | None = None
        self.publish_box: QMessageBox | None = None
        self.time_dialog: RescheduleDialog | None = None

    def _require(self, kind: PostAction) -> Entry | None:
        """The selected post, when it offers `kind` now (allowed by its status, not busy)."""
        return self._selected.entry() if self._selected.can(kind) else None

    # -- questions first -------------------------------------------------------------------
    def request_delete(self) -> None:
        entry = self._require(PostAction.DELETE)
        if entry is None:
            return
        from ui.calendar.confirm import ask

        when = f"{entry.time_text} · " if entry.time_text else ""
        self.delete_box = ask(
            self._owner,
            "Delete post",
            "Delete this post?",
            f"{when}{entry.account_text}\n“{entry.summary}”\n\n"
            "It is removed from every network it has not been published to.",
            "Delete",
            lambda: self._requests.delete(entry.id),
            lambda: setattr(self, "delete_box", None),
            destructive=True,
        )

    def request_publish_now(self) -> None:
        entry = self._require(PostAction.PUBLISH_NOW)
        if entry is None:
            return
        from ui.calendar.confirm import ask

        where = self.destinations_text(entry.id)
        self.publish_box = ask(
            self._owner,
            "Publish now",
            f"Publish this post now to {where}?",
            f"“{entry.summary}”\n\nIt goes out at once instead of "
            + (
                f"at {entry.time_text} on {weekday_day_month(entry.local.date())}."
                if entry.local
                else "later."
            ),
            "Publish now",
            lambda: self._requests.publish_now(entry.id),
            lambda: setattr(self, "publish_box", None),
        )

    def destinations_text(self, post_id: str) -> str:
        from ui.calendar.confirm import destinations_text

        entry = self._loader.entries.get(post_id)
        post = self._loader.source.post(post_id)
        return destinations_text(post, entry.card.networks if entry else ())

    # -- a new time ------------------------------------------------------------------------
    def _open_time_dialog(self, dialog: RescheduleDialog, chosen: Callable[..., None]) -> None:
        dialog.chosen.connect(chosen)
        dialog.finished.connect(dialog.deleteLater)
        dialog.finished.connect(lambda _code: setattr(self, "time_dialog", None))
        self.time_dialog = dialog
        dialog.open()

    def reschedule(self) -> None:
        entry = self._require(PostAction.RESCHEDULE)
        if entry is None or entry.scheduled_at is None:
            return
        from ui.calendar.reschedule_dialog import RescheduleDialog

        dialog = RescheduleDialog(
            entry.id,
            entry.scheduled_at,
            self._tz,
            self._owner,
            now=self._now,
            future_only=entry.known_status is PostStatus.SCHEDULED,
        )
        self._open_time_dialog(dialog, self._rescheduled)

    def _rescheduled(self, post_id: str, when: datetime) -> None:
        entry = self._loader.entries.get(post_id)
        if entry is None or entry.scheduled_at != when.astimezone(UTC):
            self._requests.reschedule(post_id, when)

    def schedule(self) -> None:
        """Draft → scheduled at its date; a date that has passed asks for a new time first."""
        entry = self._require(PostAction.SCHEDULE)
        if entry is None or entry.scheduled_at is None:
            return
        now = self._now()
        if is_in_future(entry.scheduled_at, now):
            self._requests.schedule(entry.id, entry.scheduled_at)
            return
        was = date_time(entry.local) if entry.local else "its date"
        from ui.calendar.reschedule_dialog import RescheduleDialog

        dialog = RescheduleDialog(
            entry.id,
            next_full_hour(now, self._tz),
            self._tz,
            self._owner,
            now=self._now,
            title="Schedule post",
            button="Schedule",
            intro=f"This draft's time ({was}) has passed. When should it be published?",
        )
        self._open_time_dialog(dialog, self._requests.schedule)

    def move_post(self, post_id: str, target: DropTarget) -> None:
        """A post dropped on a day (month) or a slot (week): ask to reschedule it there."""
        entry = self._loader.entries.get(post_id)
        if entry is None or not entry.draggable or self._state.is_busy(post_id):
            return
        scheduled = entry.scheduled_at
        if target.minutes is not None:
            when = slot_instant(target.day, target.minutes, self._tz)
        elif scheduled is not None:
            when = move_to_day(scheduled, target.day, self._tz)
        else:
            when = slot_instant(target.day, UNDATED_DROP_MINUTES, self._tz)
        if scheduled is not None and when.astimezone(UTC) == scheduled:
            return
        waiting = entry.known_status is PostStatus.SCHEDULED
        if waiting and not is_in_future(when, self._now()):
            # Imported here: their classes (and enums) cost ~1 ms before the first paint.
            from PySide6.QtGui import QCursor
            from PySide6.QtWidgets import QToolTip

            local = when.astimezone(self._tz)
            QToolTip.showText(
                QCursor.pos(),
                f"{date_time(local)} has passed: a scheduled post can only move to a later time.",
                self._owner,
            )
            return
        self._requests.reschedule(post_id, when)

    # -- no question -----------------------------------------------------------------------
    def new_post(self) -> None:
        """A new post on the selected post's day, else today if shown, else the anchor."""
        state = self._state
        days = visible_dates(state.view, state.anchor)
        today = self._today()
        entry = self._selected.entry()
        if entry is not None and entry.day is not None:
            day = entry.day
        elif today in days:
            day = today
        else:
            day = state.anchor if state.anchor in days else days[0]
        self._requests.new_post(day)

    def move_to_draft(self) -> None:
        entry = self._require(PostAction.MOVE_TO_DRAFT)
        if entry is None:
            return
        if not self._requests.draft_heard() and entry.known_status is PostStatus.SCHEDULED:
            # Until the shell listens for the new signal, the old one does the same request.
            self._requests.unschedule(entry.id)
            return
        self._requests.move_to_draft(entry.id)

    def edit(self) -> None:
        entry = self._require(PostAction.EDIT)
        if entry is not None:
            self._requests.edit(entry.id)

    def duplicate(self) -> None:
        entry = self._require(PostAction.DUPLICATE)
        if entry is not None:
            self._requests.duplicate(entry.id)

"""One action on several posts (issue 16 §3): each post written once, through the session's
write gate (one write in flight per post), a few at a time, with progress; what the server or
the calendar refused is listed post by post at the end.

A `BulkRun` is planned in full before it starts: posts the action does not apply to (a
published post has no date to move; a scheduled post cannot move into the past) are refused
here and never sent. Moves remember where each post was, so `undo_moves` puts them all back as
one more run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QObject, Signal

from app.api.errors import ApiError, OutcomeUnknown
from app.calendar.grid import move_to_day
from app.domain.enums import PostStatus
from app.models.requests import PostUpdate
from app.posts.lifecycle import PostAction, is_in_future
from ui.calendar.entries import Entry

if TYPE_CHECKING:
    from app.models import Post
    from ui.session import WorkspaceSession

log = logging.getLogger(__name__)

AT_ONCE = 4
"""Writes in flight together: the run takes ~N/4 round trips, and the server's rate limit
(shared with the sync) is not flooded by one click."""

Make = Callable[[], Coroutine[Any, Any, None]]


class Refusal(NamedTuple):
    post_id: str
    summary: str
    reason: str


class Job(NamedTuple):
    post_id: str
    summary: str
    make: Make


class BulkReport(NamedTuple):
    title: str  # "Moved", "Deleted", ...
    done: list[str]
    refused: list[Refusal]
    undo: dict[str, datetime]  # for moves: each moved post's time before the run


class BulkRun(QObject):
    progressed = Signal(int, int)  # done so far, total
    finished = Signal(object)  # BulkReport

    def __init__(
        self,
        session: WorkspaceSession,
        title: str,
        jobs: list[Job],
        refused: list[Refusal],
        undo: dict[str, datetime] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.title = title
        self.jobs = jobs
        self.refused = list(refused)
        self.undo = dict(undo or {})
        self.done: list[str] = []
        self.running = False
        self._task: asyncio.Task[None] | None = None

    @property
    def total(self) -> int:
        return len(self.jobs) + len(self.refused)

    def start(self) -> None:
        self.running = True
        self.progressed.emit(len(self.refused), self.total)
        self._task = asyncio.ensure_future(self._run())
        self.session.adopt(self._task)  # ends with the workspace

    async def _run(self) -> None:
        room = asyncio.Semaphore(AT_ONCE)
        unknown = False

        async def one(job: Job) -> None:
            nonlocal unknown
            async with room:
                # The write is made inside the gated coroutine: refused, nothing is created.
                task = self.session.gated(job.post_id, _caught(job.make))
                if task is None:
                    reason = "a change to it was still being saved; nothing was sent"
                    self.refused.append(Refusal(job.post_id, job.summary, reason))
                else:
                    error = await task
                    if error is None:
                        self.done.append(job.post_id)
                    else:
                        unknown = unknown or isinstance(error, OutcomeUnknown)
                        self.refused.append(Refusal(job.post_id, job.summary, error.message))
                self.progressed.emit(len(self.done) + len(self.refused), self.total)

        try:
            await asyncio.gather(*(one(job) for job in self.jobs))
        finally:
            self.running = False
        if unknown and not self.session.closed:
            self.session.refresh()  # an answer was lost: the calendar shows what happened
        kept = {post_id: self.undo[post_id] for post_id in self.done if post_id in self.undo}
        self.finished.emit(BulkReport(self.title, self.done, self.refused, kept))


async def _caught(make: Make) -> ApiError | None:
    """The write's refusal as a value: listed by post, not one message each."""
    try:
        await make()
    except ApiError as error:
        return error
    return None


# -- plans -----------------------------------------------------------------------------------
class Planner:
    """Jobs for one session's posts (entries as the calendar shows them)."""

    def __init__(self, session: WorkspaceSession, tz: tzinfo, now: Callable[[], datetime]) -> None:
        self._session = session
        self._tz = tz
        self._now = now

    def move(
        self, entries: list[Entry], days: int, minutes: int = 0
    ) -> tuple[list[Job], list[Refusal], dict[str, datetime]]:
        jobs: list[Job] = []
        refused: list[Refusal] = []
        before: dict[str, datetime] = {}
        now = self._now()
        for entry in entries:
            when = entry.scheduled_at
            if when is None or not entry.draggable:
                refused.append(Refusal(entry.id, entry.summary, "its status has no date to move"))
                continue
            target = move_to_day(when, when.astimezone(self._tz).date() + timedelta(days), self._tz)
            target += timedelta(minutes=minutes)
            scheduled = entry.known_status is PostStatus.SCHEDULED
            if scheduled and not is_in_future(target, now):
                refused.append(
                    Refusal(entry.id, entry.summary, "a scheduled post cannot move into the past")
                )
                continue
            before[entry.id] = when
            jobs.append(Job(entry.id, entry.summary, self._reschedule(entry.id, target)))
        return jobs, refused, before

    def move_back(self, times: dict[str, datetime], entries: dict[str, Entry]) -> list[Job]:
        return [
            Job(
                post_id,
                entries[post_id].summary if post_id in entries else post_id,
                self._reschedule(post_id, when),
            )
            for post_id, when in times.items()
        ]

    def _reschedule(self, post_id: str, when: datetime) -> Make:
        session = self._session

        async def write() -> None:
            post = await session.client.posts.reschedule(post_id, when.astimezone(UTC))
            await session.store_posts([post])

        return write

    def applicable(
        self, entries: list[Entry], kind: PostAction, why_not: str
    ) -> tuple[list[Entry], list[Refusal]]:
        fit = [entry for entry in entries if kind in entry.actions]
        refused = [Refusal(e.id, e.summary, why_not) for e in entries if kind not in e.actions]
        return fit, refused

    def delete(self, entries: list[Entry]) -> list[Job]:
        session = self._session

        def make(post_id: str) -> Make:
            async def write() -> None:
                await session.client.posts.delete(post_id)
                if not session.closed:
                    await session.cache.delete_post_async(post_id)
                if not session.closed:
                    session.postsForgotten.emit([post_id])

            return write

        return [Job(entry.id, entry.summary, make(entry.id)) for entry in entries]

    def to_draft(self, entries: list[Entry]) -> list[Job]:
        return [Job(e.id, e.summary, self._answer(e.id, "unschedule")) for e in entries]

    def duplicate(self, entries: list[Entry]) -> list[Job]:
        session = self._session

        def make(post_id: str) -> Make:
            async def write() -> None:
                original = session.cache.post(post_id) or await session.client.posts.get(post_id)
                await session.store_posts(await session.client.posts.duplicate(original))

            return write

        return [Job(entry.id, entry.summary, make(entry.id)) for entry in entries]

    def label(
        self, entries: list[Entry], label_id: str, add: bool
    ) -> tuple[list[Job], list[Refusal]]:
        """Posts that already have (or lack) the label are left alone and not listed."""
        session = self._session
        jobs: list[Job] = []
        refused: list[Refusal] = []
        for entry in entries:
            post = session.cache.post(entry.id)
            if post is None:
                refused.append(Refusal(entry.id, entry.summary, "it is not in the local copy"))
                continue
            ids = [label.id for label in post.labels]
            if (label_id in ids) == add:
                continue
            wanted = [*ids, label_id] if add else [i for i in ids if i != label_id]
            jobs.append(Job(entry.id, entry.summary, self._labels(entry.id, wanted)))
        return jobs, refused

    def _labels(self, post_id: str, label_ids: list[str]) -> Make:
        session = self._session

        async def write() -> None:
            post = await session.client.posts.update(post_id, PostUpdate(labels=label_ids))
            await session.store_posts([post])

        return write

    def _answer(self, post_id: str, method: str) -> Make:
        session = self._session

        async def write() -> None:
            call: Callable[[str], Coroutine[Any, Any, Post]] = getattr(session.client.posts, method)
            await session.store_posts([await call(post_id)])

        return write

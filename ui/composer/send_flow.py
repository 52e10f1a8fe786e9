"""Sending from the composer: one send per click (confirming *Publish now*), a new batch through
the workspace's outbox or the changes of an edited post, what the answer means for the fields
and the drafts list, *Replace post…* when the server ignored changes, and the outbox's actions
(*Edit and retry*, *Send as draft*, *In 1 hour*, *Remove*)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from app.compose.batch import build_update, describe_ignored
from app.compose.document import ComposerDocument, ScheduleMode
from app.models.posts import Post
from app.sync.outbox import OutboxState
from ui.composer.autosave import Autosaver
from ui.composer.check_marks import CheckMarks
from ui.composer.drafts_controller import DraftsController, Say
from ui.composer.outbox_panel import OutboxPanel
from ui.composer.recent_sets import RecentSets
from ui.composer.schedule_bar import ScheduleBar
from ui.composer.sending import SendController, SendOutcome
from ui.composer.state import ComposerState
from ui.icons import network_name
from ui.messages import Level, Message, MessageBridge, MessageScope
from ui.tasks import TaskGroup
from ui.write_gate import WriteGate

if TYPE_CHECKING:
    from ui.session import WorkspaceSession


class SendFlow(QObject):
    def __init__(
        self,
        state: ComposerState,
        schedule: ScheduleBar,
        drafts: DraftsController,
        marks: CheckMarks,
        outbox_panel: OutboxPanel,
        autosave: Autosaver,
        tasks: TaskGroup,
        *,
        say: Say,
        messages: Callable[[], MessageBridge | MessageScope],
        new_post: Callable[[], None],
        local_tz: tzinfo,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.schedule = schedule
        self.drafts = drafts
        self.marks = marks
        self.outbox_panel = outbox_panel
        self.autosave = autosave
        self.tasks = tasks
        self.gate = WriteGate(tasks, self)
        self._say = say
        self._messages = messages
        self._new_post = new_post
        self.local_tz = local_tz
        self._parent = parent
        self.session: WorkspaceSession | None = None
        self.sending: SendController | None = None
        self.recent = RecentSets(None)
        self.queued_entry: int | None = None
        self.last_ignored: list[str] = []
        self.publish_box: QMessageBox | None = None
        self.replace_box: QMessageBox | None = None
        self.gate.busyChanged.connect(self._busy_changed)
        outbox_panel.editRequested.connect(self._edit_entry)
        outbox_panel.sendAsDraftRequested.connect(self._entry_as_draft)
        outbox_panel.sendAnywayRequested.connect(self._entry_in_an_hour)
        outbox_panel.discardRequested.connect(self._discard_entry)

    # -- the workspace's outbox ----------------------------------------------------------------
    def attach(self, session: WorkspaceSession | None) -> None:
        """Send through `session`'s outbox (none: the page only writes drafts)."""
        self.stop()
        self.session = session
        if session is not None and session.outbox is not None:
            self.sending = SendController(session, parent=self)
            self.sending.entriesChanged.connect(self.refresh_outbox)
            self.sending.statusChanged.connect(self.outbox_panel.show_status)
            self.sending.show_status()  # it may have been waiting long before the page opened
        self.refresh_outbox()

    def stop(self) -> None:
        if self.sending is not None:
            self.sending.stop()
            self.sending = None

    # -- sending -------------------------------------------------------------------------------
    def send(self, unavailable: str) -> None:
        """One send per click; a second click while busy is ignored. `unavailable`: why there
        is no outbox, in the drafts file's own words when it is the reason."""
        if self.gate.is_busy(self.state.doc.draft_id) or not self.schedule.send.isEnabled():
            return
        if self.sending is None:
            self._say(
                unavailable or "Not connected to a workspace: the post stays in your drafts.",
                Level.WARNING,
            )
            return
        if self.state.doc.schedule.mode is ScheduleMode.PUBLISH_NOW:
            self._confirm_publish()
            return
        self._start_send()

    def _start_send(self) -> None:
        self.gate.run(self.state.doc.draft_id, self._send())

    def _confirm_publish(self) -> None:
        names = sorted({network_name(d.platform) for d in self.state.doc.destinations if d.enabled})
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Publish now?",
            f"Publish this post now on {', '.join(names)}? It goes out at once.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self._parent,
        )
        box.button(QMessageBox.StandardButton.Yes).setText("Publish now")
        box.setObjectName("publishConfirm")
        self.publish_box = box

        def answered(code: int) -> None:
            if code == QMessageBox.StandardButton.Yes:
                self._start_send()

        box.finished.connect(answered)
        box.open()

    def _busy_changed(self, key: str, busy: bool) -> None:
        if key == self.state.doc.draft_id or not busy:
            self.schedule.set_busy(busy and key == self.state.doc.draft_id)

    def _progress(self, text: str) -> None:
        self.schedule.set_busy(True, text)

    async def _send(self) -> None:
        sending = self.sending
        assert sending is not None
        await self.autosave.flush()
        doc = self.state.doc.model_copy(deep=True)
        draft_id, revision = self.state.draft_id, self.state.revision
        if doc.editing_post_id is not None and self.state.original is None:
            self.state.original = await self._load_edited_post(doc.editing_post_id)
            if self.state.original is None:
                # Never a new batch from a draft that edits a post (issue 15 §1: a replaced
                # post's draft sent a second, identical post).
                self._say(
                    "The post this draft changes no longer exists on the server (it was "
                    "replaced or deleted), so nothing was sent. To post this text, duplicate "
                    "the draft and send the copy.",
                    Level.WARNING,
                )
                return
        if doc.editing_post_id is not None and self.state.original is not None:
            await self._save_edit(doc, self.state.original)
            return
        outcome = await sending.send_new(
            doc, draft_id=draft_id, revision=revision, progress=self._progress
        )
        self._after_send(outcome, doc)

    def _after_send(self, outcome: SendOutcome, doc: ComposerDocument) -> None:
        accounts = [d.account_id for d in doc.destinations if d.enabled]
        if outcome.state == "refused":
            self.marks.remember_server_errors(outcome.errors)
            self.marks.refresh()
            self._say(
                "The server did not accept the post; the reasons are shown at the fields. "
                "Fix them and send again.",
                Level.ERROR,
            )
            return
        self.recent.remember(accounts)
        if outcome.state == "sent":
            self._say(sent_text(doc, outcome.made), Level.INFO)
        elif outcome.state == "queued":
            self.queued_entry = outcome.entry_id
            self._say(
                "Queued in the outbox: it is sent as soon as the connection is back. "
                f"({outcome.message})",
                Level.WARNING,
            )
        else:
            self._say(
                "Its schedule time has passed: choose what to do with it in the outbox.",
                Level.WARNING,
            )
        if self.state.doc.draft_id == doc.draft_id:
            self._new_post()
        self.refresh_outbox()

    # -- an edited post ------------------------------------------------------------------------
    async def _save_edit(self, doc: ComposerDocument, original: Post) -> None:
        sending = self.sending
        assert sending is not None
        # A failed post goes back to draft before it can be scheduled again (spec §3).
        back_to_draft = original.status == "failed" and doc.schedule.mode is not ScheduleMode.DRAFT
        outcome = await sending.save_edit(
            doc, original, self._progress, back_to_draft=back_to_draft
        )
        if outcome is None:
            return
        if outcome.errors:
            self.marks.remember_server_errors(outcome.errors)
            self.marks.refresh()
            self._say("The server did not accept the changes; see the fields.", Level.ERROR)
            return
        after = outcome.post
        assert after is not None
        self.state.original = after
        store = self.drafts.store
        if store is not None and self.state.draft_id is not None and after.updated_at:
            with contextlib.suppress(KeyError):
                await store.link_server_post(
                    self.state.draft_id, after.id, after.updated_at.isoformat()
                )
        if outcome.ignored:
            self.offer_replace(doc, outcome.ignored)
        else:
            # The post now holds these changes: its local draft leaves "Drafts on this computer".
            await self.drafts.retire(self.state.draft_id)
            self._say("Changes saved.", Level.INFO)

    async def _load_edited_post(self, post_id: str) -> Post | None:
        session = self.session
        if session is None:
            return None
        try:
            return await session.client.posts.get(post_id)
        except Exception:
            return session.cache.post(post_id)

    def offer_replace(self, doc: ComposerDocument, ignored: list[str]) -> None:
        self.last_ignored = list(ignored)
        names: dict[int, str] = {}
        if self.state.original is not None:
            with contextlib.suppress(Exception):  # only for the wording
                plan = build_update(doc, self.state.original)
                names = {
                    i: network_name(doc.destinations[d].platform)
                    for i, d in plan.platform_indexes.items()
                }
        self._messages().post(
            Message(
                "The server saved the post but did not apply "
                + describe_ignored(ignored, names)
                + ".",
                Level.WARNING,
                hint="You can replace the post: a new post is created with your version, then the "
                "old one is deleted.",
                action_label="Replace post…",
                action=lambda: self.confirm_replace(doc),
            )
        )

    def confirm_replace(self, doc: ComposerDocument) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Replace the post?",
            "Create a new post with your version and then delete the old one?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self._parent,
        )
        box.button(QMessageBox.StandardButton.Yes).setText("Replace")
        self.replace_box = box
        box.finished.connect(
            lambda code: (
                code == QMessageBox.StandardButton.Yes
                and self.gate.run("replace:" + (doc.editing_post_id or ""), self._replace(doc))
            )
        )
        box.open()

    async def _replace(self, doc: ComposerDocument) -> None:
        sending, session = self.sending, self.session
        old_id = doc.editing_post_id
        if sending is None or session is None or old_id is None:
            return
        fresh = doc.model_copy(deep=True)
        fresh.editing_post_id = None
        fresh.based_on_updated_at = None
        for dest in fresh.destinations:
            dest.post_platform_id = None
        fresh.media = [m for m in fresh.media if m.server_media_id is None]
        outcome = await sending.send_new(fresh, draft_id=None, revision=0, progress=self._progress)
        if outcome.state != "sent":
            self._after_send(outcome, fresh)
            self._say("The old post was kept: the new one was not created yet.", Level.WARNING)
            return
        # The old post's local drafts are replaced by the new post: they leave the list.
        store = self.drafts.store
        local = [d.id for d in store.drafts_of_post(old_id)] if store is not None else []
        if self.state.doc.editing_post_id == old_id and self.state.draft_id not in (None, *local):
            local.append(self.state.draft_id)  # type: ignore[arg-type]
        for draft_id in local:
            await self.drafts.retire(draft_id)
        # Through the workspace's write gate: never beside a calendar action on the same post.
        deleting = session.delete_replaced(old_id)
        if deleting is None or not await _done_well(deleting):
            self._say(
                "The new post was created, but the old one was not deleted: it is being changed "
                "elsewhere, or the server refused. Delete it from the calendar.",
                Level.WARNING,
            )
            return
        self._say(
            "Post replaced: the new version is in the calendar and the old one is deleted.",
            Level.INFO,
        )
        self._new_post()

    # -- the outbox's list ---------------------------------------------------------------------
    def refresh_outbox(self) -> None:
        if self.sending is None:
            self.outbox_panel.show_entries([])
            return
        self.outbox_panel.show_entries(self.sending.entries())
        queued = self.queued_entry
        if queued is not None and self.outbox_panel.state_of(queued) is OutboxState.SENT:
            # "Queued in the outbox…" must not stay up once the post went out.
            self.queued_entry = None
            self._say("The queued post was sent. It is in the calendar.", Level.INFO)
        # A sent draft leaves the store with its batch: the list must not offer it any more.
        self.drafts.refresh()

    def _edit_entry(self, entry_id: int) -> None:
        if self.sending is None:
            return
        entry = self.sending.outbox.get(entry_id)
        if entry is None or entry.draft_id is None:
            return
        self.drafts.open_draft(entry.draft_id)
        self.marks.remember_server_errors(self.sending.refusal_for(entry))
        self.marks.refresh()

    def _entry_as_draft(self, entry_id: int) -> None:
        if self.sending is not None:
            self.tasks.spawn(self._confirm_entry(entry_id, as_draft=True))

    def _entry_in_an_hour(self, entry_id: int) -> None:
        if self.sending is not None:
            later = (datetime.now(self.local_tz) + timedelta(hours=1)).replace(
                second=0, microsecond=0
            )
            self.tasks.spawn(self._confirm_entry(entry_id, scheduled_at=later))

    async def _confirm_entry(
        self, entry_id: int, *, as_draft: bool = False, scheduled_at: datetime | None = None
    ) -> None:
        assert self.sending is not None
        await self.sending.service.confirm(entry_id, scheduled_at=scheduled_at, as_draft=as_draft)

    def _discard_entry(self, entry_id: int) -> None:
        if self.sending is not None:
            self.tasks.spawn(self.sending.outbox.discard(entry_id))


async def _done_well(task: asyncio.Task[Any]) -> bool:
    """Whether a workspace's write ended well, without cancelling it if this page's task is
    cancelled meanwhile (its failure is reported by the workspace)."""
    await asyncio.wait([task])
    return not task.cancelled() and task.exception() is None


def sent_text(doc: ComposerDocument, count: int) -> str:
    mode = doc.schedule.mode
    what = {
        ScheduleMode.DRAFT: "saved as draft",
        ScheduleMode.AT: "scheduled",
        ScheduleMode.QUEUE_NEXT: "added to the queue",
        ScheduleMode.QUEUE_TOP: "added to the top of the queue",
        ScheduleMode.PUBLISH_NOW: "sent for publishing",
    }[mode]
    where = "It is in the calendar." if count == 1 else "They are in the calendar."
    return f"{count} post{'s' if count != 1 else ''} {what}. {where}"

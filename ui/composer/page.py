"""The Compose page: local drafts and the outbox on the left, destinations, the shared editor and
a tab per destination in the middle, the per-network preview on the right.

It plugs into the shell through `set_session()`, `action_specs()`, `new_post()` and
`edit_post()`. The workspace session owns the drafts file and sends its outbox; the page writes
drafts into that file, enqueues and listens (`attach_store`: drafts with no workspace). The
drafts are `DraftsController`'s, sending and the outbox `SendFlow`'s, the tabs
`DestinationTabs`', the field marks `CheckMarks`', the two menus `PostMenus`'.
"""

from __future__ import annotations

import contextlib
from datetime import date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QSplitter, QVBoxLayout, QWidget

from app.compose.document import ComposerDocument, Schedule, ScheduleMode
from app.models.posts import Post
from app.store.local_store import LocalStore
from app.sync.outbox import OutboxState
from ui.action_spec import ActionSpec
from ui.calendar.timezone import system_time_zone
from ui.composer.autosave import Autosaver, search_text
from ui.composer.check_marks import CheckMarks
from ui.composer.destination_tabs import DestinationTabs
from ui.composer.destinations import DestinationPicker
from ui.composer.drafts_controller import DraftsController
from ui.composer.drafts_panel import DraftsPanel, side_column
from ui.composer.editors import DestinationTab, SharedEditor
from ui.composer.field_errors import ErrorLabel, FieldErrors
from ui.composer.outbox_panel import OutboxPanel
from ui.composer.post_menus import PostMenus
from ui.composer.preview_folding import PreviewFolding
from ui.composer.preview_pane import PreviewPane, titled_column
from ui.composer.recent_sets import RecentSets, recent_sets_path
from ui.composer.save_failure import SaveFailureBar
from ui.composer.schedule_bar import ScheduleBar
from ui.composer.send_flow import SendFlow
from ui.composer.spelling import ComposerSpelling
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData
from ui.messages import Level, Message, MessageBridge, MessageScope
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

DEFAULT_HOUR = 9
REFRESH_AFTER_MS = 60
"""Counters, checks and the destination tabs follow typing this long after the first keystroke
of a burst (not restarted by the next): a keystroke itself only edits the document."""
SAVE_FAILED_TOPIC = "drafts-save-failed"
_TONES = {"info": "color:#1c4f9c;", "warning": "color:#7a4d00;", "error": "color:#9b1c1c;"}


class ComposerPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, local_tz: tzinfo | None = None) -> None:
        super().__init__(parent)
        self.question: QMessageBox | None = None  # the open question, for tests to answer
        self.setObjectName("composerPage")
        self.local_tz = local_tz or system_time_zone()
        self.session: WorkspaceSession | None = None
        self.messages: MessageBridge | MessageScope = MessageBridge(self)
        self.tasks = TaskGroup(self._task_failed)
        self.state = ComposerState(self)
        self.spelling = ComposerSpelling(self)  # found by the text fields' spell checking
        self.data = WorkspaceData(self.tasks, self)
        self.autosave = Autosaver(self.state, self.tasks, self)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_AFTER_MS)
        self._refresh_timer.timeout.connect(self._refresh_everything)
        self._build()
        self.drafts_controller = DraftsController(
            self.state,
            self.autosave,
            self.drafts,
            self.tasks,
            say=self._say,
            messages=lambda: self.messages,
            switch_to=self._switch_to,
            new_post=self.new_post,
            session=lambda: self.session,
            dialog_parent=self,
        )
        self.marks = CheckMarks(
            self.state, self.data, self.errors, self.schedule, self.tabs, self.tabs.tab_of
        )
        self.send_flow = SendFlow(
            self.state,
            self.schedule,
            self.drafts_controller,
            self.marks,
            self.outbox_panel,
            self.autosave,
            self.tasks,
            say=self._say,
            messages=lambda: self.messages,
            new_post=self.new_post,
            local_tz=self.local_tz,
            parent=self,
        )
        self._connect()
        self._refresh_everything()

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.status_line = QLabel()
        self.status_line.setObjectName("composerStatus")
        self.status_line.setWordWrap(True)
        self.drafts = DraftsPanel(self.local_tz)
        self.outbox_panel = OutboxPanel(self.local_tz)
        left = side_column(self.drafts, self.outbox_panel)

        self.picker = DestinationPicker(self.local_tz)
        self.picker.recent_provider = lambda: self.send_flow.recent.sets()
        self.general_error = ErrorLabel()
        self.errors = FieldErrors(self.general_error)
        self.destinations_error = ErrorLabel()
        self.errors.register("destinations", self.picker.list, self.destinations_error)
        self.shared = SharedEditor(self.state, self.errors, lambda e: self.menus.remember_editor(e))
        self.menus = PostMenus(self.state, self.data, self.shared, self)
        self.tabs = DestinationTabs(
            self.state,
            self.data,
            self.errors,
            self.shared,
            self.menus.remember_editor,
            lambda: self.session,
        )
        self.schedule = ScheduleBar(self.local_tz)
        self.errors.register("scheduled_at", self.schedule.when, self.schedule.error)
        self.preview = PreviewPane(self.state)

        center = QWidget()
        center_layout = QVBoxLayout(center)
        center_layout.setContentsMargins(8, 0, 8, 0)
        center_layout.addWidget(self.status_line)
        picker_box = QVBoxLayout()
        picker_box.addWidget(self.picker)
        picker_box.addWidget(self.destinations_error)
        center_layout.addLayout(picker_box, 2)
        # Says where the user types when the text cannot be saved (issue 19 §2).
        self.save_failure = SaveFailureBar(
            self.autosave, lambda: search_text(self.state), self.tasks
        )
        center_layout.addWidget(self.save_failure)
        center_layout.addWidget(self.tabs, 5)
        center_layout.addWidget(self.general_error)
        center_layout.addWidget(self.schedule)
        preview_box = titled_column("Preview", self.preview)
        self.preview_folding = PreviewFolding(preview_box, self)
        self.tabs.setCornerWidget(self.preview_folding.toggle, Qt.Corner.TopRightCorner)
        self.preview_folding.toggle.setAccessibleName("Show the preview")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        for i, (part, stretch) in enumerate(((left, 0), (center, 1), (preview_box, 0))):
            splitter.addWidget(part)
            splitter.setStretchFactor(i, stretch)
        splitter.setSizes([240, 760, 300])
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(splitter)
        self.setStyleSheet("QLabel#sectionTitle { font-weight: 600; margin-top: 4px; }")

    def _connect(self) -> None:
        self.state.changed.connect(self._on_changed)
        self.state.changed.connect(self.save_failure.text_changed)
        self.state.destinationsChanged.connect(self._rebuild_tabs)
        self.state.replaced.connect(self._on_replaced)
        self.picker.chosenChanged.connect(self.state.set_destinations)
        self.schedule.scheduleChanged.connect(self.state.set_schedule)
        self.schedule.sendClicked.connect(self.send)
        self.data.accountsChanged.connect(self._accounts_changed)
        self.data.lookupChanged.connect(lambda *_: self.marks.refresh())
        self.autosave.failed.connect(self._save_failed)
        self.save_failure.recovered.connect(self._save_recovered)
        self.drafts.openRequested.connect(self._open_from_list)
        self.drafts.newRequested.connect(lambda: self.new_post())

    # -- the shell's interface -----------------------------------------------------------------
    def set_session(self, session: WorkspaceSession | None) -> None:
        if session is self.session:
            return
        if self.session is not None:
            self._leave_session()
        self.session = session
        if session is not None:
            self.messages = session.messages
            session.dataChanged.connect(self.data.reload)
            self._open_store(session)
        self.data.set_session(session)
        self.new_post()
        self.send_flow.refresh_outbox()  # and the drafts list

    @property
    def store(self) -> LocalStore | None:
        return self.drafts_controller.store

    @property
    def tabs_by_account(self) -> dict[str, DestinationTab]:
        return self.tabs.by_account

    def keep_clear(self) -> list[QWidget]:
        """What the window's messages must never cover: the send button and its choices."""
        return [self.schedule]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.preview_folding.fit(self.width())

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec(
                "compose.send",
                "Send / save the post",
                self.send,
                shortcut="Ctrl+Return",
                menu="Post",
                scope="compose",
                enabled=lambda: self.schedule.send.isEnabled(),
                help="Save, schedule, queue or publish, as chosen under the editor",
            ),
            ActionSpec(
                "compose.preview",
                "Show / hide the preview",
                self.preview_folding.flip,
                shortcut="Ctrl+Alt+P",
                menu="View",
                scope="compose",
                help="The preview column folds away by itself in a narrow window",
            ),
            ActionSpec(
                "compose.signature",
                "Insert signature…",
                self.menus.show_signatures,
                shortcut="Ctrl+Shift+S",
                menu="Post",
                scope="compose",
                enabled=lambda: self.menus.signature_button.isEnabled(),
            ),
        ]

    def new_post(self, day: date | None = None) -> None:
        """An empty composer with the cursor in the text (`day`: schedule on that day)."""
        doc = ComposerDocument()
        if day is not None:
            at = datetime.combine(day, time(DEFAULT_HOUR), tzinfo=self.local_tz)
            now = datetime.now(self.local_tz)
            if at <= now:
                at = (now + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
            doc.schedule = Schedule(mode=ScheduleMode.AT, at=at)
        self._switch_to(doc, None, 0, None)

    def edit_post(self, post_id: str) -> None:
        """Open an existing post: its local draft when there is one, else the post itself."""
        self.status_line.clear()  # what the last send said is about another post
        self.tasks.spawn(self.drafts_controller.open_post(post_id))

    def open_draft(self, draft_id: str) -> None:
        self.drafts_controller.open_draft(draft_id)

    def _open_from_list(self, draft_id: str) -> None:
        self.status_line.clear()  # "2 posts scheduled" stayed under another post
        self.drafts_controller.open_draft(draft_id)

    def send(self) -> None:
        """The Send button: one send per click; a second click while busy is ignored."""
        self.refresh_now()  # Ctrl+Return right after a keystroke: judged on the text as typed
        problem = self.session.local_store_problem if self.session is not None else ""
        self.send_flow.send(self.save_failure.problem or problem)  # the drafts file's words

    # -- the document and what shows it --------------------------------------------------------
    def _switch_to(
        self,
        doc: ComposerDocument,
        draft_id: str | None,
        revision: int,
        original: Post | None,
        *,
        asked: bool = False,
    ) -> None:
        reopen = lambda: self._switch_to(doc, draft_id, revision, original, asked=True)  # noqa: E731
        if not asked and (box := self.save_failure.ask_before_replacing(reopen)) is not None:
            self.question = box
            return
        pending = self.autosave.before_replace()
        if pending is not None:
            self.tasks.spawn(pending)
        self.marks.forget_server_errors()
        self.state.replace(doc, draft_id=draft_id, revision=revision, original=original)
        self.shared.text.setFocus()

    def _on_replaced(self) -> None:
        doc = self.state.doc
        self.picker.set_chosen([d.account_id for d in doc.destinations])
        self.schedule.show_schedule(
            doc.schedule.mode, doc.schedule.at, editing=doc.editing_post_id is not None
        )
        self._refresh_everything()
        self.drafts_controller.refresh()

    def _on_changed(self) -> None:
        self.marks.keep_unchanged()
        if not self.state.typing:
            self._refresh_everything()
        elif not self._refresh_timer.isActive():
            # Keystrokes are coalesced: on a 2,200-character post with 3 destinations,
            # refreshing on each held the GUI thread 27-48 ms (issue 15 §5).
            self._refresh_timer.start()

    def refresh_now(self) -> None:
        """Bring counters, checks and tabs up to the document at once if a refresh is due."""
        if self._refresh_timer.isActive():
            self._refresh_everything()

    def _refresh_everything(self) -> None:
        self._refresh_timer.stop()
        accounts = self.data.accounts_by_id()
        self.shared.refresh(accounts)
        self.tabs.refresh()
        self.preview.refresh(accounts)
        chosen = [d.account_id for d in self.state.doc.destinations]
        self.schedule.show_zones([accounts[a] for a in chosen if a in accounts])
        self.menus.show_labels_text()
        self.marks.refresh()

    def _rebuild_tabs(self) -> None:
        self.errors.forget("destinations")
        self.errors.register("destinations", self.picker.list, self.destinations_error)
        self.tabs.rebuild()
        self._refresh_everything()

    def _accounts_changed(self) -> None:
        self.picker.set_accounts(
            self.data.accounts(), [d.account_id for d in self.state.doc.destinations]
        )
        self._rebuild_tabs()

    # -- session plumbing ----------------------------------------------------------------------
    def _open_store(self, session: WorkspaceSession) -> None:
        opened = self.drafts_controller.open_for(session, self._no_drafts_file)
        if opened is not None:
            self.attach_store(opened[0], owned=opened[1])

    def _no_drafts_file(self, problem: str, error: bool) -> None:
        if error:
            self._say(problem, Level.ERROR)
        else:
            self.status_line.setText(problem)
        self.save_failure.set_no_drafts_file(problem)

    def attach_store(self, store: LocalStore, *, owned: bool = False) -> None:
        """Use `store` for drafts (closed by the page only if it opened it, `owned`); with a
        session whose outbox runs, send through it."""
        self.drafts_controller.attach(store, owned=owned)
        self.save_failure.set_no_drafts_file(None)
        self.send_flow.recent = RecentSets(recent_sets_path(store.path))
        self.spelling.use_drafts_file(store.path)
        self.send_flow.attach(self.session)  # refreshes the outbox and the drafts list

    def _leave_session(self) -> None:
        self.send_flow.stop()
        self.drafts_controller.leave(self.session)
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.dataChanged.disconnect(self.data.reload)  # type: ignore[union-attr]

    async def shutdown(self) -> None:
        """The app is closing: save what is unsaved, close the drafts file the page opened."""
        self.send_flow.stop()
        await self.drafts_controller.close()
        await self.tasks.cancel_all()

    # -- messages ------------------------------------------------------------------------------
    def _say(self, text: str, level: Level) -> None:
        self.status_line.setText(text)
        self.status_line.setStyleSheet(_TONES[level.value])
        if level is not Level.INFO:
            self.messages.post(Message(text, level))

    def _save_failed(self, text: str) -> None:
        # The bar says it where the user types; the window says it once (a retry is not news).
        if not self.save_failure.repeats:
            self.messages.post(Message(text, Level.ERROR, topic=SAVE_FAILED_TOPIC))

    def _save_recovered(self, problem: str) -> None:
        self.messages.withdraw(SAVE_FAILED_TOPIC)
        if self.status_line.text() == problem:
            self.status_line.clear()

    def _task_failed(self, error: BaseException) -> None:
        self.messages.error(error)
        self.status_line.setText(getattr(error, "message", None) or str(error))


__all__ = ["ComposerPage", "OutboxState"]

"""The Compose page: local drafts and the outbox on the left, destinations, the shared editor and
a tab per destination in the middle, the per-network preview on the right.

It plugs into the shell through `set_session()`, `action_specs()`, `new_post()` and
`edit_post()`. The workspace session owns the durable drafts file and sends its outbox (also
while this page was never shown); the page writes drafts into that file, enqueues and listens.
Given a store with no session (`attach_store`), composing and drafts work with no workspace.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.compose.checks import blocking, check_document, issues_by_path
from app.compose.document import ComposerDocument, Schedule, ScheduleMode
from app.compose.opening import document_from_post
from app.csv_io.export import export_calendar
from app.models.posts import Post
from app.store.local_store import Draft, LocalStore, LocalStoreError, SaveResult, local_store_path
from app.sync.outbox import OutboxState
from app.workspaces.profiles import Paths
from ui.action_spec import ActionSpec
from ui.calendar.timezone import system_time_zone
from ui.composer.autosave import Autosaver
from ui.composer.csv_dialog import ImportDialog
from ui.composer.destinations import DestinationPicker
from ui.composer.drafts_panel import DraftsPanel
from ui.composer.editors import DestinationTab, SharedEditor, TextEditor
from ui.composer.field_errors import ErrorLabel, FieldErrors
from ui.composer.outbox_panel import OutboxPanel
from ui.composer.preview_folding import PreviewFolding
from ui.composer.preview_pane import PreviewPane
from ui.composer.recent_sets import RecentSets, recent_sets_path
from ui.composer.schedule_bar import ScheduleBar
from ui.composer.sending import SendController, SendOutcome
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData
from ui.icons import network_icon, network_name
from ui.messages import Level, Message, MessageBridge, MessageScope
from ui.tasks import TaskGroup
from ui.write_gate import WriteGate

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

DEFAULT_HOUR = 9


class ComposerPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, local_tz: tzinfo | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composerPage")
        self.local_tz = local_tz or system_time_zone()
        self.session: WorkspaceSession | None = None
        self.messages: MessageBridge | MessageScope = MessageBridge(self)
        self.tasks = TaskGroup(self._task_failed)
        self.gate = WriteGate(self.tasks, self)
        self.state = ComposerState(self)
        self.data = WorkspaceData(self.tasks, self)
        self.autosave = Autosaver(self.state, self.tasks, self)
        self.store: LocalStore | None = None
        self._owns_store = False
        self.sending: SendController | None = None
        self.recent = RecentSets(None)
        self._server_errors: dict[str, list[str]] = {}
        self._editing_original: Post | None = None
        self._last_editor: TextEditor | None = None
        self.tabs_by_account: dict[str, DestinationTab] = {}
        self._build()
        self._connect()
        self._refresh_everything()

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.status_line = QLabel()
        self.status_line.setObjectName("composerStatus")
        self.status_line.setWordWrap(True)
        self.drafts = DraftsPanel(self.local_tz)
        self.outbox_panel = OutboxPanel(self.local_tz)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.drafts)
        left.addWidget(self.outbox_panel)
        left.setSizes([420, 260])
        left.setMinimumWidth(230)  # two buttons a row, whole labels
        left.setMaximumWidth(320)

        self.picker = DestinationPicker(self.local_tz)
        self.picker.recent_provider = lambda: self.recent.sets()
        self.general_error = ErrorLabel()
        self.errors = FieldErrors(self.general_error)
        self.destinations_error = ErrorLabel()
        self.errors.register("destinations", self.picker.list, self.destinations_error)
        self.shared = SharedEditor(self.state, self.errors, self._remember_editor)
        self.signature_button = QPushButton("Signature ▾")
        self.signature_button.setObjectName("signatureButton")
        self.signature_button.clicked.connect(self._show_signatures)
        self.labels_button = QPushButton("Labels ▾")
        self.labels_button.setObjectName("labelsButton")
        self.labels_button.clicked.connect(self._show_labels)
        self.labels_text = QLabel()
        self.shared.tools.addWidget(self.signature_button)
        self.shared.tools.addWidget(self.labels_button)
        self.shared.tools.addWidget(self.labels_text, 1)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("composerTabs")
        self.tabs.addTab(self.shared, "All destinations")
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
        center_layout.addWidget(self.tabs, 5)
        center_layout.addWidget(self.general_error)
        center_layout.addWidget(self.schedule)
        preview_box = QWidget()
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.setContentsMargins(0, 0, 0, 0)
        preview_title = QLabel("Preview")
        preview_title.setObjectName("sectionTitle")
        preview_layout.addWidget(preview_title)
        preview_layout.addWidget(self.preview, 1)
        preview_box.setMinimumWidth(230)
        self.preview_folding = PreviewFolding(preview_box, self)
        self.tabs.setCornerWidget(self.preview_folding.toggle, Qt.Corner.TopRightCorner)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(center)
        splitter.addWidget(preview_box)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setStretchFactor(2, 0)
        splitter.setSizes([240, 760, 300])
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(splitter)
        self.setStyleSheet("QLabel#sectionTitle { font-weight: 600; margin-top: 4px; }")

    def _connect(self) -> None:
        self.state.changed.connect(self._on_changed)
        self.state.destinationsChanged.connect(self._rebuild_tabs)
        self.state.replaced.connect(self._on_replaced)
        self.picker.chosenChanged.connect(self.state.set_destinations)
        self.schedule.scheduleChanged.connect(self.state.set_schedule)
        self.schedule.sendClicked.connect(self.send)
        self.gate.busyChanged.connect(self._busy_changed)
        self.data.accountsChanged.connect(self._accounts_changed)
        self.data.lookupChanged.connect(lambda *_: self._refresh_checks())
        self.data.signaturesChanged.connect(self._signatures_changed)
        self.autosave.saved.connect(self._saved)
        self.autosave.conflict.connect(self._conflict)
        self.autosave.failed.connect(lambda text: self._say(text, Level.ERROR))
        self.drafts.openRequested.connect(self.open_draft)
        self.drafts.newRequested.connect(lambda: self.new_post())
        self.drafts.renameRequested.connect(self._rename_draft)
        self.drafts.duplicateRequested.connect(self._duplicate_draft)
        self.drafts.deleteRequested.connect(self._delete_draft)
        self.drafts.searchChanged.connect(lambda _t: self._refresh_drafts())
        self.outbox_panel.editRequested.connect(self._edit_entry)
        self.outbox_panel.sendAsDraftRequested.connect(self._entry_as_draft)
        self.outbox_panel.sendAnywayRequested.connect(self._entry_in_an_hour)
        self.outbox_panel.discardRequested.connect(self._discard_entry)

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
        self._refresh_drafts()
        self._refresh_outbox()

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
                self._show_signatures,
                shortcut="Ctrl+Shift+S",
                menu="Post",
                scope="compose",
                enabled=lambda: self.signature_button.isEnabled(),
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
        self._editing_original = None
        self._switch_to(doc, None, 0)
        self.shared.text.setFocus()

    def edit_post(self, post_id: str) -> None:
        """Open an existing post: its local draft when there is one, else the post itself."""
        self.tasks.spawn(self._edit_post(post_id))

    # -- documents -----------------------------------------------------------------------------
    def _switch_to(self, doc: ComposerDocument, draft_id: str | None, revision: int) -> None:
        pending = self.autosave.before_replace()
        if pending is not None:
            self.tasks.spawn(pending)
        self._server_errors = {}
        self.state.replace(doc, draft_id=draft_id, revision=revision)

    def open_draft(self, draft_id: str) -> None:
        if self.store is None or draft_id == self.state.draft_id:
            return
        draft = self.store.get_draft(draft_id)
        if draft is None:
            self._say("That draft no longer exists.", Level.WARNING)
            self._refresh_drafts()
            return
        try:
            doc = ComposerDocument.from_json(draft.document)
        except ValueError:
            self._say(
                "This draft could not be read by this version of Postdesk; it was left as it is.",
                Level.ERROR,
            )
            return
        self._editing_original = None
        if doc.editing_post_id and self.session is not None:
            self._editing_original = self.session.cache.post(doc.editing_post_id)
        self._switch_to(doc, draft.id, draft.revision)
        self.shared.text.setFocus()

    async def _edit_post(self, post_id: str) -> None:
        session = self.session
        if session is None:
            return
        post = session.cache.post(post_id)
        with contextlib.suppress(Exception):
            post = await session.client.posts.get(post_id)
        if post is None:
            self._say("This post could not be loaded.", Level.ERROR)
            return
        server_doc = document_from_post(post)
        local = self.store.drafts_of_post(post_id) if self.store is not None else []
        mine = next((d for d in local if d.conflict_of is None), None)
        if mine is not None and self.store is not None and post.updated_at is not None:
            copy = await self.store.check_server_version(
                mine.id, post.updated_at.isoformat(), server_doc.to_json()
            )
            if copy is not None:
                self._say(
                    "This post changed on the server since you edited it here. Both versions "
                    "are kept in the drafts list: yours (open now) and the server's.",
                    Level.WARNING,
                )
            self._editing_original = post
            self.open_draft(mine.id)
            self._refresh_drafts()
            return
        self._editing_original = post
        self._switch_to(server_doc, None, 0)
        self.shared.text.setFocus()

    # -- refreshing ----------------------------------------------------------------------------
    def _on_replaced(self) -> None:
        doc = self.state.doc
        self.picker.set_chosen([d.account_id for d in doc.destinations])
        self.schedule.show_schedule(
            doc.schedule.mode, doc.schedule.at, editing=doc.editing_post_id is not None
        )
        self._refresh_everything()
        self._refresh_drafts()

    def _on_changed(self) -> None:
        self._server_errors = {}
        self._refresh_everything()

    def _refresh_everything(self) -> None:
        accounts = self.data.accounts_by_id()
        self.shared.refresh(accounts)
        for tab in self.tabs_by_account.values():
            tab.refresh()
        self.preview.refresh(accounts)
        self.schedule.show_zones(
            [
                accounts[d.account_id]
                for d in self.state.doc.destinations
                if d.account_id in accounts
            ]
        )
        self._show_labels_text()
        self._refresh_checks()

    def _refresh_checks(self) -> None:
        accounts = self.data.accounts_by_id() or None
        issues = check_document(
            self.state.doc,
            accounts,
            board_ids=self.data.known_ids("boards"),
            channel_ids=self.data.known_ids("channels"),
        )
        shown = issues_by_path(issues)
        for path, messages in self._server_errors.items():
            shown.setdefault(path, [])
            shown[path] = [*messages, *(m for m in shown[path] if m not in messages)]
        doc = self.state.doc
        pristine = not (doc.content or doc.destinations or doc.media or self._server_errors)
        # An empty composer is not wrong yet: no red fields before the user did anything (the
        # line under the send button still says what is missing).
        self.errors.show({} if pristine else shown)
        self.current_issues = issues
        stops = blocking(issues)
        self.schedule.set_blocked(
            self._blocker_text(stops[0].path, stops[0].message) if stops else ""
        )
        self._mark_tabs(shown)

    def _blocker_text(self, path: str, message: str) -> str:
        parts = path.split(".")
        if len(parts) > 1 and parts[0] == "destinations" and parts[1].isdigit():
            index = int(parts[1])
            if index < len(self.state.doc.destinations):
                return f"{network_name(self.state.doc.destinations[index].platform)}: {message}"
        return message

    def _mark_tabs(self, shown: dict[str, list[str]]) -> None:
        for i, dest in enumerate(self.state.doc.destinations):
            tab = self.tabs_by_account.get(dest.account_id)
            if tab is None:
                continue
            index = self.tabs.indexOf(tab)
            prefix = f"destinations.{i}"
            problem = any(p == prefix or p.startswith(prefix + ".") for p in shown)
            own = tab.overrides()
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

    def _rebuild_tabs(self) -> None:
        current = self.tabs.currentWidget()
        current_account = next((a for a, t in self.tabs_by_account.items() if t is current), None)
        for tab in self.tabs_by_account.values():
            self.tabs.removeTab(self.tabs.indexOf(tab))
            tab.deleteLater()
        self.tabs_by_account = {}
        self.errors.forget("destinations")
        self.errors.register("destinations", self.picker.list, self.destinations_error)
        for i, dest in enumerate(self.state.doc.destinations):
            tab = DestinationTab(
                self.state, i, self.data, self.errors, self._open_audio, self._remember_editor
            )
            self.tabs.addTab(tab, network_icon(dest.platform), network_name(dest.platform))
            self.tabs_by_account[dest.account_id] = tab
        if current_account in self.tabs_by_account:
            self.tabs.setCurrentWidget(self.tabs_by_account[current_account])
        self._refresh_everything()

    def _accounts_changed(self) -> None:
        self.picker.set_accounts(
            self.data.accounts(), [d.account_id for d in self.state.doc.destinations]
        )
        self._rebuild_tabs()

    # -- drafts --------------------------------------------------------------------------------
    def _refresh_drafts(self) -> None:
        if self.store is None:
            self.drafts.show_drafts([], None)
            return
        try:
            found = self.store.list_drafts(self.drafts.search.text())
        except LocalStoreError as exc:
            self._say(exc.message, Level.ERROR)
            return
        self.drafts.show_drafts(found, self.state.draft_id)

    def _saved(self, _draft: Draft) -> None:
        self._refresh_drafts()

    def _conflict(self, result: SaveResult) -> None:
        other = result.conflict
        mine = result.saved.title or "your copy"
        theirs = other.title if other else ""
        self._say(
            "This draft was changed in another window meanwhile. Nothing was overwritten: both "
            f"versions are in the drafts list, and you are editing “{mine}” now (the other is "
            f"“{theirs}”).",
            Level.WARNING,
        )
        self._refresh_drafts()

    def _rename_draft(self, draft_id: str, title: str) -> None:
        self.tasks.spawn(self._rename(draft_id, title))

    async def _rename(self, draft_id: str, title: str) -> None:
        if self.store is None:
            return
        if draft_id == self.state.draft_id:
            await self.autosave.flush()
        draft = await self.store.rename_draft(draft_id, title)
        if draft_id == self.state.draft_id:
            self.state.doc.title = draft.title
            self.state.revision = draft.revision
        self._refresh_drafts()

    def _duplicate_draft(self, draft_id: str) -> None:
        self.tasks.spawn(self._duplicate(draft_id))

    async def _duplicate(self, draft_id: str) -> None:
        if self.store is None:
            return
        if draft_id == self.state.draft_id:
            await self.autosave.flush()
        copy = await self.store.duplicate_draft(draft_id)
        self._refresh_drafts()
        self.open_draft(copy.id)

    def _delete_draft(self, draft_id: str) -> None:
        self.tasks.spawn(self._delete(draft_id))

    async def _delete(self, draft_id: str) -> None:
        store = self.store
        if store is None:
            return
        if draft_id == self.state.draft_id:
            self.autosave.store = None  # what was typed is being thrown away on purpose
            self.new_post()
            self.autosave.store = store
        await store.delete_draft(draft_id)
        self._refresh_drafts()
        self.messages.info(
            "Draft deleted.",
            action_label="Undo",
            action=lambda: self._undo_delete(draft_id),
        )

    def _undo_delete(self, draft_id: str) -> None:
        self.tasks.spawn(self._restore(draft_id))

    async def _restore(self, draft_id: str) -> None:
        if self.store is not None:
            await self.store.restore_draft(draft_id)
            self._refresh_drafts()

    # -- labels and signatures -----------------------------------------------------------------
    def _show_labels(self) -> None:
        menu = self.labels_menu()
        menu.popup(self.labels_button.mapToGlobal(self.labels_button.rect().bottomLeft()))

    def labels_menu(self) -> QMenu:
        menu = QMenu(self)
        chosen = set(self.state.doc.labels)
        for label in self.data.labels():
            action = menu.addAction(label.shown_name)
            action.setCheckable(True)
            action.setChecked(label.id in chosen)
            action.toggled.connect(lambda on, lid=label.id: self._toggle_label(lid, on))
        if menu.isEmpty():
            menu.addAction("No labels in this workspace").setEnabled(False)
        return menu

    def _toggle_label(self, label_id: str, on: bool) -> None:
        labels = [x for x in self.state.doc.labels if x != label_id]
        if on:
            labels.append(label_id)
        self.state.set_labels(labels)

    def _show_labels_text(self) -> None:
        names = {lb.id: lb.shown_name for lb in self.data.labels()}
        chosen = [names.get(i, "unknown label") for i in self.state.doc.labels]
        self.labels_text.setText(", ".join(chosen))

    def _remember_editor(self, editor: TextEditor) -> None:
        self._last_editor = editor

    def _show_signatures(self) -> None:
        self.data.load_signatures()
        menu = self.signatures_menu()
        menu.popup(self.signature_button.mapToGlobal(self.signature_button.rect().bottomLeft()))

    def signatures_menu(self) -> QMenu:
        menu = QMenu(self)
        if self.data.signatures is None:
            menu.addAction("Loading signatures…").setEnabled(False)
            return menu
        for signature in self.data.signatures:
            sub = menu.addMenu(signature.name)
            sub.addAction("Insert at the cursor").triggered.connect(
                lambda _=False, text=signature.content: self.insert_signature(text, append=False)
            )
            sub.addAction("Append at the end").triggered.connect(
                lambda _=False, text=signature.content: self.insert_signature(text, append=True)
            )
        if menu.isEmpty():
            menu.addAction(self.data.signatures_reason or "No signatures yet").setEnabled(False)
        return menu

    def insert_signature(self, text: str, *, append: bool) -> None:
        """Into the editor last used (shared, or a destination's own text)."""
        editor = self._last_editor
        if editor is None or editor.isReadOnly():
            editor = self.shared.text
        if append:
            editor.append_text(text)
        else:
            editor.insert_at_cursor(text)
        editor.setFocus()

    def _signatures_changed(self) -> None:
        missing = self.data.signatures == [] and bool(self.data.signatures_reason)
        self.signature_button.setEnabled(not missing)
        self.signature_button.setToolTip(self.data.signatures_reason if missing else "")

    def _open_audio(self, account_id: str, done: Callable[[dict[str, Any]], None]) -> None:
        account = self.data.accounts_by_id().get(account_id)
        if self.session is None or account is None:
            return
        from ui.composer.audio_picker import AudioPickerDialog  # built on first use

        dialog = AudioPickerDialog(self.session.client.audio, account, parent=self)
        dialog.chosen.connect(lambda track: done({"id": str(track.id), "title": track.title}))
        self.audio_dialog = dialog
        dialog.open()

    # -- sending -------------------------------------------------------------------------------
    def send(self) -> None:
        """The Send button: one send per click; a second click while busy is ignored."""
        if self.gate.is_busy(self.state.doc.draft_id) or not self.schedule.send.isEnabled():
            return
        if self.sending is None:
            problem = self.session.local_store_problem if self.session is not None else ""
            self._say(
                problem or "Not connected to a workspace: the post stays in your drafts.",
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
            self,
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
        if doc.editing_post_id is not None and self._editing_original is not None:
            await self._save_edit(doc)
            return
        outcome = await sending.send_new(
            doc, draft_id=draft_id, revision=revision, progress=self._progress
        )
        self._after_send(outcome, doc)

    def _after_send(self, outcome: SendOutcome, doc: ComposerDocument) -> None:
        accounts = [d.account_id for d in doc.destinations if d.enabled]
        if outcome.state == "refused":
            self._server_errors = outcome.errors
            self._refresh_checks()
            self._say(
                "The server did not accept the post; the reasons are shown at the fields. "
                "Fix them and send again.",
                Level.ERROR,
            )
            return
        self.recent.remember(accounts)
        if outcome.state == "sent":
            self._say(_sent_text(doc, outcome.made), Level.INFO)
        elif outcome.state == "queued":
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
            self.new_post()
        self._refresh_outbox()

    async def _save_edit(self, doc: ComposerDocument) -> None:
        sending = self.sending
        original = self._editing_original
        assert sending is not None
        assert original is not None
        # A failed post goes back to draft before it can be scheduled again (spec §3).
        back_to_draft = original.status == "failed" and doc.schedule.mode is not ScheduleMode.DRAFT
        outcome = await sending.save_edit(
            doc, original, self._progress, back_to_draft=back_to_draft
        )
        if outcome is None:
            return
        if outcome.errors:
            self._server_errors = outcome.errors
            self._refresh_checks()
            self._say("The server did not accept the changes; see the fields.", Level.ERROR)
            return
        after = outcome.post
        assert after is not None
        self._editing_original = after
        if self.store is not None and self.state.draft_id is not None and after.updated_at:
            with contextlib.suppress(KeyError):
                await self.store.link_server_post(
                    self.state.draft_id, after.id, after.updated_at.isoformat()
                )
        if outcome.ignored:
            self._offer_replace(doc, outcome.ignored)
        else:
            self._say("Changes saved.", Level.INFO)

    def _offer_replace(self, doc: ComposerDocument, ignored: list[str]) -> None:
        self.last_ignored = list(ignored)
        self.messages.post(
            Message(
                "The server saved the post but ignored some changes: " + ", ".join(ignored) + ".",
                Level.WARNING,
                hint="You can replace the post: a new post is created with your version, then the "
                "old one is deleted.",
                action_label="Replace post…",
                action=lambda: self._confirm_replace(doc),
            )
        )

    def _confirm_replace(self, doc: ComposerDocument) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Replace the post?",
            "Create a new post with your version and then delete the old one?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
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
        self.new_post()

    # -- CSV ---------------------------------------------------------------------------------------
    def choose_csv(self) -> None:
        dialog = QFileDialog(self, "Import CSV", "", "CSV files (*.csv)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda name: self.import_csv(Path(name)))
        self.file_dialog = dialog
        dialog.open()

    def import_csv(self, path: Path) -> ImportDialog | None:
        """Check and send the rows of `path`, showing progress and the summary."""
        if self.sending is None:
            self._say("Connect a workspace before importing.", Level.WARNING)
            return None
        dialog = ImportDialog(path, self)
        self.import_dialog = dialog
        dialog.open()
        self.tasks.spawn(dialog.run(self.sending.service, self.local_tz))
        return dialog

    def choose_export(self) -> None:
        dialog = QFileDialog(self, "Export calendar", "calendar.csv", "CSV files (*.csv)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda name: self.export_csv(Path(name)))
        self.file_dialog = dialog
        dialog.open()

    def export_csv(self, path: Path) -> int:
        if self.session is None:
            return 0
        start = datetime(1970, 1, 1, tzinfo=UTC)
        end = datetime(2200, 1, 1, tzinfo=UTC)
        try:
            count = export_calendar(self.session.cache, path, start, end, self.local_tz)
        except OSError as exc:
            self._say(f"Could not write {path}: {exc.strerror or exc}", Level.ERROR)
            return 0
        self._say(f"{count} posts exported to {path}.", Level.INFO)
        return count

    # -- outbox --------------------------------------------------------------------------------
    def _refresh_outbox(self) -> None:
        if self.sending is None:
            self.outbox_panel.show_entries([])
            return
        self.outbox_panel.show_entries(self.sending.entries())

    def _edit_entry(self, entry_id: int) -> None:
        if self.sending is None:
            return
        entry = self.sending.outbox.get(entry_id)
        if entry is None or entry.draft_id is None:
            return
        self.open_draft(entry.draft_id)
        self._server_errors = self.sending.refusal_for(entry)
        self._refresh_checks()

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

    # -- session plumbing ----------------------------------------------------------------------
    def _open_store(self, session: WorkspaceSession) -> None:
        store = session.local_store
        self._owns_store = False
        if store is None and not session.local_store_problem:
            # A session that was not started (no outbox): drafts still work from the file.
            try:
                store = LocalStore.open(local_store_path(Paths(), session.profile.id))
            except LocalStoreError as exc:
                self._say(exc.message, Level.ERROR)
                return
            self._owns_store = True
        if store is None:
            self.status_line.setText(session.local_store_problem)
            return
        self.attach_store(store)

    def attach_store(self, store: LocalStore) -> None:
        """Use `store` for drafts (closed by the page only if it opened it); with a session
        whose outbox runs, send through it."""
        self.store = store
        self.autosave.store = store
        self.recent = RecentSets(recent_sets_path(store.path))
        if self.sending is not None:
            self.sending.stop()
            self.sending = None
        if self.session is not None and self.session.outbox is not None:
            self.sending = SendController(self.session, parent=self)
            self.sending.entriesChanged.connect(self._refresh_outbox)
            self.sending.statusChanged.connect(self.outbox_panel.show_status)
            self.sending.entriesChanged.connect(self._refresh_drafts)
            self.sending.show_status()  # it may have been waiting long before the page opened
        self._refresh_drafts()
        self._refresh_outbox()

    def _leave_session(self) -> None:
        session = self.session
        if self.sending is not None:
            self.sending.stop()
            self.sending = None
        store, owned = self.store, self._owns_store
        pending = self.autosave.before_replace()
        self.store = None
        self.autosave.store = None
        if store is not None and not owned and session is not None:
            if pending is not None:
                session.finish(pending)  # the session closes its file after this last save
        elif store is not None:
            self.tasks.spawn(self._close_store(store, owned, pending))
        elif pending is not None:
            pending.close()
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.dataChanged.disconnect(self.data.reload)  # type: ignore[union-attr]

    async def _close_store(
        self, store: LocalStore, owned: bool, pending: Coroutine[Any, Any, None] | None
    ) -> None:
        try:
            if pending is not None:
                await pending
        finally:
            if owned:
                store.close()

    async def shutdown(self) -> None:
        """Save what is unsaved and close the drafts file if the page opened it (the app is
        closing; the session stops the outbox and closes its own file)."""
        await self.autosave.flush()
        if self.sending is not None:
            self.sending.stop()
            self.sending = None
        if self.store is not None and self._owns_store:
            self.store.close()
        await self.tasks.cancel_all()

    # -- messages ------------------------------------------------------------------------------
    def _say(self, text: str, level: Level) -> None:
        self.status_line.setText(text)
        self.status_line.setStyleSheet(
            {"info": "color:#1c4f9c;", "warning": "color:#7a4d00;", "error": "color:#9b1c1c;"}[
                level.value
            ]
        )
        if level is not Level.INFO:
            self.messages.post(Message(text, level))

    def _task_failed(self, error: BaseException) -> None:
        self.messages.error(error)
        self.status_line.setText(getattr(error, "message", None) or str(error))


async def _done_well(task: asyncio.Task[Any]) -> bool:
    """Whether a workspace's write ended well, without cancelling it if this page's task is
    cancelled meanwhile (its failure is reported by the workspace)."""
    await asyncio.wait([task])
    return not task.cancelled() and task.exception() is None


def _sent_text(doc: ComposerDocument, count: int) -> str:
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


__all__ = ["ComposerPage", "OutboxState"]

"""Webhook health: every webhook with its badge, failures and last success; for the selected one
the paused explanation, its actions, the 7-day delivery timeline and the delivery log.

The page reads and listens; the workspace session polls (`session.webhooks`, a
`WebhookMonitor`): the list every minute, and while this page is shown the selected webhook's
log every ~20 s (faster while a delivery is undecided). One refresh (Refresh, F5, Reload, the
timer) updates the header, the log and the chart together: all three come from the same list
and the same kept rows."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.api.errors import ApiError, ValidationFailed
from app.domain.enums import WebhookStatus, known
from app.models.requests import WebhookInput, WebhookUpdate
from app.models.webhooks import DeliveryLog, Webhook
from app.sync import gc_on_loop
from app.webhooks.local_replay import replay_to_url
from ui.action_spec import ActionSpec
from ui.panels.base import PanelPage
from ui.panels.webhooks.dialogs import (
    LocalReplayDialog,
    SecretDialog,
    SignatureChecker,
    WebhookForm,
)
from ui.panels.webhooks.format import PAUSED_EXPLANATION, failures, status_text, when
from ui.panels.webhooks.list_model import BadgeDelegate, WebhookRole, WebhooksModel, events_text
from ui.panels.webhooks.log_detail import envelope_of
from ui.panels.webhooks.logs_view import DeliveryLogsView
from ui.widgets.alive import alive
from ui.widgets.delivery_chart import DeliveryChart

if TYPE_CHECKING:
    from app.sync.webhook_monitor import LogsChanged
    from ui.session import WorkspaceSession

LIST_FRESH_S = 10.0
"""Opening the page uses the session's list when it is this fresh, instead of asking again."""
CHART_EVERY_S = 1.0
"""The chart is recomputed at most this often while rows keep arriving."""
NEW = "new"  # write-gate key of "create a webhook"


class WebhooksPage(PanelPage):
    TITLE = "Webhooks"
    MISSING_TEXT = (
        "Webhooks are not available on this deployment of the API (it answered 404 for "
        "/webhooks). Nothing is wrong with your workspace."
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.selected: Webhook | None = None
        self.form: WebhookForm | None = None
        self.secret_dialog: SecretDialog | None = None
        self.checker: SignatureChecker | None = None
        self.local_dialog: LocalReplayDialog | None = None
        self._chart_task: asyncio.Task[Any] | None = None
        self._chart_dirty = False
        self._chart_at = 0.0
        self._chart_for: str | None = None
        self._relisting = False
        self._listening: WorkspaceSession | None = None
        self._build()

    # -- layout ---
    def _build(self) -> None:
        title = QLabel("Webhooks")
        title.setObjectName("panelTitle")
        self.new_button = QPushButton("New webhook…")
        self.new_button.clicked.connect(self.open_create)
        self.checker_button = QPushButton("Check a signature…")
        self.checker_button.clicked.connect(self.open_checker)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.refresh)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        for button in (self.new_button, self.checker_button, self.refresh_button):
            top.addWidget(button)

        self.model = WebhooksModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(0, BadgeDelegate(self.table))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setShowGrid(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.empty_label = QLabel(
            "No webhooks yet. Create one to have post events (created, scheduled, published, "
            "failed…) sent to your server, signed."
        )
        self.empty_label.setWordWrap(True)
        self.empty_label.hide()

        self.detail = QWidget()
        self.endpoint_label = QLabel()
        self.endpoint_label.setStyleSheet("font-size: 15px; font-weight: 600;")
        self.endpoint_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts_label = QLabel()
        self.facts_label.setWordWrap(True)
        self.facts_label.setStyleSheet("color: #374151;")
        self.paused_box = QFrame()
        self.paused_box.setStyleSheet(
            "QFrame { background: #fef3c7; border: 1px solid #f59e0b; border-radius: 4px; }"
            "QLabel { color: #78350f; border: none; }"
        )
        self.paused_label = QLabel()
        self.paused_label.setWordWrap(True)
        self.paused_enable = QPushButton("Enable again")
        self.paused_enable.clicked.connect(lambda: self.set_enabled(True))
        paused_row = QHBoxLayout(self.paused_box)
        paused_row.addWidget(self.paused_label, 1)
        paused_row.addWidget(self.paused_enable)
        self.edit_button = QPushButton("Edit…")
        self.toggle_button = QPushButton("Disable")
        self.test_button = QPushButton("Send test")
        self.rotate_button = QPushButton("Rotate secret…")
        self.delete_button = QPushButton("Delete…")
        self.edit_button.clicked.connect(self.open_edit)
        self.toggle_button.clicked.connect(self._toggle_clicked)
        self.test_button.clicked.connect(self.send_test)
        self.rotate_button.clicked.connect(self.ask_rotate)
        self.delete_button.clicked.connect(self.ask_delete)
        self.action_buttons = [
            self.edit_button,
            self.toggle_button,
            self.test_button,
            self.rotate_button,
            self.delete_button,
        ]
        actions = QHBoxLayout()
        for button in self.action_buttons:
            actions.addWidget(button)
        actions.addStretch(1)
        self.test_label = QLabel()
        self.test_label.setWordWrap(True)
        self.chart = DeliveryChart()
        self.logs = DeliveryLogsView(self.tasks)
        self.logs.replayRequested.connect(self.ask_replay)
        self.logs.localReplayRequested.connect(self.open_local_replay)
        self.logs.reload_button.clicked.connect(self.refresh)
        detail_layout = QVBoxLayout(self.detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.endpoint_label)
        detail_layout.addWidget(self.facts_label)
        detail_layout.addWidget(self.paused_box)
        detail_layout.addLayout(actions)
        detail_layout.addWidget(self.test_label)
        detail_layout.addWidget(self.chart)
        detail_layout.addWidget(self.logs, 1)

        splitter = QSplitter(Qt.Orientation.Vertical)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addWidget(self.table)
        upper_layout.addWidget(self.empty_label)
        splitter.addWidget(upper)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 4)
        splitter.setSizes([150, 600])
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self._show_selected()

    def action_specs(self) -> list[ActionSpec]:
        def has_session() -> bool:
            return self.session is not None and not self.showing_explanation()

        return [
            ActionSpec(
                "webhooks.new",
                "New webhook…",
                self.open_create,
                menu="",
                scope="webhooks",
                enabled=has_session,
                help="Create a webhook",
            ),
            ActionSpec(
                "webhooks.test",
                "Send test ping",
                self.send_test,
                scope="webhooks",
                enabled=lambda: self.selected is not None,
                help="Send a signed webhook.test to the selected webhook",
            ),
            ActionSpec(
                "webhooks.check_signature",
                "Check a webhook signature…",
                self.open_checker,
                help="Verify a body, signature and secret",
            ),
            ActionSpec(
                "webhooks.refresh",
                "Refresh webhooks",
                self.refresh,
                scope="webhooks",
                enabled=has_session,
                help="Read the webhooks, the log and the chart again",
            ),
        ]

    # -- loading ---
    def session_changed(self) -> None:
        self._listen(self.session)
        self.model.set_webhooks([])
        self.selected = None
        if self._chart_task is not None:
            self._chart_task.cancel()
        self._chart_task = None
        self.logs.model.set_source(None)
        self.chart.set_timeline(None)
        self.test_label.setText("")
        self._show_selected()

    def _listen(self, session: WorkspaceSession | None) -> None:
        old = self._listening
        if old is not None:
            with contextlib.suppress(RuntimeError):  # the old session may be gone already
                old.webhooksChanged.disconnect(self._webhooks_changed)
                old.webhooksUnavailable.disconnect(self._unavailable)
                old.deliveryLogsChanged.disconnect(self._logs_changed)
            if not old.closed:
                old.webhooks.watch(None)
        self._listening = session
        if session is not None:
            session.webhooksChanged.connect(self._webhooks_changed)
            session.webhooksUnavailable.connect(self._unavailable)
            session.deliveryLogsChanged.connect(self._logs_changed)

    def reload(self) -> None:
        """Opening the page on a workspace: the session's list when fresh, else read now."""
        if self.session is not None:
            self.spawn(self._load_list())

    def refresh(self) -> None:
        """Refresh, Reload: the list, then the log and chart of the selected webhook, each
        read once (joining a read already in flight)."""
        if self.session is not None:
            self.spawn(self._refresh())

    async def _refresh(self) -> None:
        session = self.session
        assert session is not None
        await self._load_list(max_age=0.0)
        webhook = self.selected
        if webhook is not None and self.session is session:
            await session.webhooks.top_up(webhook.id)
            self._update_chart()

    async def _load_list(self, select: str | None = None, max_age: float = LIST_FRESH_S) -> None:
        session = self.session
        assert session is not None
        if session.webhooks.unavailable is not None:
            self._unavailable(session.webhooks.unavailable)
            return
        try:
            webhooks = await session.webhooks.read_list(max_age=max_age)
        except ApiError as error:
            if not self.explain_missing(error):
                raise
            return
        if self.session is session:
            self._show_list(webhooks, select)

    def _webhooks_changed(self, webhooks: list[Webhook]) -> None:
        """The session read the list (its timer, a refresh, a write's answer) and it changed."""
        if not self.showing_explanation():
            self._show_list(webhooks)

    def _unavailable(self, error: ApiError) -> None:
        self.explain_missing(error)

    def _show_list(self, webhooks: list[Webhook], select: str | None = None) -> None:
        """Show this list, keeping the selected webhook (and where its log was scrolled)."""
        keep = select or (self.selected.id if self.selected else None)
        self._relisting = True
        try:
            self.model.set_webhooks(webhooks)
            self.empty_label.setVisible(not webhooks)
            self.table.setVisible(bool(webhooks))
            row = self.model.row_of(keep) if keep else -1
            if row < 0 and webhooks:
                row = 0
            if row >= 0:
                self.table.selectRow(row)
        finally:
            self._relisting = False
        self._select(self.model.webhooks[row] if row >= 0 else None)

    def select_webhook(self, webhook_id: str) -> None:
        """Show this webhook (e.g. from a "webhook paused" notification); reads the list
        again when it is not there yet."""
        row = self.model.row_of(webhook_id)
        if row >= 0:
            self.table.selectRow(row)
        elif self.session is not None:
            self.spawn(self._load_list(select=webhook_id, max_age=0.0))

    def _selection_changed(self, *_: QItemSelection) -> None:
        if self._relisting:
            return
        rows = self.table.selectionModel().selectedRows()
        webhook = rows[0].data(WebhookRole) if rows else None
        self._select(webhook if isinstance(webhook, Webhook) else None)

    def _select(self, webhook: Webhook | None) -> None:
        previous = self.selected
        self.selected = webhook
        self._show_selected()
        if webhook is not None and previous is not None and previous.id == webhook.id:
            return  # same webhook re-read: keep the log where the user scrolled
        self.test_label.setText("")
        session = self.session
        if webhook is None or session is None:
            self._watch()
            self.logs.model.set_source(None)
            self.chart.set_timeline(None)
            return
        monitor = session.webhooks
        # The kept rows at once; then the newest page(s) until a kept row (1-2 requests).
        self.logs.model.set_source(monitor, webhook.id)
        self.chart.set_timeline(None)
        self._watch()
        if monitor.archive.newest(webhook.id) is not None:
            self._update_chart()  # read before: its chart at once, topped up below
        self.spawn(self._top_up(webhook.id))

    async def _top_up(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        await session.webhooks.top_up(webhook_id)
        if self.selected is not None and self.selected.id == webhook_id:
            self._update_chart()  # also when nothing changed: a log read for the first time

    def _logs_changed(self, change: LogsChanged) -> None:
        webhook = self.selected
        if webhook is None or change.webhook_id != webhook.id:
            return
        self.logs.model.apply(change)
        self._update_chart()

    def _watch(self) -> None:
        """The session polls the selected webhook's log while this page is shown."""
        session = self.session
        if session is None:
            return
        shown = self.isVisible() and self.selected is not None and not self.showing_explanation()
        session.webhooks.watch(self.selected.id if shown and self.selected else None)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._watch()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._watch()

    def _update_chart(self) -> None:
        """Recompute the chart from the kept rows, at most once a second while they change."""
        self._chart_dirty = True
        if self._chart_task is None or self._chart_task.done():
            self._chart_task = self.spawn(self._compute_chart())

    async def _compute_chart(self) -> None:
        while self._chart_dirty:
            session, webhook = self.session, self.selected
            if session is None or webhook is None:
                return
            if self.chart.timeline is not None and self._chart_for == webhook.id:
                # Rows keep coming (the log scrolled through pages): once a second is plenty
                # for the chart, and the scrolling keeps the CPU (and the GIL).
                wait = self._chart_at + CHART_EVERY_S - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
            self._chart_dirty = False
            # Counted by SQLite (15-20 ms for 10,000 rows) on a worker thread, which releases
            # the GIL meanwhile; the collector is off until it is done, so it never runs there
            # (it could finalize Qt objects on the wrong thread; as the sync's page worker).
            with gc_on_loop.collections_on_loop():
                timeline, note = await asyncio.to_thread(session.webhooks.chart, webhook.id)
            gc_on_loop.collect_if_due()
            if self.session is not session or self.selected is None:
                return
            if self.selected.id == webhook.id:
                self.chart.set_timeline(timeline, note)
                self._chart_at, self._chart_for = time.monotonic(), webhook.id

    def _show_selected(self) -> None:
        webhook = self.selected
        self.detail.setVisible(webhook is not None)
        if webhook is None:
            return
        busy = self.gate.is_busy(webhook.id)
        status = known(WebhookStatus, webhook.status)
        self.endpoint_label.setText(webhook.endpoint)
        facts = [
            f"Status: {status_text(webhook.status)}",
            f"Failures: {failures(webhook.consecutive_failures)}",
            f"Last success: {when(webhook.last_sent_at, 'never')}",
        ]
        if webhook.paused_at is not None:
            facts.append(f"Paused since: {when(webhook.paused_at)}")
        facts.append(f"Events: {events_text(webhook.events)}")
        facts.append("Signing secret: whsec_•••••••• (shown only when created or rotated)")
        self.facts_label.setText(" · ".join(facts))
        paused = status is WebhookStatus.PAUSED
        self.paused_box.setVisible(paused)
        if paused:
            since = f" (since {when(webhook.paused_at)})" if webhook.paused_at else ""
            self.paused_label.setText(
                PAUSED_EXPLANATION.format(n=max(webhook.consecutive_failures, 5), since=since)
            )
        self.toggle_button.setText("Disable" if status is WebhookStatus.ENABLED else "Enable")
        for button in [*self.action_buttons, self.paused_enable]:
            button.setEnabled(not busy)
        self.logs.replay_button.setEnabled(not busy and self.logs.selected_log() is not None)

    def _on_busy(self, key: str, busy: bool) -> None:
        self.model.set_busy(key, busy)
        self._show_selected()

    def _updated(self, webhook: Webhook) -> None:
        """Put a webhook the server sent back into the table (keeps the selection)."""
        row = self.model.row_of(webhook.id)
        if row >= 0:
            self.model.webhooks[row] = webhook
            self.model.dataChanged.emit(self.model.index(row, 0), self.model.index(row, 5))
        if self.selected is not None and self.selected.id == webhook.id:
            self.selected = webhook
            self._show_selected()
        if self.session is not None:
            self.session.webhooks.note_webhook(webhook)

    # -- create / edit ---
    def open_create(self) -> None:
        if self.session is None:
            return
        self.form = WebhookForm(self)
        self.form.submitted.connect(self._create)
        self.form.open()

    def _create(self, endpoint: str, events: list[str]) -> None:
        form = self.form
        assert form is not None
        self.write(NEW, self._run_form(form, None, endpoint, events))

    def open_edit(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        form = WebhookForm(self, endpoint=webhook.endpoint, events=webhook.events, editing=True)
        self.form = form
        form.submitted.connect(
            lambda endpoint, events: self.write(
                webhook.id, self._run_form(form, webhook.id, endpoint, events)
            )
        )
        form.open()

    async def _run_form(
        self, form: WebhookForm, webhook_id: str | None, endpoint: str, events: list[str]
    ) -> None:
        session = self.session
        assert session is not None
        if alive(form):
            form.set_busy(True)
        try:
            if webhook_id is None:
                created = await session.client.webhooks.create(
                    WebhookInput(endpoint=endpoint, events=events)
                )
            else:
                updated = await session.client.webhooks.update(
                    webhook_id, WebhookUpdate(endpoint=endpoint, events=events)
                )
        except ValidationFailed as error:
            if not alive(form):
                raise  # the form was closed: the banner says it instead
            form.show_errors(error.errors, error.message)
            return
        except ApiError as error:
            if not alive(form):
                raise  # the form was closed: the banner says it instead
            form.show_errors({}, f"{error.message} {error.hint}".strip())
            return
        finally:
            if alive(form):
                form.set_busy(False)
        if alive(form):
            form.accept()
        if webhook_id is None:
            session.messages.info("Webhook created.")
            if created.signing_secret:
                self._show_secret(created.signing_secret, rotated=False)
            await self._load_list(select=created.id, max_age=0.0)
        else:
            self._updated(updated)
            session.messages.info("Webhook saved.")

    def _show_secret(self, secret: str, *, rotated: bool) -> None:
        self.secret_dialog = SecretDialog(self, secret, rotated=rotated)
        self.secret_dialog.open()

    # -- enable / disable ---
    def _toggle_clicked(self) -> None:
        webhook = self.selected
        if webhook is not None:
            self.set_enabled(known(WebhookStatus, webhook.status) is not WebhookStatus.ENABLED)

    def set_enabled(self, enabled: bool) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        self.write(webhook.id, self._set_status(webhook.id, enabled))

    async def _set_status(self, webhook_id: str, enabled: bool) -> None:
        session = self.session
        assert session is not None
        status = "enabled" if enabled else "disabled"
        updated = await session.client.webhooks.update(webhook_id, WebhookUpdate(status=status))
        self._updated(updated)
        session.messages.info(
            "Webhook enabled." if enabled else "Webhook disabled: events are skipped."
        )

    # -- test ping ---
    def send_test(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        if self.write(webhook.id, self._test(webhook.id)) is not None:
            self.test_label.setStyleSheet("color: #4b5563;")
            self.test_label.setText("Sending a signed webhook.test ping (up to 5 seconds)…")

    async def _test(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        try:
            result = await session.client.webhooks.send_test(webhook_id)
        except ApiError as error:
            self.test_label.setStyleSheet("color: #b91c1c;")
            self.test_label.setText(f"Test ping could not be sent: {error.message}")
            if isinstance(error, ValidationFailed):
                return  # the server's refusal is the answer, said above; there is no form
            raise
        if self.selected is None or self.selected.id != webhook_id:
            return
        answered = "no answer" if result.status is None else f"HTTP {result.status}"
        verdict = "Receiver accepted the test ping" if result.success else "Test ping failed"
        detail = f" — {result.message}" if result.message else ""
        self.test_label.setStyleSheet(f"color: {'#166534' if result.success else '#b91c1c'};")
        self.test_label.setText(
            f"{verdict} ({answered}){detail}. Test pings are not logged and change no counters."
        )

    # -- rotate / delete ---
    def ask_rotate(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        self.confirm_write(
            webhook.id,
            "Rotate signing secret",
            "Rotate the signing secret of this webhook?\n\nThe current secret stops working at "
            "once, also for retries already queued. Your receiver must switch to the new secret.",
            "Rotate",
            lambda: self._rotate(webhook.id),
        )

    async def _rotate(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        rotated = await session.client.webhooks.rotate_secret(webhook_id)
        if rotated.signing_secret:
            self._show_secret(rotated.signing_secret, rotated=True)
        # The table never holds a secret: it was shown once, in the dialog.
        self._updated(rotated.model_copy(update={"signing_secret": None}))

    def ask_delete(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        self.confirm_write(
            webhook.id,
            "Delete webhook",
            f"Delete the webhook for {webhook.endpoint}?\n\nDelivery stops at once, queued "
            "deliveries are discarded and its delivery log is removed.",
            "Delete",
            lambda: self._delete(webhook.id),
        )

    async def _delete(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        await session.client.webhooks.delete(webhook_id)
        session.messages.info("Webhook deleted.")
        if self.selected is not None and self.selected.id == webhook_id:
            self.selected = None
        await self._load_list(max_age=0.0)

    # -- replay ---
    def ask_replay(self, log: DeliveryLog) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        self.confirm_write(
            webhook.id,
            "Replay delivery",
            f"Send this {log.event_type or 'event'} to {webhook.endpoint} again?\n\nThe service "
            "queues a new signed delivery (new id, new log row). Queued is not delivered: the "
            "receiver's answer appears in the log once it is sent. Replays work on paused and "
            "disabled webhooks and do not re-enable them.",
            "Replay",
            lambda: self._replay(webhook.id, log.id),
        )

    async def _replay(self, webhook_id: str, log_id: str) -> None:
        session = self.session
        assert session is not None
        queued = await session.client.webhooks.replay(webhook_id, log_id)
        if queued:
            session.messages.info(
                "Replay queued — not delivered yet. The receiver's answer appears as a new row "
                "in the delivery log."
            )
        else:
            session.messages.info("The server did not confirm the replay; check the log.")
        if self.selected is not None and self.selected.id == webhook_id:
            # The new queued row shows at once, then updates itself until it is decided.
            await session.webhooks.top_up(webhook_id)

    def open_local_replay(self, log: DeliveryLog) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        envelope = envelope_of(log)
        dialog = LocalReplayDialog(self)
        dialog.sendRequested.connect(
            lambda url: self._start_local(dialog, webhook.id, url, envelope)
        )
        self.local_dialog = dialog
        dialog.open()

    def _start_local(
        self, dialog: LocalReplayDialog, webhook_id: str, url: str, envelope: dict[str, Any]
    ) -> None:
        if (
            self.write(f"local:{webhook_id}", self._local(dialog, webhook_id, url, envelope))
            is None
        ):
            dialog.set_busy(False)

    async def _local(
        self, dialog: LocalReplayDialog, webhook_id: str, url: str, envelope: dict[str, Any]
    ) -> None:
        session = self.session
        assert session is not None
        try:
            # The list never carries the secret; read it just for this signature, keep nothing.
            secret = (await session.client.webhooks.get(webhook_id)).signing_secret
        except ApiError as error:
            if alive(dialog):
                dialog.show_failure(f"Could not read the webhook's secret: {error.message}")
            return
        if not secret:
            if alive(dialog):
                dialog.show_failure("The server did not send the webhook's signing secret.")
            return
        if alive(dialog):
            dialog.show_result(await replay_to_url(url, envelope, secret))

    # -- signature checker ---
    def open_checker(self) -> None:
        self.checker = SignatureChecker(self)
        self.checker.open()

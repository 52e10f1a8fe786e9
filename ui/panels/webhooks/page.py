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
import functools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QGuiApplication, QHideEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
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
from app.webhooks.bulk_replay import BulkReplay, ReplayProgress
from app.webhooks.curl import curl_command
from app.webhooks.endpoint import server_may_accept_private
from app.webhooks.local_receiver import LocalReceiver, ReceivedRequest
from app.webhooks.local_replay import replay_to_url
from app.webhooks.raw_log import compact_body, json_lines, payload_of
from ui.action_spec import ActionSpec
from ui.panels.base import PanelPage
from ui.panels.webhooks.archive_dialog import ArchiveDialog
from ui.panels.webhooks.bulk_dialog import BulkReplayDialog
from ui.panels.webhooks.dialogs import (
    LocalReplayDialog,
    SecretDialog,
    SignatureChecker,
    WebhookForm,
)
from ui.panels.webhooks.format import (
    PAUSE_AT,
    PAUSED_EXPLANATION,
    failures,
    status_text,
    when,
)
from ui.panels.webhooks.list_model import BadgeDelegate, WebhookRole, WebhooksModel, events_text
from ui.panels.webhooks.listen_dialog import ListenDialog
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
SHORT_WINDOW_PX = 700
CHART_SHORT_PX = 90
CHART_PX = 150


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
        self.bulk_dialog: BulkReplayDialog | None = None
        self.archive_dialog: ArchiveDialog | None = None
        self.listen_dialog: ListenDialog | None = None
        self.receiver: LocalReceiver | None = None
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
        self.listen_button = QPushButton("Listen locally…")
        self.listen_button.setToolTip(
            "A receiver on 127.0.0.1 that checks signatures with the selected webhook's secret"
        )
        self.listen_button.clicked.connect(self.open_listen)
        self.archive_button = QPushButton("Delivery archive…")
        self.archive_button.setToolTip(
            "What is kept of every webhook's deliveries, and for how long"
        )
        self.archive_button.clicked.connect(self.open_archive)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        for button, name in (
            (self.new_button, "New webhook"),
            (self.checker_button, "Check a signature"),
            (self.listen_button, "Listen locally"),
            (self.archive_button, "Delivery archive"),
            (self.refresh_button, "Refresh webhooks"),
        ):
            button.setAccessibleName(name)
            top.addWidget(button)

        self.model = WebhooksModel()
        self.table = WebhooksTable()
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(0, BadgeDelegate(self.table))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setShowGrid(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # the endpoint's path shows
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # Long event lists are cut, not the endpoint (it read "dpo" at 1024 px).
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(5, 170)
        header.setMinimumSectionSize(60)
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
        self.facts_label.setProperty("tone", "muted")  # coloured by the theme (style.qss)
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
        self.reveal_button = QPushButton("Reveal secret…")
        self.reveal_button.clicked.connect(self.ask_reveal)
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
            self.reveal_button,
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
        self.logs.curlRequested.connect(self.copy_curl)
        self.logs.exportRequested.connect(self.export_logs)
        self.logs.bulkReplayRequested.connect(self.ask_bulk_replay)
        self.logs.reload_button.clicked.connect(self.refresh)
        detail_layout = QVBoxLayout(self.detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.endpoint_label)
        detail_layout.addWidget(self.facts_label)
        detail_layout.addWidget(self.paused_box)
        detail_layout.addLayout(actions)
        detail_layout.addWidget(self.test_label)
        self.test_label.hide()  # shown with a ping's result (an empty line costs a short window)
        detail_layout.addWidget(self.chart)
        detail_layout.addWidget(self.logs, 1)

        splitter = QSplitter(Qt.Orientation.Vertical)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addWidget(self.table)
        upper_layout.addWidget(self.empty_label)
        splitter.addWidget(upper)
        # In a short window the detail scrolls instead of squeezing the log to nothing.
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_scroll.setWidget(self.detail)
        self.detail_scroll.setAccessibleName("Selected webhook")
        self.logs.setMinimumHeight(260)
        splitter.addWidget(self.detail_scroll)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 4)
        splitter.setSizes([150, 600])
        splitter.setChildrenCollapsible(False)
        # At least three webhooks in view, also in a 1024x640 window (it showed one).
        rows = self.table.verticalHeader().defaultSectionSize()
        self.table.setMinimumHeight(
            self.table.horizontalHeader().sizeHint().height() + 3 * rows + 4
        )
        # The chart gives way first when the window is short (`resizeEvent`).
        self.chart.setFixedHeight(CHART_PX)
        self._name_controls()
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self._show_selected()

    def _set_test_text(self, text: str) -> None:
        self.test_label.setText(text)
        self.test_label.setVisible(bool(text))

    def _name_controls(self) -> None:
        """Every control of the page has an accessible name (issue 17)."""
        for widget, name in (
            (self.table, "Webhooks"),
            (self.edit_button, "Edit webhook"),
            (self.toggle_button, "Enable or disable webhook"),
            (self.test_button, "Send test ping"),
            (self.reveal_button, "Reveal signing secret"),
            (self.rotate_button, "Rotate signing secret"),
            (self.delete_button, "Delete webhook"),
            (self.paused_enable, "Enable the paused webhook again"),
            (self.chart, "Deliveries of the last 7 days"),
            (self.endpoint_label, "Endpoint"),
            (self.facts_label, "Webhook facts"),
            (self.paused_label, "Why the webhook is paused"),
            (self.test_label, "Test ping result"),
            (self.empty_label, "No webhooks"),
            (self.logs.new_bar, "Show new deliveries"),
            (self.logs.detail, "Delivery detail"),
        ):
            widget.setAccessibleName(name)

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
                "webhooks.replay",
                "Replay the selected delivery…",
                lambda: self._with_log(self.ask_replay),
                scope="webhooks",
                enabled=lambda: self.selected is not None and self.logs.selected_log() is not None,
                help="Ask the service to send the selected delivery again",
            ),
            ActionSpec(
                "webhooks.replay_selected",
                "Replay the selected deliveries…",
                lambda: self.ask_bulk_replay(self.logs.selected_logs()),
                scope="webhooks",
                enabled=lambda: self.selected is not None and len(self.logs.selected_logs()) > 1,
                help="Bulk replay: each selected delivery asked once",
            ),
            ActionSpec(
                "webhooks.replay_local",
                "Replay to local URL…",
                lambda: self._with_log(self.open_local_replay),
                scope="webhooks",
                enabled=lambda: self.selected is not None and self.logs.selected_log() is not None,
                help="Re-sign the selected delivery and POST it to your own receiver",
            ),
            ActionSpec(
                "webhooks.enable",
                "Enable webhook",
                lambda: self.set_enabled(True),
                scope="webhooks",
                enabled=lambda: self._status_is(WebhookStatus.PAUSED, WebhookStatus.DISABLED),
                help="Enable the selected webhook (clears its failure count)",
            ),
            ActionSpec(
                "webhooks.disable",
                "Disable webhook",
                lambda: self.set_enabled(False),
                scope="webhooks",
                enabled=lambda: self._status_is(WebhookStatus.ENABLED, WebhookStatus.PAUSED),
                help="Stop deliveries to the selected webhook",
            ),
            ActionSpec(
                "webhooks.rotate",
                "Rotate webhook secret…",
                self.ask_rotate,
                scope="webhooks",
                enabled=lambda: self.selected is not None,
                help="A new signing secret; the old one stops working at once",
            ),
            ActionSpec(
                "webhooks.reveal",
                "Reveal webhook secret…",
                self.ask_reveal,
                scope="webhooks",
                enabled=lambda: self.selected is not None,
                help="Show the signing secret for 30 seconds",
            ),
            ActionSpec(
                "webhooks.delete",
                "Delete webhook…",
                self.ask_delete,
                scope="webhooks",
                enabled=lambda: self.selected is not None,
                help="Delete the selected webhook (its archive stays on this computer)",
            ),
            ActionSpec(
                "webhooks.archive",
                "Delivery archive…",
                self.open_archive,
                scope="webhooks",
                enabled=has_session,
                help="Kept deliveries, their size and retention",
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

    def _private_ok(self) -> bool:
        session = self.session
        return session is not None and server_may_accept_private(session.profile.base_url)

    def _with_log(self, action: Callable[[DeliveryLog], None]) -> None:
        log = self.logs.selected_log()
        if log is not None:
            action(log)

    def _status_is(self, *statuses: WebhookStatus) -> bool:
        webhook = self.selected
        return webhook is not None and known(WebhookStatus, webhook.status) in statuses

    # -- loading ---
    def session_changed(self) -> None:
        if self.receiver is not None and self.receiver.listening:
            # The receiver held the old workspace's secret: it stops with it.
            self.spawn(self.receiver.stop())
        self._listen(self.session)
        self.model.set_webhooks([])
        self.selected = None
        if self._chart_task is not None:
            self._chart_task.cancel()
        self._chart_task = None
        self.logs.model.set_source(None)
        self.chart.set_timeline(None)
        self._set_test_text("")
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
        self._set_test_text("")
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # A short window (1024x640) keeps the log in view: the chart takes its smallest height.
        # A fixed height otherwise: the bars never change height because a line of text (a
        # ping's result, the paused box) came or went above them.
        self.chart.setFixedHeight(CHART_SHORT_PX if self.height() < SHORT_WINDOW_PX else CHART_PX)

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
        self.detail_scroll.setVisible(webhook is not None)
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
        facts.append("Signing secret: whsec_•••••••• (Reveal secret shows it for 30 s)")
        self.facts_label.setText(" · ".join(facts))
        paused = status is WebhookStatus.PAUSED
        self.paused_box.setVisible(paused)
        if paused:
            since = f" (since {when(webhook.paused_at)})" if webhook.paused_at else ""
            self.paused_label.setText(PAUSED_EXPLANATION.format(n=PAUSE_AT, since=since))
        # Paused offers one Enable (in its box) and Disable here: paused -> disabled is allowed.
        self.toggle_button.setText("Enable" if status is WebhookStatus.DISABLED else "Disable")
        self.toggle_button.setAccessibleName(f"{self.toggle_button.text()} webhook")
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
        self.form = WebhookForm(self, allow_private=self._private_ok())
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
        form = WebhookForm(
            self,
            endpoint=webhook.endpoint,
            events=webhook.events,
            editing=True,
            allow_private=self._private_ok(),
        )
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
            self.set_enabled(known(WebhookStatus, webhook.status) is WebhookStatus.DISABLED)

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
            self._set_test_text("Sending a signed webhook.test ping (up to 5 seconds)…")

    async def _test(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        try:
            result = await session.client.webhooks.send_test(webhook_id)
        except ApiError as error:
            self.test_label.setStyleSheet("color: #b91c1c;")
            self._set_test_text(f"Test ping could not be sent: {error.message}")
            if isinstance(error, ValidationFailed):
                return  # the server's refusal is the answer, said above; there is no form
            raise
        if self.selected is None or self.selected.id != webhook_id:
            return
        answered = "no answer" if result.status is None else f"HTTP {result.status}"
        verdict = "Receiver accepted the test ping" if result.success else "Test ping failed"
        detail = f" — {result.message}" if result.message else ""
        self.test_label.setStyleSheet(f"color: {'#166534' if result.success else '#b91c1c'};")
        self._set_test_text(
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
            self.logs.refresh_detail()

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

    # -- listen locally (issue 17 §7) ---
    def open_listen(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        if self.listen_dialog is not None and alive(self.listen_dialog):
            # One receiver at a time: a second dialog replaced the references to the first,
            # whose receiver then listened on with no owner to stop it.
            self.listen_dialog.raise_()
            self.listen_dialog.activateWindow()
            return
        dialog = ListenDialog(self, webhook.endpoint)
        receiver = LocalReceiver(functools.partial(_show_request, dialog))
        self.listen_dialog, self.receiver = dialog, receiver
        dialog.startRequested.connect(
            lambda port: self.spawn(self._listen_on(dialog, receiver, webhook.id, port))
        )
        dialog.stopRequested.connect(lambda: self.spawn(self._stop_listening(dialog, receiver)))
        # Not modal: the page stays usable (Send test, Replay to local URL) while it listens.
        dialog.setModal(False)
        dialog.show()

    async def _listen_on(
        self, dialog: ListenDialog, receiver: LocalReceiver, webhook_id: str, port: int
    ) -> None:
        session = self.session
        assert session is not None
        try:
            # Read for this receiver and held in its memory only, until it stops.
            secret = (await session.client.webhooks.get(webhook_id)).signing_secret
            await receiver.start(port, secret)
        except ApiError as error:
            if alive(dialog):
                dialog.show_failure(f"Could not read the webhook's secret: {error.message}")
            return
        except OSError as error:
            if alive(dialog):
                dialog.show_failure(f"Could not listen on port {port}: {error.strerror or error}")
            return
        if alive(dialog):
            dialog.show_listening(receiver.url)
        else:
            await receiver.stop()

    async def _stop_listening(self, dialog: ListenDialog, receiver: LocalReceiver) -> None:
        await receiver.stop()
        if alive(dialog):
            dialog.show_listening("")

    # -- the delivery archive (issue 17 §1) ---
    def open_archive(self) -> None:
        session = self.session
        if session is None:
            return
        dialog = ArchiveDialog(self)
        self.archive_dialog = dialog
        archive = session.webhooks.archive
        dialog.retentionChosen.connect(lambda days: self.spawn(self._set_retention(dialog, days)))
        dialog.removeRequested.connect(lambda webhook_id: self._ask_remove(dialog, webhook_id))
        dialog.exportRequested.connect(
            lambda webhook_id: self.export_logs(list(archive.all_logs(webhook_id)))
        )
        dialog.show_archive(archive.summary(), archive.retention_days())
        dialog.open()

    async def _set_retention(self, dialog: ArchiveDialog, days: int) -> None:
        session = self.session
        assert session is not None
        archive = session.webhooks.archive
        await archive.set_retention_days(days)
        removed = await archive.prune(datetime.now(UTC))
        session.messages.info(
            f"Deliveries are kept {days} days"
            + (f"; {removed:,} older ones removed." if removed else ".")
        )
        if alive(dialog):
            dialog.show_archive(archive.summary(), archive.retention_days())

    def _ask_remove(self, dialog: ArchiveDialog, webhook_id: str) -> None:
        self.confirm_write(
            f"archive:{webhook_id}",
            "Remove archive",
            "Remove every kept delivery of this deleted webhook from this computer? The service "
            "no longer has them: this cannot be undone.",
            "Remove",
            lambda: self._remove_archive(dialog, webhook_id),
        )

    async def _remove_archive(self, dialog: ArchiveDialog, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        archive = session.webhooks.archive
        removed = await archive.remove(webhook_id)
        session.messages.info(f"{removed:,} archived deliveries removed.")
        if alive(dialog):
            dialog.show_archive(archive.summary(), archive.retention_days())

    # -- bulk recovery (issue 17 §3) ---
    def ask_bulk_replay(self, logs: list[DeliveryLog]) -> None:
        webhook = self.selected
        if webhook is None or self.session is None or not logs:
            return
        count = len(logs)
        failed = sum(1 for log in logs if log.delivered_at is None)
        self.confirm_write(
            f"bulk:{webhook.id}",
            f"Replay {count:,} deliveries",
            f"Send {count:,} deliveries ({failed:,} of them not delivered) to {webhook.endpoint} "
            "again?\n\nEach is asked once; the service queues a new signed delivery for each "
            "(new ids, new log rows). The workspace's rate limit is respected, so this may take "
            "a while; you can pause or cancel.",
            f"Replay {count:,}",
            lambda: self._bulk_replay(webhook, logs),
        )

    async def _bulk_replay(self, webhook: Webhook, logs: list[DeliveryLog]) -> None:
        session = self.session
        assert session is not None
        dialog = BulkReplayDialog(self, len(logs), webhook.endpoint)
        self.bulk_dialog = dialog
        replay = BulkReplay(
            session.client,
            session.webhooks.archive,
            webhook.id,
            logs,
            on_progress=functools.partial(_show_progress, dialog),
        )
        dialog.pauseRequested.connect(replay.pause)
        dialog.resumeRequested.connect(replay.resume)
        dialog.cancelRequested.connect(replay.cancel)
        dialog.open()
        try:
            progress = await replay.run()
        finally:
            replay.cancel()
        session.messages.info(progress.summary())
        if self.selected is not None and self.selected.id == webhook.id:
            await session.webhooks.top_up(webhook.id)
            self.logs.refresh_detail()

    # -- take a delivery elsewhere (issue 17 §4) ---
    def copy_curl(self, log: DeliveryLog) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        body = compact_body(payload_of(log))
        self.write(f"curl:{webhook.id}", self._copy_curl(webhook, body))

    async def _copy_curl(self, webhook: Webhook, body: bytes) -> None:
        session = self.session
        assert session is not None
        # Read just for this signature; the command carries the signature, never the secret.
        secret = (await session.client.webhooks.get(webhook.id)).signing_secret
        QGuiApplication.clipboard().setText(curl_command(webhook.endpoint, body, secret))
        session.messages.info(
            "curl command copied (signed with the webhook's secret; the secret is not in it)."
            if secret
            else "curl command copied without a signature: the server did not send the secret."
        )

    def export_logs(self, logs: list[DeliveryLog]) -> None:
        if not logs or self.session is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self, "Export deliveries", "deliveries.jsonl", "JSON lines (*.jsonl)"
        )
        if path:
            self.save_export(path, logs)

    def save_export(self, path: str, logs: list[DeliveryLog]) -> bool:
        session = self.session
        assert session is not None
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(json_lines(logs))
        except OSError as error:
            session.messages.info(f"Could not save {path}: {error.strerror or error}")
            return False
        count = len(logs)
        session.messages.info(f"{count:,} deliver{'y' if count == 1 else 'ies'} saved to {path}.")
        return True

    # -- signature checker ---
    def open_checker(self) -> None:
        webhooks = [(w.id, w.endpoint) for w in self.model.webhooks]
        checker = SignatureChecker(self, webhooks)
        checker.secretWanted.connect(lambda webhook_id: self._fill_secret(checker, webhook_id))
        self.checker = checker
        checker.open()

    def _fill_secret(self, checker: SignatureChecker, webhook_id: str) -> None:
        if self.session is not None:
            self.write(f"secret:{webhook_id}", self._read_secret_into(checker, webhook_id))

    async def _read_secret_into(self, checker: SignatureChecker, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        secret = (await session.client.webhooks.get(webhook_id)).signing_secret
        if alive(checker):
            checker.use_secret(secret or "")

    # -- reveal the secret (issue 17 §5) ---
    def ask_reveal(self) -> None:
        webhook = self.selected
        if webhook is None or self.session is None:
            return
        self.confirm_write(
            f"reveal:{webhook.id}",
            "Reveal signing secret",
            f"Show the signing secret of {webhook.endpoint}?\n\nIt is read from the server, "
            "shown for 30 seconds and written nowhere. Anyone who sees it can sign requests "
            "your receiver will trust.",
            "Reveal",
            lambda: self._reveal(webhook.id),
        )

    async def _reveal(self, webhook_id: str) -> None:
        session = self.session
        assert session is not None
        secret = (await session.client.webhooks.get(webhook_id)).signing_secret
        if not secret:
            session.messages.info("The server did not send this webhook's signing secret.")
            return
        self.secret_dialog = SecretDialog(self, secret, rotated=False, reveal=True)
        self.secret_dialog.open()


def _show_progress(dialog: BulkReplayDialog, progress: ReplayProgress) -> None:
    if alive(dialog):
        dialog.show_progress(progress)


def _show_request(dialog: ListenDialog, request: ReceivedRequest) -> None:
    if alive(dialog):
        dialog.add_request(request)


class WebhooksTable(QTableView):
    """The webhooks list. The endpoint is what tells webhooks apart: in a narrow window the
    columns the detail repeats give it their room ("Paused since" goes, "Events" narrows), so
    it never reads "https://…" (seen at 1024 px)."""

    NARROW_PX = 900

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        narrow = self.viewport().width() < self.NARROW_PX
        self.setColumnHidden(4, narrow)
        self.horizontalHeader().resizeSection(5, 110 if narrow else 170)

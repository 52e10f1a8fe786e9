"""One delivery: the payload as a tree and as raw text, the receiver's answer, the attempt facts."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFormLayout, QLabel, QPlainTextEdit, QTabWidget, QWidget

from app.models.webhooks import DeliveryLog, WebhookEnvelope
from app.webhooks.timeline import outcome
from ui.panels.webhooks.format import when
from ui.panels.webhooks.logs_model import OUTCOME_TEXT
from ui.widgets.json_tree import JsonTree


def envelope_of(log: DeliveryLog) -> dict[str, Any]:
    """The posted envelope as JSON values (what a replay to a local URL re-signs)."""
    payload = log.payload
    if isinstance(payload, WebhookEnvelope):
        return payload.model_dump(mode="json", by_alias=True)
    if isinstance(payload, dict):
        return payload
    return {}


def _mono() -> QPlainTextEdit:
    edit = QPlainTextEdit()
    edit.setReadOnly(True)
    edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return edit


class LogDetail(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = JsonTree()
        self.raw = _mono()
        self.response = _mono()
        self.response.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        facts = QWidget()
        self.facts = QFormLayout(facts)
        self.fact_labels: dict[str, QLabel] = {}
        for name in (
            "Delivery id",
            "Event",
            "Outcome",
            "Created",
            "Delivered",
            "Last failure",
            "Attempts",
            "Response status",
        ):
            label = QLabel()
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.fact_labels[name] = label
            self.facts.addRow(name + ":", label)
        self.addTab(facts, "Attempts")
        self.addTab(self.tree, "Payload")
        self.addTab(self.raw, "Raw")
        self.addTab(self.response, "Response")
        self.show_log(None)

    def show_log(self, log: DeliveryLog | None) -> None:
        self.setEnabled(log is not None)
        if log is None:
            self.tree.clear()
            self.raw.setPlainText("")
            self.response.setPlainText("")
            for label in self.fact_labels.values():
                label.setText("")
            return
        envelope = envelope_of(log)
        self.tree.set_value(envelope, expand_depth=2)
        self.raw.setPlainText(json.dumps(envelope, indent=2, ensure_ascii=False))
        if log.response_body is None:
            body = "(no response body recorded)"
        elif log.response_body == "":
            body = "(empty response body)"
        else:
            body = log.response_body
        status = "no answer (timeout or connection failure)"
        if log.response_status is not None:
            status = str(log.response_status)
        self.response.setPlainText(f"Status: {status}\n\n{body}")
        kind = outcome(log)
        facts = {
            "Delivery id": log.id,
            "Event": log.event_type or "(none)",
            "Outcome": OUTCOME_TEXT[kind]
            + (
                " — waiting for its first attempt, or for the next retry"
                if kind == "queued"
                else ""
            ),
            "Created": when(log.created_at),
            "Delivered": when(log.delivered_at),
            "Last failure": when(log.failed_at),
            "Attempts": f"{log.attempts} of up to 3",
            "Response status": status,
        }
        for name, text in facts.items():
            self.fact_labels[name].setText(text)

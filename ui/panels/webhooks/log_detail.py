"""One delivery: the payload as a tree and as raw text, the receiver's answer, the attempt facts."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QPlainTextEdit, QTabWidget, QWidget

from app.models.webhooks import DeliveryLog
from app.webhooks.raw_log import compact_body, payload_of, pretty_text
from app.webhooks.timeline import outcome
from ui.panels.webhooks.format import when
from ui.panels.webhooks.logs_model import OUTCOME_TEXT
from ui.widgets.json_tree import JsonTree
from ui.widgets.long_text_view import LongTextView


def envelope_of(log: DeliveryLog) -> dict[str, Any]:
    """The posted envelope as JSON values exactly as the service sent them (what a replay to a
    local URL re-signs: its compact form is the body the service signed)."""
    payload = payload_of(log)
    return payload if isinstance(payload, dict) else {}


def _mono(name: str) -> LongTextView:
    """A server's text, shown from its start (a 5 MB response body laid out whole froze the
    window for 12 minutes)."""
    view = LongTextView(name, monospace=True)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return view


class LogDetail(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = JsonTree()
        self.raw = _mono("Raw payload: the compact body as signed and sent")
        self.raw.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.pretty = _mono("Payload, indented")
        self.tree.setAccessibleName("Payload as a tree")
        self.response = _mono("Receiver's response")
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
            "Timeline",
        ):
            label = QLabel()
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            label.setAccessibleName(name)
            self.fact_labels[name] = label
            self.facts.addRow(name + ":", label)
        self.setAccessibleName("Delivery detail")
        self.addTab(facts, "Attempts")
        self.addTab(self.tree, "Payload")
        self.addTab(self.raw, "Raw")
        self.addTab(self.pretty, "Pretty")
        self.addTab(self.response, "Response")
        self.show_log(None)

    def show_log(self, log: DeliveryLog | None) -> None:
        self.setEnabled(log is not None)
        if log is None:
            self.tree.clear()
            self.raw.setPlainText("")
            self.pretty.setPlainText("")
            self.response.setPlainText("")
            for label in self.fact_labels.values():
                label.setText("")
            return
        payload = payload_of(log)
        self.tree.set_value(payload, expand_depth=2)
        # Made when their tab is opened: dumping a 10 MB payload twice took ~80 ms.
        self.raw.set_text_later(lambda: compact_body(payload).decode("utf-8"))
        self.pretty.set_text_later(lambda: pretty_text(payload))
        kind = outcome(log)
        if log.response_body is None:
            body = "(no response body recorded)"
        elif log.response_body == "":
            body = "(empty response body)"
        else:
            body = log.response_body
            if len(body) == BODY_CUT_AT:  # longer: this server does not cut (not the spec's)
                body += (
                    f"\n\n(cut at {BODY_CUT_AT:,} characters by the service: the rest is not kept)"
                )
        status = status_text(log.response_status, kind)
        self.response.setPlainText(f"Status: {status}\n\n{body}")
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
            "Timeline": attempts_timeline(log, kind),
        }
        for name, text in facts.items():
            self.fact_labels[name].setText(text)


BODY_CUT_AT = 2000
"""Spec §6: the service keeps at most this much of a receiver's answer."""


def status_text(status: int | None, kind: str) -> str:
    """What the receiver answered, in words where a number alone misleads."""
    if status is None:
        return (
            "queued — not sent yet"
            if kind == "queued"
            else ("no answer (timeout or connection failure)")
        )
    if 300 <= status < 400:
        return f"{status} — a redirect, which counts as a failure (redirects are not followed)"
    return str(status)


def attempts_timeline(log: DeliveryLog, kind: str) -> str:
    """Created, the attempts made, and how it ended, from what the log gives (the log keeps
    only the last failure and the delivery time, not each attempt's)."""
    steps = [f"created {when(log.created_at)}"]
    if kind == "queued" and log.attempts == 0:
        steps.append("waiting for its first attempt")
    elif log.attempts > 1:
        steps.append(f"{log.attempts - 1} failed attempt{'s' if log.attempts > 2 else ''}")
    if log.failed_at is not None:
        steps.append(f"last failure {when(log.failed_at)}")
    if log.delivered_at is not None:
        steps.append(f"delivered {when(log.delivered_at)} (attempt {max(log.attempts, 1)} of 3)")
    elif kind == "failed" and log.attempts >= 3:
        steps.append("given up after 3 attempts")
    elif kind != "delivered" and log.attempts < 3 and log.attempts > 0:
        steps.append(f"next retry pending ({3 - log.attempts} left)")
    return " → ".join(steps)

"""Tooltips for posts. Qt guesses whether tooltip text is rich text, so user text is escaped and
wrapped in an explicit rich-text envelope: whatever a post says is shown, never interpreted."""

from __future__ import annotations

from ui.calendar.entries import Entry
from ui.icons import network_name


def entry_tooltip(entry: Entry) -> str:
    import html  # on the first hover: with `html.entities` it cost ~2 ms of the first paint

    lines = [
        f"<b>{html.escape(entry.time_text or 'No date')}</b> · {html.escape(entry.status_text)}",
        html.escape(f"{network_name(entry.platform)} · {entry.account_text}"),
        html.escape(entry.summary),
    ]
    if entry.labels:
        lines.append(html.escape(", ".join(label.name for label in entry.labels)))
    return "<qt>" + "<br>".join(lines) + "</qt>"

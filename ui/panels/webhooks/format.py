"""How webhook facts read in the panel."""

from __future__ import annotations

from datetime import datetime

from app.domain.enums import WebhookStatus, known

PAUSE_AT = 5
"""Spec §6: a webhook is paused at 5 consecutive failed deliveries (one number everywhere: the
page, the list and the notification)."""

STATUS_TEXT = {
    WebhookStatus.ENABLED: "Enabled",
    WebhookStatus.PAUSED: "Paused",
    WebhookStatus.DISABLED: "Disabled",
}
STATUS_COLOURS = {  # background, text
    WebhookStatus.ENABLED: ("#dcfce7", "#166534"),
    WebhookStatus.PAUSED: ("#fef3c7", "#92400e"),
    WebhookStatus.DISABLED: ("#e5e7eb", "#374151"),
}
UNKNOWN_COLOURS = ("#fee2e2", "#991b1b")

PAUSED_EXPLANATION = (
    "Paused after {n} consecutive failed deliveries{since}. Real post events are skipped "
    "(not queued) until you enable it again; test pings and replays still go out. Enabling "
    "clears the failure count."
)


def status_text(raw: str | None) -> str:
    status = known(WebhookStatus, raw)
    return STATUS_TEXT[status] if status else f"unknown ({raw})"


def status_colours(raw: str | None) -> tuple[str, str]:
    status = known(WebhookStatus, raw)
    return STATUS_COLOURS[status] if status else UNKNOWN_COLOURS


def when(moment: datetime | None, empty: str = "—") -> str:
    if moment is None:
        return empty
    local = moment.astimezone() if moment.tzinfo else moment
    return local.strftime("%Y-%m-%d %H:%M:%S")


def failures(count: int) -> str:
    """ "2/5" on the way to a pause; past it (replays of a paused webhook may fail too) the count
    with the rule, never "6/5"."""
    if count > PAUSE_AT:
        return f"{count} (pauses at {PAUSE_AT})"
    return f"{count}/{PAUSE_AT}"

"""The zone the calendar shows by default: the system's own, with its DST rules.

`datetime.now().astimezone().tzinfo` is only today's fixed offset and would put posts after the
next DST change an hour off, so the IANA name is read from Qt (which knows it on every platform)
and turned into a `ZoneInfo`.
"""

from __future__ import annotations

import os
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from PySide6.QtCore import QTimeZone


def zone_from_name(name: str | None) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def system_time_zone() -> tzinfo:
    for name in (
        os.environ.get("TZ", "").lstrip(":"),
        bytes(QTimeZone.systemTimeZoneId().data()).decode("ascii", "replace"),
    ):
        zone = zone_from_name(name)
        if zone is not None:
            return zone
    return datetime.now().astimezone().tzinfo or ZoneInfo("UTC")


def zone_name(tz: tzinfo) -> str:
    key = getattr(tz, "key", None)
    return key if isinstance(key, str) else str(tz)

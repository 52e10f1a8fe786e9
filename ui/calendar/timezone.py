"""The zone the calendar shows by default: the system's own, with its DST rules.

`datetime.now().astimezone().tzinfo` is only today's fixed offset and would put posts after the
next DST change an hour off, so the IANA name is read and turned into a `ZoneInfo`: from `TZ`,
then from where `/etc/localtime` points (how Linux names the zone; Qt's own lookup, the fallback
on every other system, loads its whole zone database first: ~3 ms of the first paint).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone_from_name(name: str | None) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


LOCALTIME = "/etc/localtime"
ZONEINFO_DIR = "/zoneinfo/"


def system_time_zone() -> tzinfo:
    for name in _zone_names():
        zone = zone_from_name(name)
        if zone is not None:
            return zone
    return datetime.now().astimezone().tzinfo or ZoneInfo("UTC")


def _zone_names() -> Iterator[str]:
    yield os.environ.get("TZ", "").lstrip(":")
    yield linked_zone_name(LOCALTIME)
    from PySide6.QtCore import QTimeZone

    yield bytes(QTimeZone.systemTimeZoneId().data()).decode("ascii", "replace")


def linked_zone_name(path: str) -> str:
    """ "Europe/Berlin" for a link to `.../zoneinfo/Europe/Berlin`; "" when `path` is no such
    link (a copied file, another system): Qt is asked then."""
    try:
        target = os.readlink(path)
    except OSError:
        return ""
    _, found, name = target.rpartition(ZONEINFO_DIR)
    return name if found else ""


def zone_name(tz: tzinfo) -> str:
    key = getattr(tz, "key", None)
    return key if isinstance(key, str) else str(tz)

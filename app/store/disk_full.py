"""Telling a full disk from other failures, so the user reads "the disk is full" (issue 19 §2)."""

from __future__ import annotations

import errno
import sqlite3

_SQLITE_FULL = 13


def is_disk_full(exc: BaseException) -> bool:
    """`exc`, or an error it was raised from, says the disk (or the user's quota) is full."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if isinstance(current, sqlite3.Error) and (
            "disk is full" in str(current)
            or getattr(current, "sqlite_errorcode", None) == _SQLITE_FULL
        ):
            return True
        current = current.__cause__ or current.__context__
    return False


def disk_full_message(exc: BaseException) -> str:
    where = getattr(exc, "filename", None)
    place = f" (writing {where})" if where else ""
    return (
        f"The disk is full{place}. Free some disk space, then start Postdesk again; "
        "nothing you saved before was changed."
    )

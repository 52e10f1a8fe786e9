"""The one text form of an instant in Postdesk's files: `2026-10-25T00:30:00.000000Z`.

ISO 8601 in UTC with a fixed width, so sorting (and comparing) as text is sorting in time; both
files (the workspace cache and the local file) store it and query by it. It never goes on the
wire: the API's own forms are `app.models`' business (spec: `Y-m-d H:i:s` in REST resources).
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_text(moment: datetime) -> str:
    """`moment` in the stored form. Made by `isoformat`, not `strftime`: `strftime` looks up the
    `time` module through `__import__` at every call, and with PySide6 loaded each such import
    goes through shiboken's import hook (~35 us, 3 per post in a sync: ~1.5 ms a page). Both give
    the same text for years 1000-9999; `isoformat` pads earlier ones to width too."""
    if moment.tzinfo is None:
        raise ValueError("an aware datetime is needed (naive times are ambiguous)")
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat("T", "microseconds") + "Z"


def parse_utc_text(text: str) -> datetime:
    """An aware UTC datetime from `utc_text`'s form (also from the cache's form before its
    schema step 4, `2026-10-25 00:30:00.000000`, which had no zone and meant UTC).

    `fromisoformat` reads these fixed forms as they are (3.11 reads the "Z"); the first
    `strptime` of a run imports and compiles `_strptime` (~3 ms, paid by the first paint when
    it reads the last sync time)."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
